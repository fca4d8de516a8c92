import { randomBytes } from 'node:crypto';
import { Webhook } from 'svix';

/**
 * Standard Webhooks / Svix signing, as the spec's Events section describes: the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, HMAC-SHA256 keyed with the base64-decoded secret,
 * sent as `v1,<base64>`. svix does the signing and verification.
 */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function signatureHeaders(secret: string, msgId: string, at: Date, body: string): Record<string, string> {
  const wh = new Webhook(secret);
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': wh.sign(msgId, at, body),
  };
}

/** Receiver side (tests, SDK): throws when the signature does not match or the timestamp is off by > 300 s. */
export function verifyWebhook(secret: string, body: string, headers: Record<string, string | string[] | undefined>): unknown {
  const pick = (k: string) => { const v = headers[k]; return Array.isArray(v) ? v[0] : v ?? ''; };
  return new Webhook(secret).verify(body, {
    'webhook-id': pick('webhook-id'), 'webhook-timestamp': pick('webhook-timestamp'), 'webhook-signature': pick('webhook-signature'),
  });
}
