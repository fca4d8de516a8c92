import { PDFDocument, StandardFonts } from 'pdf-lib';
import { verifyWebhook } from '@quire/webhooks';
import { startReceiver } from '../support/webhook-receiver.js';
import { admin, fleetEnvAvailable, fleetSkipMessage, spawnService, startFleet, type Fleet } from '../../scripts/lib/fleet.mjs';

/**
 * Distributed mode end to end: the gateway and worker-extract as separate processes (the built
 * dist/), over a fresh Postgres database, Redis (a unique BullMQ prefix) and s3rver.
 */
if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the distributed fleet e2e test'));
const maybe = fleetEnvAvailable() ? describe : describe.skip;

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font });
  page.drawText('Second line of the fleet document', { x: 72, y: 670, size: 12, font });
  return doc.save();
}

function form(bytes: Uint8Array, name: string, fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), name);
  return fd;
}

maybe('fleet: gateway and worker-extract as separate processes over Postgres, Redis and S3', () => {
  let fleet: Fleet;
  let asyncJobId = '';
  beforeAll(async () => {
    // A row limit below these small results: the extractions' results live in S3 and are delivered inline.
    fleet = await startFleet({ workers: ['worker-extract', 'webhook-dispatcher'], env: { QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', QUIRE_WEBHOOK_POLL_MS: '100', QUIRE_RESULT_ROW_LIMIT_BYTES: '1000' } });
  }, 60_000);
  afterAll(async () => {
    await fleet?.close();
  }, 60_000);

  const dump = () => `\n--- gateway ---\n${fleet.gateway.output().slice(-3000)}\n--- worker ---\n${fleet.workers[0].output().slice(-3000)}`;

  it('is ready: database, queue and blob store all reachable', async () => {
    const res = await fetch(`${fleet.url}/readyz`);
    expect(await res.json()).toEqual({ status: 'ready', checks: { database: 'ok', queue: 'ok', blobs: 'ok' } });
  });

  it('runs an async extract end to end: 202, queued, completed by the worker process, result fetched', async () => {
    const pdf = await onePagePdf('Fleet async extraction works');
    const res = await fleet.api('/extract', { method: 'POST', body: form(pdf, 'fleet.pdf', { async: 'true' }) });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { job_id: string; status: string; message: string };
    expect(accepted.status).toBe('pending');
    asyncJobId = accepted.job_id;
    const seen = new Set<string>();
    let job: any;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await fleet.api(`/job/${accepted.job_id}`);
      expect(r.status).toBe(200);
      job = await r.json();
      seen.add(job.status);
      if (['completed', 'failed', 'canceled', 'expired'].includes(job.status)) break;
      if (Date.now() > deadline) throw new Error(`job still ${job.status}${dump()}`);
      await new Promise((r2) => setTimeout(r2, 50));
    }
    if (job.status !== 'completed') throw new Error(`job ${job.status}: ${JSON.stringify(job.error)}${dump()}`);
    expect(job.result.markdown).toContain('Fleet async extraction works');
    expect(job.result.credits_used).toBe(1);
    expect(job.completed_at).toEqual(expect.any(String));
    // The job went through the broker: it was never run by the gateway.
    expect([...seen].every((s) => ['pending', 'queued', 'processing', 'completed'].includes(s))).toBe(true);
    // The result (kept in S3, out of the job row) is also served by GET /results with the key.
    const stored = await fleet.api(`/results/${accepted.job_id}`);
    expect(stored.status).toBe(200);
    expect(await stored.json()).toEqual(job.result);

    // The stored source document lives in S3 and the saved extraction is usable by id.
    const usage = await fleet.api('/usage');
    expect(usage.status).toBe(200);
    expect(((await usage.json()) as any).totals.credits).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it('runs a synchronous extract through the same queue and waits for the worker', async () => {
    const pdf = await onePagePdf('Fleet sync extraction works');
    const res = await fleet.api('/extract', { method: 'POST', body: form(pdf, 'sync.pdf') });
    const body = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}${dump()}`);
    expect(body.markdown).toContain('Fleet sync extraction works');
    expect(body.page_count).toBe(1);
    expect(body.plan_info).toMatchObject({ tier: expect.any(String) });
    // Sync extractions are jobs too: the same record is visible through GET /job.
    const job = (await (await fleet.api(`/job/${body.extraction_id}`)).json()) as any;
    expect(job.status).toBe('completed');
  }, 40_000);

  it('keeps organizations apart: another organization\'s key sees a 404', async () => {
    const other = admin(fleet.env, 'org', 'create', 'fleet-other');
    const { key } = admin(fleet.env, 'key', 'create', other.id);
    const foreign = await fleet.api(`/job/${asyncJobId}`, { key });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as any).error.code).toBe('JOB_001');
    const res = await fleet.api('/job/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.code).toBe('JOB_001');
    const bad = await fleet.api('/job/whatever', { key: 'qk_not_a_real_key_000000000' });
    expect(bad.status).toBe(401);
  });

  it('answers a malformed job id 400 REQ_003, an unknown path 404 and a wrong method 405 with Allow', async () => {
    const codeOf = async (res: Response) => [res.status, ((await res.json()) as any).error.code];
    expect(await codeOf(await fleet.api('/job/whatever'))).toEqual([400, 'REQ_003']);
    expect(await codeOf(await fleet.api('/nope'))).toEqual([404, 'ROUTE_NOT_FOUND']);
    const wrong = await fleet.api('/extract');
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(await codeOf(wrong)).toEqual([405, 'METHOD_NOT_ALLOWED']);
  });

  it('delivers signed job events through the webhook-dispatcher process', async () => {
    const rx = await startReceiver();
    try {
      const { link } = (await (await fleet.api('/webhook', { method: 'POST' })).json()) as { link: string };
      const token = new URL(link).searchParams.get('token')!;
      const created = await fetch(`${fleet.url}/webhook-portal/api/endpoints`, {
        method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: rx.url, event_types: ['job.completed'] }),
      });
      expect(created.status).toBe(201);
      const { secret } = (await created.json()) as { secret: string };
      const res = await fleet.api('/extract', { method: 'POST', body: form(await onePagePdf('Webhook fleet'), 'w.pdf', { async: 'true' }) });
      const { job_id } = (await res.json()) as { job_id: string };
      const deadline = Date.now() + 20_000;
      while (!rx.received.some((r) => JSON.parse(r.body).data?.job_id === job_id)) {
        if (Date.now() > deadline) throw new Error(`no webhook${dump()}\n--- dispatcher ---\n${fleet.workers[1].output().slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const got = rx.received.find((r) => JSON.parse(r.body).data?.job_id === job_id)!;
      expect(verifyWebhook(secret, got.body, got.headers)).toMatchObject({ type: 'job.completed', data: { job_id, status: 'completed' } });
    } finally {
      await rx.close();
    }
  }, 30_000);

  it('a worker stopped with SIGTERM mid-stream loses nothing: jobs in hand finish, the rest wait for the next worker', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fleet.api('/extract', { method: 'POST', body: form(await onePagePdf(`Drain ${i}`), `d${i}.pdf`, { async: 'true' }) });
      ids.push(((await res.json()) as { job_id: string }).job_id);
    }
    const statuses = async () => Promise.all(ids.map(async (id) => ((await (await fleet.api(`/job/${id}`)).json()) as any).status as string));
    const deadline = Date.now() + 20_000;
    while (!(await statuses()).some((s) => s === 'processing' || s === 'completed')) {
      if (Date.now() > deadline) throw new Error(`nothing started${dump()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const exit = await fleet.workers[0].stop();
    expect(exit).toMatchObject({ code: 0, killed: false });
    const after = await statuses();
    expect(after.every((s) => ['queued', 'completed'].includes(s))).toBe(true); // nothing left half-done, nothing failed
    const next = spawnService('worker-extract-2', 'services/worker-extract/dist/main.js', fleet.env);
    try {
      await next.ready;
      const end = Date.now() + 30_000;
      while (!(await statuses()).every((s) => s === 'completed')) {
        if (Date.now() > end) throw new Error(`not all completed: ${await statuses()}\n${next.output().slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      expect(await next.stop()).toMatchObject({ code: 0, killed: false });
    }
  }, 60_000);

  it('stops cleanly on SIGTERM: every process exits 0 without being killed', async () => {
    const exits = await fleet.stopServices();
    for (const e of exits) {
      if (e.code !== 0 || e.killed) throw new Error(`${e.name} exited ${JSON.stringify(e)}${dump()}`);
    }
    expect(exits.map((e) => e.name).sort()).toEqual(['gateway', 'webhook-dispatcher', 'worker-extract']);
  }, 40_000);
});
