import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './types.js';

/** What the dispatcher needs from the metadata store (implemented by @quire/storage's WebhookRepo). */
export interface WebhookStorePort {
  /** Moves up to `limit` undelivered outbox events into deliveries for each interested endpoint (one transaction). Returns how many events were fanned out. */
  fanOut(limit: number, wants: (endpoint: WebhookEndpoint, type: string) => boolean): Promise<number>;
  /** Compare-and-set claim of due deliveries (pending and due, or delivering with an expired lease) for `dispatcher`. */
  claimDue(dispatcher: string, limit: number, leaseMs: number): Promise<WebhookDelivery[]>;
  getEndpoint(id: string): Promise<WebhookEndpoint | undefined>;
  /** Records an attempt and moves the delivery on, only if `dispatcher` still holds the claim. */
  finishAttempt(r: {
    deliveryId: number; dispatcher: string; statusCode: number | null; error: string | null; durationMs: number;
    outcome: 'succeeded' | 'failed' | 'retry'; retryInMs?: number;
  }): Promise<boolean>;
  listAttempts(deliveryId: number): Promise<WebhookAttempt[]>;
}

/** Sends one HTTP POST; resolves with the status (any status), rejects on network failure or timeout. */
export type WebhookSender = (req: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }) => Promise<{ status: number }>;
