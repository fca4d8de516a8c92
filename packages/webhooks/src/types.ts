/** Event kinds the spec names (job.cancelled is spelled with two l's while the status is "canceled"). */
export const WEBHOOK_EVENT_TYPES = ['job.created', 'job.processing', 'job.completed', 'job.failed', 'job.cancelled'] as const;
/** Sent only by the portal's "send test event". */
export const TEST_EVENT_TYPE = 'webhook.test';

export interface WebhookEndpoint {
  id: string;
  org_id: string;
  url: string;
  description: string;
  /** 'whsec_' + base64 key. */
  secret: string;
  /** null = every event type. */
  event_types: string[] | null;
  /** Extra headers sent with every delivery (e.g. an Authorization header for the receiver). */
  headers: Record<string, string>;
  disabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  id: number;
  org_id: string;
  endpoint_id: string;
  outbox_id: number | null;
  /** webhook-id: stable across retries, the receiver's idempotency key. */
  msg_id: string;
  event_type: string;
  payload: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | string;
  claimed_by: string | null;
  claimed_until: Date | string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface WebhookAttempt {
  id: number;
  delivery_id: number;
  attempted_at: Date | string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  dispatcher: string;
}
