import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SqlClient } from './sql-client.js';
import type { OutboxEvent } from './records.js';

/** Row shapes (kept in step with @quire/webhooks' types; storage does not depend on that package). */
export interface WebhookEndpointRow {
  id: string; org_id: string; url: string; description: string; secret: string; event_types: string[] | null;
  headers: Record<string, string>; disabled: boolean; created_at: Date; updated_at: Date;
}
export interface WebhookDeliveryRow {
  id: number; org_id: string; endpoint_id: string; outbox_id: number | null; msg_id: string; event_type: string;
  payload: Record<string, unknown>; status: 'pending' | 'delivering' | 'succeeded' | 'failed'; attempts: number;
  next_attempt_at: Date; claimed_by: string | null; claimed_until: Date | null; last_status_code: number | null;
  last_error: string | null; created_at: Date; updated_at: Date;
}
export interface WebhookAttemptRow {
  id: number; delivery_id: number; attempted_at: Date; status_code: number | null; error: string | null; duration_ms: number; dispatcher: string;
}

const DUE = `((status = 'pending' AND next_attempt_at <= now()) OR (status = 'delivering' AND claimed_until < now()))`;
const hashToken = (t: string) => createHash('sha256').update(t).digest('hex');

/** Webhook endpoints, deliveries (fanned out from the outbox), the attempt log and portal sessions. */
export class WebhookRepo {
  constructor(private readonly db: SqlClient) {}

  // --- endpoints (portal) ---
  async createEndpoint(e: { org_id: string; url: string; secret: string; description?: string; event_types?: string[] | null; headers?: Record<string, string> }): Promise<WebhookEndpointRow> {
    const { rows } = await this.db.query<WebhookEndpointRow>(
      `INSERT INTO webhook_endpoints (id, org_id, url, description, secret, event_types, headers) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING *`,
      [randomUUID(), e.org_id, e.url, e.description ?? '', e.secret, e.event_types ? JSON.stringify(e.event_types) : null, JSON.stringify(e.headers ?? {})]);
    return rows[0];
  }

  async listEndpoints(orgId: string): Promise<WebhookEndpointRow[]> {
    return (await this.db.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE org_id = $1 ORDER BY created_at', [orgId])).rows;
  }

  async getEndpoint(id: string, orgId?: string): Promise<WebhookEndpointRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const { rows } = orgId
      ? await this.db.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1 AND org_id = $2', [id, orgId])
      : await this.db.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
    return rows[0];
  }

  async updateEndpoint(id: string, orgId: string, p: { url?: string; description?: string; event_types?: string[] | null; headers?: Record<string, string>; disabled?: boolean }): Promise<WebhookEndpointRow | undefined> {
    const { rows } = await this.db.query<WebhookEndpointRow>(
      `UPDATE webhook_endpoints SET url = COALESCE($3, url), description = COALESCE($4, description),
         event_types = CASE WHEN $5::boolean THEN $6::jsonb ELSE event_types END, headers = COALESCE($7::jsonb, headers),
         disabled = COALESCE($8, disabled), updated_at = now()
       WHERE id = $1 AND org_id = $2 RETURNING *`,
      [id, orgId, p.url ?? null, p.description ?? null, p.event_types !== undefined, p.event_types ? JSON.stringify(p.event_types) : null,
        p.headers ? JSON.stringify(p.headers) : null, p.disabled ?? null]);
    return rows[0];
  }

  async deleteEndpoint(id: string, orgId: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND org_id = $2', [id, orgId])).rowCount > 0;
  }

  // --- dispatcher (WebhookStorePort) ---
  async fanOut(limit: number, wants: (endpoint: WebhookEndpointRow, type: string) => boolean): Promise<number> {
    return this.db.transaction(async (tx) => {
      const { rows: events } = await tx.query<OutboxEvent>(
        'SELECT * FROM outbox WHERE delivered_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED', [limit]);
      if (!events.length) return 0;
      const orgIds = [...new Set(events.map((e) => e.org_id))];
      const { rows: endpoints } = await tx.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE org_id = ANY($1::uuid[]) AND NOT disabled', [orgIds]);
      for (const ev of events) {
        for (const ep of endpoints.filter((x) => x.org_id === ev.org_id && wants(x, ev.type))) {
          await tx.query(
            `INSERT INTO webhook_deliveries (org_id, endpoint_id, outbox_id, msg_id, event_type, payload) VALUES ($1,$2,$3,$4,$5,$6)
             ON CONFLICT (endpoint_id, msg_id) DO NOTHING`,
            [ev.org_id, ep.id, ev.id, `msg_${ev.id}`, ev.type, JSON.stringify(ev.payload)]);
        }
      }
      await tx.query('UPDATE outbox SET delivered_at = now() WHERE id = ANY($1::bigint[])', [events.map((e) => e.id)]);
      return events.length;
    });
  }

  /** Compare-and-set claim: locked rows are skipped and the due condition is re-checked on the row being updated. */
  async claimDue(dispatcher: string, limit: number, leaseMs: number): Promise<WebhookDeliveryRow[]> {
    const { rows } = await this.db.query<WebhookDeliveryRow>(
      `UPDATE webhook_deliveries SET status = 'delivering', claimed_by = $1, claimed_until = now() + ($3::double precision * interval '1 millisecond'),
         attempts = attempts + 1, updated_at = now()
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE ${DUE} ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
         AND ${DUE}
       RETURNING *`, [dispatcher, limit, leaseMs]);
    return rows;
  }

  async finishAttempt(r: { deliveryId: number; dispatcher: string; statusCode: number | null; error: string | null; durationMs: number; outcome: 'succeeded' | 'failed' | 'retry'; retryInMs?: number }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query('INSERT INTO webhook_attempts (delivery_id, status_code, error, duration_ms, dispatcher) VALUES ($1,$2,$3,$4,$5)',
        [r.deliveryId, r.statusCode, r.error, r.durationMs, r.dispatcher]);
      const status = r.outcome === 'retry' ? 'pending' : r.outcome;
      const { rowCount } = await tx.query(
        `UPDATE webhook_deliveries SET status = $3, claimed_by = NULL, claimed_until = NULL, last_status_code = $4, last_error = $5, updated_at = now(),
           next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + ($6::double precision * interval '1 millisecond') ELSE next_attempt_at END
         WHERE id = $1 AND claimed_by = $2 AND status = 'delivering'`,
        [r.deliveryId, r.dispatcher, status, r.statusCode, r.error, r.retryInMs ?? 0]);
      return rowCount > 0;
    });
  }

  async listAttempts(deliveryId: number): Promise<WebhookAttemptRow[]> {
    return (await this.db.query<WebhookAttemptRow>('SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id', [deliveryId])).rows;
  }

  // --- portal ---
  async listDeliveries(endpointId: string, orgId: string, limit = 50): Promise<WebhookDeliveryRow[]> {
    return (await this.db.query<WebhookDeliveryRow>(
      'SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 AND org_id = $2 ORDER BY id DESC LIMIT $3', [endpointId, orgId, limit])).rows;
  }

  async createTestDelivery(endpoint: WebhookEndpointRow, type: string, payload: Record<string, unknown>): Promise<WebhookDeliveryRow> {
    const { rows } = await this.db.query<WebhookDeliveryRow>(
      `INSERT INTO webhook_deliveries (org_id, endpoint_id, outbox_id, msg_id, event_type, payload) VALUES ($1,$2,NULL,$3,$4,$5) RETURNING *`,
      [endpoint.org_id, endpoint.id, `msg_test_${randomUUID()}`, type, JSON.stringify(payload)]);
    return rows[0];
  }

  /** A portal link's token (shown once; its hash is stored) valid for `ttlSeconds`. */
  async createPortalSession(orgId: string, ttlSeconds: number): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.db.query(`INSERT INTO webhook_portal_sessions (token_hash, org_id, expires_at) VALUES ($1, $2, now() + ($3::double precision * interval '1 second'))`,
      [hashToken(token), orgId, ttlSeconds]);
    return token;
  }

  async resolvePortalSession(token: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ org_id: string }>('SELECT org_id FROM webhook_portal_sessions WHERE token_hash = $1 AND expires_at > now()', [hashToken(token)]);
    return rows[0]?.org_id;
  }
}
