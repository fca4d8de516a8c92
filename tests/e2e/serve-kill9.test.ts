import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ensureBuilt, type FleetService } from '../../scripts/lib/fleet.mjs';
import { SERVE_KEY, startServe } from '../support/serve-process.js';
import { seedEmbeddedDataDir } from '../support/pglite-template.js';

/**
 * kill -9 of a busy `quire serve` (real processes, one data directory) at several points: while uploads
 * are being accepted (after the first answer, after several) and while jobs are being processed. Every
 * restart takes over the dead process's lock and opens the database; at the end every job that was
 * answered 2xx is there and completes.
 */
async function textPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([612, 792]);
    for (let i = 0; i < 20; i++) page.drawText(`Page ${p}, line ${i + 1}: a job accepted is a job kept.`, { x: 72, y: 700 - i * 16, size: 11, font });
  }
  return doc.save();
}

const submit = (url: string, pdf: Uint8Array, n: number) => {
  const fd = new FormData();
  fd.append('async', 'true');
  fd.append('file', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), `doc-${n}.pdf`);
  return fetch(`${url}/extract`, { method: 'POST', headers: { 'x-api-key': SERVE_KEY }, body: fd });
};

const jobStatus = async (url: string, id: string) =>
  String(((await (await fetch(`${url}/job/${id}`, { headers: { 'x-api-key': SERVE_KEY } })).json()) as { status?: unknown }).status);

describe('embedded: kill -9 of a busy quire serve loses no accepted job', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-kill9-'));
  let pdf: Uint8Array;
  let current: FleetService | undefined;
  const accepted = new Set<string>();
  beforeAll(async () => {
    await ensureBuilt();
    await seedEmbeddedDataDir(dataDir); // kill -9 and the restarts are the subject, not the database's creation
    pdf = await textPdf(4);
  }, 120_000);
  afterAll(async () => {
    await current?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const killed = async (svc: FleetService) => {
    svc.child.kill('SIGKILL');
    expect((await svc.exited).signal).toBe('SIGKILL');
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'quire.lock'), 'utf8')).pid).toBe(svc.pid); // left behind: stale
  };

  /** Sends `total` uploads at once and kills the server as soon as `killAfter` of them were accepted. */
  async function killWhileAccepting(round: string, total: number, killAfter: number): Promise<void> {
    const { svc, url } = await startServe(round, dataDir);
    current = svc;
    let acceptedHere = 0;
    let kill: Promise<void> | undefined;
    await Promise.allSettled(Array.from({ length: total }, async (_, n) => {
      const res = await submit(url, pdf, n);
      if (res.status !== 202) throw new Error(`${res.status} ${await res.text()}`);
      accepted.add(((await res.json()) as { job_id: string }).job_id);
      if (++acceptedHere === killAfter) kill = killed(svc);
    }));
    expect(acceptedHere).toBeGreaterThanOrEqual(killAfter);
    await kill;
  }

  it('killed after the first accepted upload of 8', () => killWhileAccepting('kill-after-1', 8, 1), 120_000);

  it('killed after 5 accepted uploads of 12', () => killWhileAccepting('kill-after-5', 12, 5), 120_000);

  it('killed while jobs are being processed', async () => {
    const { svc, url } = await startServe('kill-processing', dataDir);
    current = svc;
    const ids = await Promise.all(Array.from({ length: 6 }, async (_, n) => {
      const res = await submit(url, pdf, 100 + n);
      expect(res.status).toBe(202);
      return ((await res.json()) as { job_id: string }).job_id;
    }));
    for (const id of ids) accepted.add(id);
    // Wait for the workers to be busy: some job has left the queue.
    for (;;) {
      const statuses = await Promise.all(ids.map((id) => jobStatus(url, id)));
      if (statuses.some((s) => s !== 'pending' && s !== 'queued')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await killed(svc);
  }, 120_000);

  it('a clean start afterwards finds every accepted job and completes it', async () => {
    const { svc, url } = await startServe('final', dataDir);
    current = svc;
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'quire.lock'), 'utf8')).pid).toBe(svc.pid);
    const deadline = Date.now() + 150_000;
    const unfinished = new Set(accepted);
    const final = new Map<string, string>();
    while (unfinished.size && Date.now() < deadline) {
      for (const id of [...unfinished]) {
        const status = await jobStatus(url, id);
        if (['completed', 'failed', 'canceled', 'expired', 'undefined'].includes(status)) { final.set(id, status); unfinished.delete(id); }
      }
      if (unfinished.size) await new Promise((r) => setTimeout(r, 200));
    }
    expect(accepted.size).toBeGreaterThanOrEqual(12);
    expect({ unfinished: [...unfinished], notCompleted: [...final].filter(([, s]) => s !== 'completed') }).toEqual({ unfinished: [], notCompleted: [] });
  }, 180_000);
});
