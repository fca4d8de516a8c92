import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { openMetadataStore, type MetadataStore } from './metadata-store.js';
import type { JobSummary } from './records.js';
import { createTestDatabase } from '../../../tests/support/postgres.js';

type Factory = () => Promise<{ store: MetadataStore; cleanup: () => Promise<void> }>;

const pglite: Factory = async () => {
  const store = await openMetadataStore({ kind: 'pglite' });
  return { store, cleanup: () => store.close() };
};

const postgres: Factory = async () => {
  const db = await createTestDatabase();
  if (!db) throw new Error('no DATABASE_URL');
  const store = await openMetadataStore({ kind: 'postgres', url: db.url });
  return { store, cleanup: async () => { await store.close(); await db.drop(); } };
};

const adapters: [string, Factory, boolean][] = [
  ['pglite', pglite, true],
  ['postgres', postgres, Boolean(process.env.DATABASE_URL)],
];

for (const [name, factory, enabled] of adapters) {
  const d = enabled ? describe : describe.skip;
  if (!enabled) console.log(`metadata store: skipping the ${name} adapter (set DATABASE_URL to run it)`);
  d(`MetadataStore on ${name}`, () => {
    let store: MetadataStore;
    let cleanup: () => Promise<void>;
    let orgId: string;
    beforeAll(async () => {
      ({ store, cleanup } = await factory());
      orgId = (await store.orgs.create({ name: 'acme', flags: { form_filler: true } })).id;
    }, 60_000);
    afterAll(() => cleanup());

    const newJob = async () => {
      const id = randomUUID();
      await store.jobs.create({
        id, org_id: orgId, key_id: null, kind: 'extract', request: {}, input: {}, credits_reserved: 0, expires_at: new Date(Date.now() + 3600_000),
      });
      return id;
    };

    it('migrations are idempotent', async () => {
      const { migrate } = await import('./migrate.js');
      expect(await migrate(store.sql)).toEqual([]);
    });

    it('keys are stored hashed and found by the plaintext', async () => {
      const { key, record } = await store.keys.create(orgId, { name: 'k' });
      expect(record.hash).not.toContain(key);
      expect((await store.keys.findByKey(key))?.id).toBe(record.id);
      expect(await store.keys.findByKey(key + 'x')).toBeUndefined();
    });

    it('claims with compare-and-set and never completes a canceled job', async () => {
      const id = await newJob();
      const claimed = await store.jobs.claim(id, 60_000);
      expect(claimed?.status).toBe('processing');
      expect(await store.jobs.claim(id, 60_000)).toBeUndefined(); // already taken, lease valid
      expect((await store.jobs.transition(id, 'canceled'))?.status).toBe('canceled');
      expect(await store.jobs.transition(id, 'completed', { result: { x: 1 } })).toBeUndefined();
      expect((await store.jobs.get(id))?.result).toBeNull();
      const types = (await store.outbox.listForJob(id)).map((e) => e.type);
      expect(types).toEqual(['job.created', 'job.processing', 'job.cancelled']);
    });

    it('a job handed back to pending (retry, resume after a restart) emits no second job.created', async () => {
      const id = await newJob();
      await store.jobs.claim(id, 60_000);
      expect((await store.jobs.transition(id, 'pending'))?.status).toBe('pending');
      await store.jobs.claim(id, 60_000);
      await store.jobs.transition(id, 'completed', { result: {} });
      const types = (await store.outbox.listForJob(id)).map((e) => e.type);
      expect(types).toEqual(['job.created', 'job.processing', 'job.completed']);
    });

    it('state changes return every column but the result, and store pre-serialized JSON as is', async () => {
      const { JOB_SUMMARY_COLUMNS } = await import('./job-repo.js');
      const { rows } = await store.sql.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'jobs' AND table_schema = current_schema()");
      expect([...JOB_SUMMARY_COLUMNS].sort()).toEqual(rows.map((r) => r.column_name).filter((c) => c !== 'result').sort());
      const id = await newJob();
      await store.jobs.claim(id, 60_000);
      const done = await store.jobs.transition(id, 'completed', { result_json: '{"text":"hé","n":[1,2]}', result_inline_blob: null });
      expect(done?.status).toBe('completed');
      expect(done && 'result' in done).toBe(false);
      expect((await store.jobs.get(id))?.result).toEqual({ text: 'hé', n: [1, 2] });
      expect((await store.jobs.listChildren(id))).toEqual([]);
    });

    it('re-claims a processing job whose lease ran out', async () => {
      const id = await newJob();
      await store.jobs.claim(id, 1);
      await new Promise((r) => setTimeout(r, 20));
      const again = await store.jobs.claim(id, 60_000);
      expect(again?.attempts).toBe(2);
    });

    it('reserves credits against a cap atomically', async () => {
      const { record } = await store.keys.create(orgId, { creditCap: 10 });
      expect(await store.keys.reserve(record.id, 6)).toBe(true);
      expect(await store.keys.reserve(record.id, 6)).toBe(false);
      await store.keys.settle(record.id, 6, 4);
      const k = await store.keys.get(record.id);
      expect([k?.credits_used, k?.credits_reserved]).toEqual([4, 0]);
    });

    it('sums the ledger into totals and a timeline', async () => {
      const other = (await store.orgs.create({ name: 'ledger-org' })).id;
      await store.ledger.record({ org_id: other, key_id: null, job_id: null, kind: 'extract', credits: 2.5, pages: 2, documents: 1 });
      expect(await store.ledger.totals(other)).toEqual({ credits: 2.5, pages: 2, documents: 1 });
      expect(await store.ledger.pagesSince(other, new Date(Date.now() - 60_000))).toBe(2);
      expect(await store.ledger.pagesSince(other, new Date(Date.now() + 60_000))).toBe(0);
      const now = new Date();
      const tl = await store.ledger.timeline(other, 'day', new Date(now.getTime() - 2 * 86400_000), now);
      expect(tl.length).toBeGreaterThanOrEqual(3);
      expect(tl.reduce((a, b) => a + b.credits, 0)).toBe(2.5);
    });

    it('returns numeric and bigint columns as numbers', async () => {
      const { record } = await store.keys.create(orgId, { creditCap: 12.5 });
      await store.keys.reserve(record.id, 1.5);
      const key = (await store.keys.get(record.id))!;
      expect([key.credit_cap, key.credits_used, key.credits_reserved]).toEqual([12.5, 0, 1.5]);
      const id = randomUUID();
      await store.jobs.create({ id, org_id: orgId, key_id: record.id, kind: 'extract', request: {}, input: {}, credits_reserved: 1.5, expires_at: new Date(Date.now() + 3600_000), parent_id: id });
      expect((await store.jobs.claim(id, 60_000))?.credits_reserved).toBe(1.5);
      const done = (await store.jobs.transition(id, 'completed', { result: {}, credits_used: 0.75, pages: 3 }))!;
      expect([done.credits_reserved, done.credits_used, done.pages]).toEqual([1.5, 0.75, 3]);
      const [child] = await store.jobs.listChildren(id);
      expect([child.credits_reserved, child.credits_used]).toEqual([1.5, 0.75]);
      const ledgerOrg = (await store.orgs.create({ name: 'numeric-org' })).id;
      await store.ledger.record({ org_id: ledgerOrg, key_id: record.id, job_id: id, kind: 'extract', credits: 0.25, pages: 3, documents: 1 });
      expect(await store.ledger.totals(ledgerOrg)).toEqual({ credits: 0.25, pages: 3, documents: 1 });
      const events = await store.outbox.listForJob(id);
      expect(events.map((e) => typeof e.id)).toEqual(['number', 'number', 'number']);
      expect(Object.values(await store.jobs.countByStatus()).every((n) => typeof n === 'number')).toBe(true);
      const endpoint = await store.webhooks.createEndpoint({ org_id: orgId, url: 'https://hooks.example/numeric', secret: 'whsec_test' });
      expect(typeof (await store.webhooks.createTestDelivery(endpoint, 'job.completed', {})).id).toBe('number');
    });

    it('ends a job and releases its reservation exactly once, also when two calls race', async () => {
      const { record } = await store.keys.create(orgId, { creditCap: 100 });
      const reservedJob = async (credits: number) => {
        const id = randomUUID();
        await store.sql.transaction(async (tx) => {
          expect(await store.keys.reserve(record.id, credits, tx)).toBe(true);
          await store.jobs.create({ id, org_id: orgId, key_id: record.id, kind: 'extract', request: {}, input: {}, credits_reserved: credits, expires_at: new Date(Date.now() + 3600_000) }, tx);
        });
        return id;
      };
      const reserved = async () => (await store.keys.get(record.id))!.credits_reserved;
      const failure = { code: 'GENERAL_001', message: 'boom' };
      // another job's reservation stays outstanding throughout: a second release of the same job would eat into it
      await reservedJob(3);
      const once = await reservedJob(6);
      expect(await reserved()).toBe(9);
      const ended = await store.jobs.endAndRelease(once, 'failed', failure);
      expect([ended?.status, ended?.error]).toEqual(['failed', failure]);
      expect(await reserved()).toBe(3);
      expect(await store.jobs.endAndRelease(once, 'failed', failure)).toBeUndefined();
      expect(await store.jobs.endAndRelease(once, 'canceled')).toBeUndefined();
      expect(await reserved()).toBe(3);

      // The second call starts while the first one's transaction is open (on Postgres it waits on the row
      // lock, on another connection), and finds the job already ended when that transaction commits.
      const raced = await reservedJob(2);
      let second!: Promise<JobSummary | undefined>;
      const first = await store.sql.transaction(async (tx) => {
        const won = await store.jobs.endAndRelease(raced, 'canceled', undefined, tx);
        second = store.jobs.endAndRelease(raced, 'failed', failure);
        if (name === 'postgres') {
          const waiting = async () => (await store.sql.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0].n;
          while (!(await waiting())) await new Promise((r) => setTimeout(r, 10));
        }
        return won;
      });
      expect(first?.status).toBe('canceled');
      expect(await second).toBeUndefined();
      expect(await reserved()).toBe(3);

      // and two calls at once, neither in a transaction of the caller's
      const both = await reservedJob(4);
      const results = await Promise.all([store.jobs.endAndRelease(both, 'canceled'), store.jobs.endAndRelease(both, 'failed', failure)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await reserved()).toBe(3);
      expect((await store.keys.get(record.id))!.credits_used).toBe(0);
      expect((await store.outbox.listForJob(both)).map((e) => e.type)).toEqual(['job.created', results[0] ? 'job.cancelled' : 'job.failed']);
    });

    it('draws distinct schema versions for concurrent runs of one lineage, continuing after existing records', async () => {
      const key = `cfg-${randomUUID()}`;
      // concurrent draws (separate connections on Postgres): each gets its own number
      const drawn = await Promise.all(Array.from({ length: 12 }, () => store.artifacts.nextSchemaVersion(orgId, key)));
      expect([...drawn].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      // another lineage and another organization count on their own
      expect(await store.artifacts.nextSchemaVersion(orgId, `${key}-b`)).toBe(1);
      const other = (await store.orgs.create({ name: 'versions-org' })).id;
      expect(await store.artifacts.nextSchemaVersion(other, key)).toBe(1);
      // a lineage whose records predate the counter starts after its highest version
      const legacy = `cfg-${randomUUID()}`, job = await newJob();
      await store.artifacts.create({ id: randomUUID(), org_id: orgId, job_id: job, type: 'schema', data: { config_key: legacy, version: 7 }, expires_at: new Date(Date.now() + 3600_000) });
      expect(await store.artifacts.nextSchemaVersion(orgId, legacy)).toBe(8);
      expect(await store.artifacts.nextSchemaVersion(orgId, legacy)).toBe(9);
    });

    it('withTryLock: one holder at a time, others skip without waiting, released after the holder ends (or throws)', async () => {
      const KEY = 990001;
      let release!: () => void;
      let entered!: () => void;
      const inside = new Promise<void>((r) => { entered = r; });
      const released = new Promise<void>((r) => { release = r; });
      const holder = store.sql.withTryLock(KEY, async () => {
        // the store answers other queries while the lock is held (PGlite: its one connection is not held)
        expect((await store.sql.query<{ n: number }>('SELECT 1 AS n')).rows[0].n).toBe(1);
        entered();
        await released;
        return 'done';
      });
      await inside;
      // a second caller (on Postgres: another connection, as another process would be) does not run and does not wait
      let ran = false;
      const started = Date.now();
      expect(await store.sql.withTryLock(KEY, async () => { ran = true; })).toEqual({ acquired: false });
      expect([ran, Date.now() - started < 2000]).toEqual([false, true]);
      // another key is independent
      expect(await store.sql.withTryLock(KEY + 1, async () => 7)).toEqual({ acquired: true, value: 7 });
      release();
      expect(await holder).toEqual({ acquired: true, value: 'done' });
      await expect(store.sql.withTryLock(KEY, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
      expect(await store.sql.withTryLock(KEY, async () => 'again')).toEqual({ acquired: true, value: 'again' });
    });

    // a Postgres connection only: PGlite's lock is held keys in memory, with no connection to lose
    if (name === 'postgres') it('withTryLock on Postgres: a lost lock connection frees the lock and does not crash the holder', async () => {
      const KEY = 990011;
      let release!: () => void;
      const released = new Promise<void>((r) => { release = r; });
      let entered!: () => void;
      const inside = new Promise<void>((r) => { entered = r; });
      const holder = store.sql.withTryLock(KEY, async () => { entered(); await released; return 'finished'; });
      await inside;
      // the server ends the lock's connection (a failover, an idle-in-transaction timeout, a dead process)
      const { rows } = await store.sql.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted", [KEY]);
      expect(rows).toHaveLength(1);
      await store.sql.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      let got: unknown;
      for (let i = 0; i < 50 && !(got = await store.sql.withTryLock(KEY, async () => 'next') as { acquired: boolean }).acquired; i++) await new Promise((r) => setTimeout(r, 20));
      expect(got).toEqual({ acquired: true, value: 'next' });
      release();
      expect(await holder).toEqual({ acquired: true, value: 'finished' });
    });

    it('hides another organization\'s job', async () => {
      const id = await newJob();
      const other = (await store.orgs.create({ name: 'other' })).id;
      expect(await store.jobs.getForOrg(other, id)).toBeUndefined();
      expect((await store.jobs.getForOrg(orgId, id))?.id).toBe(id);
      expect(await store.jobs.getForOrg(orgId, 'not-a-uuid')).toBeUndefined();
    });
  });
}

describe('MetadataStore on pglite in a data directory', () => {
  it('creates a data directory that does not exist yet (a fresh checkout\'s ./data) and keeps what it stored', async () => {
    const root = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'quire-pglite-'));
    const dataDir = path.join(root, 'not', 'yet', 'there', 'pglite');
    try {
      const store = await openMetadataStore({ kind: 'pglite', dataDir });
      // created (on a thread of its own, whose wasm memory goes with it) before this store opened it
      expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      const org = await store.orgs.create({ name: 'Fresh dir' });
      await store.close();
      const again = await openMetadataStore({ kind: 'pglite', dataDir });
      expect((await again.orgs.get(org.id))?.name).toBe('Fresh dir');
      await again.close();
    } finally {
      await fs.promises.rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
