import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, formWith, pollJob, SAMPLE_HTML } from '../support/embedded.js';
import { seedEmbeddedDataDir } from '../support/pglite-template.js';

describe('embedded: restart', () => {
  it('jobs accepted or in progress at a stop complete after the restart (nothing accepted is lost), announced once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restart-'));
    await seedEmbeddedDataDir(dataDir); // the restart is the subject, not the database's creation
    try {
      const first = await startTestServer({}, { persistent: true, dataDir, startWorkers: false });
      const res = await first.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'r.html' }, { async: 'true' }) });
      expect(res.status).toBe(202);
      const { job_id } = (await res.json()) as { job_id: string };
      expect((await first.server.ctx.store.jobs.get(job_id))!.status).toBe('pending');
      // A second job was being worked on when the server stopped (claimed, as a worker would).
      const busy = await first.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'busy.html' }, { async: 'true' }) });
      const { job_id: busyId } = (await busy.json()) as { job_id: string };
      expect((await first.server.ctx.store.jobs.claim(busyId, 60_000))?.status).toBe('processing');
      await first.close();
      // What an abrupt end leaves behind: a partial upload in the blob store's tmp/.
      const leftover = path.join(dataDir, 'blobs', 'tmp', 'partial-upload');
      fs.writeFileSync(leftover, 'half of a document');

      const second = await startTestServer({}, { persistent: true, dataDir });
      expect(fs.existsSync(leftover)).toBe(false);
      try {
        const job = (await pollJob(second, job_id)) as any;
        expect(job.status).toBe('completed');
        expect(job.result.markdown).toContain('Quarterly report');
        expect(((await pollJob(second, busyId)) as any).status).toBe('completed');
        // Resuming is not creating: each job announced job.created once, before the restart.
        for (const id of [job_id, busyId]) {
          const types = (await second.server.ctx.store.outbox.listForJob(id)).map((e) => e.type);
          expect(types.filter((ty) => ty === 'job.created')).toHaveLength(1);
        }
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
