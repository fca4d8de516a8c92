import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createLogger } from '@quire/runtime';
import { RetentionSweeper } from '@quire/jobs';
import { S3BlobStore, openMetadataStore, type BlobStore, type MetadataStore } from '@quire/storage';
import { admin, createDatabase, fleetEnvAvailable, fleetSkipMessage, startFleet, startS3rver, type Fleet } from '../../scripts/lib/fleet.mjs';

/**
 * Retention in distributed mode: the gateway process runs the sweeper (RetentionSweeper), so fleet
 * jobs expire and their S3 blobs go, as in embedded mode; and sweepers of several gateways (separate
 * connections to one Postgres, one bucket) do each round's work once.
 */
if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the fleet retention tests'));
const maybe = fleetEnvAvailable() ? describe : describe.skip;

const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Keys under `prefix` in the bucket, listed straight from S3 (not through Quire's blob store). */
async function s3Keys(endpoint: string, bucket: string, prefix: string): Promise<string[]> {
  const s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_CREDENTIALS });
  try {
    const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  } finally {
    s3.destroy();
  }
}

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 14, font });
  return doc.save();
}

const until = async <T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

maybe('fleet retention: the gateway process sweeps expired jobs and their S3 blobs', () => {
  let fleet: Fleet;
  let db: pg.Client;
  beforeAll(async () => {
    // A sweep every second (the default is 300 s); results kept in S3 (a row limit below these small results).
    fleet = await startFleet({ env: { QUIRE_SWEEP_INTERVAL_SECONDS: '1', QUIRE_RESULT_ROW_LIMIT_BYTES: '1000' } });
    db = new pg.Client({ connectionString: fleet.databaseUrl });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await fleet?.close();
  }, 60_000);

  const dump = () => `\n--- gateway ---\n${fleet.gateway.output().slice(-3000)}\n--- worker ---\n${fleet.workers[0].output().slice(-2000)}`;
  const row = async (id: string) => (await db.query('SELECT status, result_inline_blob, result_retrieved_at FROM jobs WHERE id = $1', [id])).rows[0];
  const submit = async (key: string, text: string) => {
    const fd = new FormData();
    fd.append('async', 'true');
    fd.append('file', new Blob([Buffer.from(await onePagePdf(text))], { type: 'application/pdf' }), 'r.pdf');
    const res = await fleet.api('/extract', { method: 'POST', body: fd, key });
    expect(res.status).toBe(202);
    return ((await res.json()) as { job_id: string }).job_id;
  };
  // Waits on the row, not GET /job: reading a completed result counts as its retrieval.
  const completed = (id: string) => until(`job ${id} completed${dump()}`, async () => (await row(id))?.status === 'completed');

  it('a job past its expiry becomes expired: GET /job answers 410 JOB_003, its blobs are gone from S3, its artifacts expired', async () => {
    const id = await submit(fleet.key, 'Retention in the fleet');
    await completed(id);
    const prefix = `${fleet.org.id}/${id}/`;
    const before = await s3Keys(fleet.s3Endpoint, 'quire-fleet', prefix);
    expect(before).toEqual(expect.arrayContaining([`${prefix}source`, (await row(id)).result_inline_blob]));
    const live = await fleet.api(`/job/${id}`);
    expect([live.status, ((await live.json()) as any).status]).toEqual([200, 'completed']);

    // The retention period has passed (the org's 48 h, moved into the past here).
    await db.query("UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    const gone = await until(`job ${id} to expire${dump()}`, async () => {
      const res = await fleet.api(`/job/${id}`);
      return res.status === 410 ? res : undefined;
    });
    expect(((await gone.json()) as any).error.code).toBe('JOB_003');
    expect(await s3Keys(fleet.s3Endpoint, 'quire-fleet', prefix)).toEqual([]);
    expect(await row(id)).toMatchObject({ status: 'expired', result_inline_blob: null });
    // the saved extraction (chained on by id) is expired with it
    expect((await db.query('SELECT type, expired FROM artifacts WHERE job_id = $1', [id])).rows).toEqual([{ type: 'extraction', expired: true }]);
  }, 60_000);

  it('an organization that deletes after retrieval loses a completed result once it was read, and keeps the unread one', async () => {
    const org = admin(fleet.env, 'org', 'create', 'fleet-dar', '--delete-after-retrieval');
    expect(org.delete_after_retrieval).toBe(true);
    const { key } = admin(fleet.env, 'key', 'create', org.id);
    const [read, unread] = [await submit(key, 'Read once'), await submit(key, 'Never read')];
    await completed(read);
    await completed(unread);
    const first = await fleet.api(`/job/${read}`, { key });
    const body = (await first.json()) as any;
    expect([first.status, body.status]).toEqual([200, 'completed']);
    expect(body.result.markdown).toContain('Read once');

    await until(`job ${read} to expire after its retrieval${dump()}`, async () => (await row(read)).status === 'expired');
    const again = await fleet.api(`/job/${read}`, { key });
    expect([again.status, ((await again.json()) as any).error.code]).toEqual([410, 'JOB_003']);
    expect(await s3Keys(fleet.s3Endpoint, 'quire-fleet', `${org.id}/${read}/`)).toEqual([]);
    // Later rounds (one of them sweeps a result read after the first): the unread result stays, with its blobs.
    const later = await submit(key, 'Read later');
    await completed(later);
    expect((await fleet.api(`/job/${later}`, { key })).status).toBe(200);
    await until(`job ${later} to expire after its retrieval${dump()}`, async () => (await row(later)).status === 'expired');
    expect((await row(unread)).status).toBe('completed');
    expect((await s3Keys(fleet.s3Endpoint, 'quire-fleet', `${org.id}/${unread}/`)).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('the gateway stops its sweeper with the rest on SIGTERM and exits 0', async () => {
    const exits = await fleet.stopServices();
    for (const e of exits) if (e.code !== 0 || e.killed) throw new Error(`${e.name} exited ${JSON.stringify(e)}${dump()}`);
  }, 40_000);
});

maybe('fleet retention: sweepers of several gateways over one Postgres and one bucket', () => {
  const log = createLogger('silent');
  const BUCKET = 'quire-sweep';
  let dbh: { url: string; drop(): Promise<void> };
  let s3: { endpoint: string; stop(): Promise<void> };
  // Two "gateways": each its own store (its own Postgres pool) and blob store, as two processes have.
  let a: { store: MetadataStore; blobs: S3BlobStore };
  let b: { store: MetadataStore; blobs: S3BlobStore };
  let orgId = '';
  beforeAll(async () => {
    dbh = await createDatabase(process.env.DATABASE_URL!, 'quire_sweep');
    s3 = await startS3rver();
    const open = async () => ({
      store: await openMetadataStore({ kind: 'postgres', url: dbh.url }),
      blobs: new S3BlobStore({ endpoint: s3.endpoint, region: 'us-east-1', bucket: BUCKET, forcePathStyle: true, ...S3_CREDENTIALS }),
    });
    a = await open();
    b = await open();
    await a.blobs.ensureBucket();
    orgId = (await a.store.orgs.create({ name: 'sweep' })).id;
  }, 60_000);
  afterAll(async () => {
    for (const g of [a, b]) { await g?.store.close(); await g?.blobs.close(); }
    await s3?.stop();
    await dbh?.drop();
  }, 60_000);

  /** Completed jobs whose expiry has passed, each with a source, a stored result and an artifact. */
  const expiredJobs = async (n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      const { store, blobs } = a;
      await store.jobs.create({
        id, org_id: orgId, key_id: null, kind: 'extract', request: {}, input: {}, credits_reserved: 0, expires_at: new Date(Date.now() - 60_000),
      });
      await blobs.put(`${orgId}/${id}/source`, Buffer.from(`source ${i}`));
      await blobs.put(`${orgId}/${id}/result.json`, Buffer.from('{"markdown":"x"}'));
      await store.artifacts.create({ id: randomUUID(), org_id: orgId, job_id: id, type: 'extraction', data: {}, expires_at: new Date(Date.now() - 60_000) });
      await store.jobs.claim(id, 60_000);
      await store.jobs.transition(id, 'completed', { result_inline_blob: `${orgId}/${id}/result.json` });
      ids.push(id);
    }
    return ids;
  };
  const expectSwept = async (ids: string[]) => {
    const { rows } = await a.store.sql.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM jobs WHERE id = ANY($1::uuid[]) GROUP BY status', [ids]);
    expect(rows).toEqual([{ status: 'expired', n: ids.length }]);
    const { rows: arts } = await a.store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM artifacts WHERE job_id = ANY($1::uuid[]) AND NOT expired', [ids]);
    expect(arts[0].n).toBe(0);
    expect(await s3Keys(s3.endpoint, BUCKET, `${orgId}/`)).toEqual([]);
  };

  it('two sweepers starting a round together: one sweeps, the other skips the round (advisory lock), the work is done once', async () => {
    const ids = await expiredJobs(12);
    // Hold the first round inside its first deletion until the second sweeper has tried.
    let entered!: () => void;
    const inRound = new Promise<void>((r) => { entered = r; });
    let go!: () => void;
    const gate = new Promise<void>((r) => { go = r; });
    const gatedBlobs: BlobStore = Object.assign(Object.create(a.blobs) as S3BlobStore, {
      deletePrefix: async (prefix: string) => { entered(); await gate; return a.blobs.deletePrefix(prefix); },
    });
    const first = new RetentionSweeper(a.store, gatedBlobs, log);
    const second = new RetentionSweeper(b.store, b.blobs, log);
    const round1 = first.sweepOnce();
    await inRound;
    expect(await second.sweepOnce()).toBeNull(); // skipped at once, not waiting for the lock
    go();
    expect(await round1).toBe(12);
    await expectSwept(ids);
    // The lock is released with the round: the next round of either runs (and finds nothing left).
    expect(await second.sweepOnce()).toBe(0);
    expect(await first.sweepOnce()).toBe(0);
  }, 60_000);

  it('rounds at the same moment on both, ungated: every job expired once in all, no errors', async () => {
    const ids = await expiredJobs(20);
    const results = await Promise.all([new RetentionSweeper(a.store, a.blobs, log).sweepOnce(), new RetentionSweeper(b.store, b.blobs, log).sweepOnce()]);
    // One of them swept all 20; the other skipped (null) or, if it started after the first had finished, found none.
    expect(results.map((r) => r ?? 0).sort((x, y) => x - y)).toEqual([0, 20]);
    await expectSwept(ids);
  }, 60_000);

  it('without the lock the expiry itself is still safe twice at once: one compare-and-set wins, the blobs go once, no errors', async () => {
    // What runs when the lock was lost mid-round (its connection ended) and another gateway started one.
    const ids = await expiredJobs(8);
    const sa = new RetentionSweeper(a.store, a.blobs, log);
    const sb = new RetentionSweeper(b.store, b.blobs, log);
    const won = await Promise.all(ids.map(async (id) => Promise.all([sa.expire({ id, org_id: orgId }), sb.expire({ id, org_id: orgId })])));
    for (const pair of won) expect(pair.filter(Boolean)).toHaveLength(1);
    await expectSwept(ids);
  }, 60_000);
});
