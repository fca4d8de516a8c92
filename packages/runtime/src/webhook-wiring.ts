import { isQuireError } from '@quire/core';
import type { MetadataStore } from '@quire/storage';
import { WebhookDispatcher, type WebhookSender, type WebhookStorePort } from '@quire/webhooks';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { safeFetch } from './net/safe-fetch.js';

/**
 * Webhook POSTs through the SSRF guard (endpoints are user-supplied URLs): public addresses only unless
 * allow-listed, no redirects. Any HTTP status is returned; network failures and timeouts reject.
 */
function webhookSender(config: Config): WebhookSender {
  return async ({ url, headers, body, timeoutMs }) => {
    try {
      const r = await safeFetch(url, {
        method: 'POST', headers, body, timeoutMs, maxRedirects: 0, maxBytes: 64 * 1024,
        allowPrivate: config.webhooks.allowPrivate, allowHosts: config.webhooks.allowHosts,
      });
      r.body.resume();
      return { status: r.status };
    } catch (e) {
      const status = isQuireError(e) ? (e.details?.status as number | undefined) : undefined;
      if (typeof status === 'number') return { status };
      throw e;
    }
  };
}

/** The dispatcher wired to the metadata store and the guarded sender (embedded in-process, or services/webhook-dispatcher). */
export function createWebhookDispatcher(store: MetadataStore, config: Config, log: Logger, name?: string): WebhookDispatcher {
  return new WebhookDispatcher({
    store: store.webhooks satisfies WebhookStorePort, // storage does not import @quire/webhooks; its row types match the port
    send: webhookSender(config),
    retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
    pollIntervalMs: config.webhooks.pollMs,
    timeoutMs: config.webhooks.timeoutMs,
    name,
    onError: (err, where) => log.warn({ err, where }, 'webhook dispatcher error'),
  });
}
