import { createHmac, randomUUID } from 'node:crypto';
import { MetadataStore, PgSqlClient, PgliteSqlClient, migrate, type SqlClient } from '@quire/storage';
import { migratedPgliteTemplate } from '../../../tests/support/pglite-template.js';
import { startReceiver } from '../../../tests/support/webhook-receiver.js';
import { WebhookDispatcher } from './dispatcher.js';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, endpointWants, nextAttemptDelayMs } from './schedule.js';
import { generateSecret, signatureHeaders, verifyWebhook } from './signing.js';
import type { WebhookSender } from './ports.js';

const send: WebhookSender = async ({ url, headers, body }) => ({ status: (await fetch(url, { method: 'POST', headers, body })).status });

describe('signing (Standard Webhooks via svix)', () => {
  it('signs id.timestamp.body with HMAC-SHA256 keyed by the base64-decoded secret, as the spec states', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ type: 'job.completed', data: { job_id: 'j' } });
    const at = new Date();
    const h = signatureHeaders(secret, 'msg_1', at, body);
    const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`msg_1.${Math.floor(at.getTime() / 1000)}.${body}`).digest('base64');
    expect(h['webhook-signature']).toBe(`v1,${expected}`);
    expect(verifyWebhook(secret, body, h)).toEqual(JSON.parse(body));
    expect(() => verifyWebhook(secret, body.replace('j', 'k'), h)).toThrow();
    expect(() => verifyWebhook(generateSecret(), body, h)).toThrow();
    const old = signatureHeaders(secret, 'msg_1', new Date(Date.now() - 600_000), body);
    expect(() => verifyWebhook(secret, body, old)).toThrow(/too old/i);
  });

  it('retries on a growing schedule with jitter and filters by event type', () => {
    expect(nextAttemptDelayMs(1, DEFAULT_RETRY_SCHEDULE_SECONDS, () => 0.5)).toBe(5000);
    expect(nextAttemptDelayMs(2, DEFAULT_RETRY_SCHEDULE_SECONDS, () => 0)).toBe(270_000);
    expect(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE_SECONDS.length)).toBeUndefined();
    expect(endpointWants({ event_types: null, disabled: false }, 'job.failed')).toBe(true);
    expect(endpointWants({ event_types: ['job.completed'], disabled: false }, 'job.failed')).toBe(false);
    expect(endpointWants({ event_types: null, disabled: true }, 'job.failed')).toBe(false);
  });
});

async function seed(store: MetadataStore, url: string, events: number, eventTypes: string[] | null = null) {
  const org = await store.orgs.create({ name: `wh-${randomUUID()}` });
  const secret = generateSecret();
  const endpoint = await store.webhooks.createEndpoint({ org_id: org.id, url, secret, event_types: eventTypes });
  for (let i = 0; i < events; i++) {
    const type = i % 2 ? 'job.completed' : 'job.created';
    await store.sql.query('INSERT INTO outbox (org_id, job_id, type, payload) VALUES ($1,$2,$3,$4)',
      [org.id, randomUUID(), type, JSON.stringify({ type, timestamp: new Date().toISOString(), data: { job_id: `j${i}`, status: 'x', pages_processed: 1, processing_time: 0.1 } })]);
  }
  return { org, secret, endpoint };
}

function describeDispatcher(name: string, open: () => Promise<{ sql: SqlClient; cleanup?: () => Promise<void> }>) {
  describe(`WebhookDispatcher over ${name}`, () => {
    let store: MetadataStore;
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const o = await open();
      await migrate(o.sql);
      store = new MetadataStore(o.sql);
      cleanup = o.cleanup;
    }, 60_000);
    afterAll(async () => { await store?.close(); await cleanup?.(); });

    it('three dispatchers racing deliver every event exactly once, signed, honouring the filter', async () => {
      const rx = await startReceiver();
      try {
        const { secret } = await seed(store, rx.url, 30, ['job.completed']);
        const ds = [1, 2, 3].map((i) => new WebhookDispatcher({ store: store.webhooks, send, name: `d${i}`, batchSize: 4 }));
        for (let round = 0; round < 10; round++) await Promise.all(ds.map((d) => d.tick()));
        expect(rx.received).toHaveLength(15);
        const ids = rx.received.map((r) => r.headers['webhook-id']);
        expect(new Set(ids).size).toBe(15);
        for (const r of rx.received) {
          const p = verifyWebhook(secret, r.body, r.headers) as { type: string };
          expect(p.type).toBe('job.completed');
        }
      } finally {
        await rx.close();
      }
    }, 30_000);

    it('retries a failing endpoint on the schedule, logs every attempt, and gives up after the last', async () => {
      const rx = await startReceiver((_r, n) => (n === 1 ? 500 : n === 2 ? 200 : 503));
      try {
        const { endpoint } = await seed(store, rx.url, 2); // job.created (500 then 200), job.completed (…)
        const d = new WebhookDispatcher({ store: store.webhooks, send, name: 'retry', retryScheduleSeconds: [0, 0.05, 0.05] });
        // tick until both deliveries are settled (each retry waits out its 50 ms on the schedule)
        let deliveries = await store.webhooks.listDeliveries(endpoint.id, endpoint.org_id);
        while (deliveries.length < 2 || deliveries.some((x) => x.status !== 'failed' && x.status !== 'succeeded')) {
          await d.tick();
          await new Promise((r) => setTimeout(r, 10));
          deliveries = await store.webhooks.listDeliveries(endpoint.id, endpoint.org_id);
        }
        const byType = Object.fromEntries(deliveries.map((x) => [x.event_type, x]));
        // Attempts interleave across the two deliveries; whichever got the 500 was retried.
        const statuses = deliveries.map((x) => x.status).sort();
        expect(statuses).toEqual(['failed', 'succeeded']);
        const failed = deliveries.find((x) => x.status === 'failed')!;
        expect(failed.attempts).toBe(3);
        const log = await store.webhooks.listAttempts(failed.id);
        expect(log).toHaveLength(3);
        expect(log.every((a) => a.status_code !== null && a.status_code >= 500)).toBe(true);
        const ok = deliveries.find((x) => x.status === 'succeeded')!;
        expect((await store.webhooks.listAttempts(ok.id)).at(-1)!.status_code).toBe(200);
        // The same webhook-id on every attempt of a delivery (the receiver's idempotency key).
        const idsFor = (t: string) => new Set(rx.received.filter((r) => JSON.parse(r.body).type === t).map((r) => r.headers['webhook-id']));
        expect(idsFor(byType['job.created'].event_type).size).toBe(1);
      } finally {
        await rx.close();
      }
    }, 30_000);
  });
}

describeDispatcher('PGlite', async () => ({ sql: await PgliteSqlClient.open(undefined, await migratedPgliteTemplate()) }));

const pgUrl = process.env.DATABASE_URL;
if (!pgUrl) console.log('WebhookDispatcher over Postgres skipped: set DATABASE_URL to run it');
(pgUrl ? describeDispatcher : (n: string) => describe.skip(`WebhookDispatcher over ${n}`, () => it('skipped', () => undefined)))('Postgres', async () => {
  const { createTestDatabase } = await import('../../../tests/support/postgres.js');
  const db = (await createTestDatabase())!;
  return { sql: new PgSqlClient(db.url, { max: 6 }), cleanup: db.drop };
});
