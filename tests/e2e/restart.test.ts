import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, formWith, pollJob, SAMPLE_HTML } from '../support/embedded.js';

describe('embedded: restart', () => {
  it('a job accepted before a stop completes after the restart (nothing accepted is lost)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restart-'));
    try {
      const first = await startTestServer({}, { persistent: true, dataDir, startWorkers: false });
      const res = await first.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'r.html' }, { async: 'true' }) });
      expect(res.status).toBe(202);
      const { job_id } = (await res.json()) as { job_id: string };
      expect((await first.server.ctx.store.jobs.get(job_id))!.status).toBe('pending');
      await first.close();

      const second = await startTestServer({}, { persistent: true, dataDir });
      try {
        const job = (await pollJob(second, job_id)) as any;
        expect(job.status).toBe('completed');
        expect(job.result.markdown).toContain('Quarterly report');
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
