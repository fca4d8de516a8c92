import { randomUUID } from 'node:crypto';
import { deliveryBody, endpointWants, nextAttemptDelayMs, DEFAULT_RETRY_SCHEDULE_SECONDS } from './schedule.js';
import { signatureHeaders } from './signing.js';
import type { WebhookSender, WebhookStorePort } from './ports.js';
import type { WebhookDelivery } from './types.js';

export interface DispatcherOptions {
  store: WebhookStorePort;
  send: WebhookSender;
  /** Seconds after each attempt (index = attempts made so far); default Svix's schedule. */
  retryScheduleSeconds?: readonly number[];
  pollIntervalMs?: number;
  batchSize?: number;
  /** How long a claim lasts; a dispatcher that dies mid-send loses its claim after this. */
  leaseMs?: number;
  timeoutMs?: number;
  name?: string;
  onError?: (err: unknown, where: string) => void;
  now?: () => Date;
}

/**
 * Reads the outbox and delivers events to the endpoints configured per organization: fan-out (one
 * delivery per interested endpoint), compare-and-set claims so two dispatchers never send the same
 * delivery at once, Standard Webhooks signatures, retries with backoff, and a log of every attempt.
 * Delivery is at least once: a dispatcher that dies after sending but before recording may have its
 * delivery sent again after the lease; receivers dedupe on webhook-id, as the spec asks.
 */
export class WebhookDispatcher {
  readonly name: string;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private readonly o: Required<Omit<DispatcherOptions, 'onError' | 'now' | 'name'>> & Pick<DispatcherOptions, 'onError'> & { now: () => Date };

  constructor(opts: DispatcherOptions) {
    this.name = opts.name ?? `dispatcher-${randomUUID().slice(0, 8)}`;
    this.o = {
      store: opts.store, send: opts.send, retryScheduleSeconds: opts.retryScheduleSeconds ?? DEFAULT_RETRY_SCHEDULE_SECONDS,
      pollIntervalMs: opts.pollIntervalMs ?? 1000, batchSize: opts.batchSize ?? 20, leaseMs: opts.leaseMs ?? 60_000,
      timeoutMs: opts.timeoutMs ?? 15_000, onError: opts.onError, now: opts.now ?? (() => new Date()),
    };
  }

  /** One pass: fan out new events, then deliver what is due. Returns how many deliveries were attempted. */
  async tick(): Promise<number> {
    await this.o.store.fanOut(100, endpointWants);
    const due = await this.o.store.claimDue(this.name, this.o.batchSize, this.o.leaseMs);
    await Promise.all(due.map((d) => this.deliver(d).catch((e) => this.o.onError?.(e, `deliver:${d.id}`))));
    return due.length;
  }

  private async deliver(d: WebhookDelivery): Promise<void> {
    const endpoint = await this.o.store.getEndpoint(d.endpoint_id);
    const started = Date.now();
    let statusCode: number | null = null, error: string | null = null;
    if (!endpoint || endpoint.disabled) {
      error = 'endpoint removed or disabled';
    } else {
      const body = deliveryBody(d.payload);
      const headers = { ...endpoint.headers, 'content-type': 'application/json', 'user-agent': 'Quire-Webhooks/0.1', ...signatureHeaders(endpoint.secret, d.msg_id, this.o.now(), body) };
      try {
        statusCode = (await this.o.send({ url: endpoint.url, headers, body, timeoutMs: this.o.timeoutMs })).status;
        if (statusCode < 200 || statusCode >= 300) error = `endpoint answered ${statusCode}`;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    const ok = error === null;
    // d.attempts already counts this attempt (the claim increments it).
    const delay = ok || !endpoint || endpoint.disabled ? undefined : nextAttemptDelayMs(d.attempts, this.o.retryScheduleSeconds);
    await this.o.store.finishAttempt({
      deliveryId: d.id, dispatcher: this.name, statusCode, error, durationMs: Date.now() - started,
      outcome: ok ? 'succeeded' : delay === undefined ? 'failed' : 'retry',
      retryInMs: delay,
    });
  }

  start(): void {
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      this.running = (async () => {
        try {
          // Keep going while there is work; sleep when a pass finds nothing.
          while (!this.stopped && (await this.tick()) > 0) { /* next batch */ }
        } catch (e) {
          this.o.onError?.(e, 'tick');
        }
      })();
      await this.running;
      if (!this.stopped) this.timer = setTimeout(() => void loop(), this.o.pollIntervalMs);
    };
    void loop();
  }

  /** Stops polling and waits for the pass in progress (deliveries in flight finish and are recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
