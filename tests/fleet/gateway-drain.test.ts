import http from 'node:http';
import pg from 'pg';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fleetEnvAvailable, fleetSkipMessage, spawnService, startFleet, type Fleet, type FleetService } from '../../scripts/lib/fleet.mjs';

/**
 * The fleet gateway stops gracefully on SIGTERM: a synchronous request waiting for its job when the
 * signal comes still gets its whole answer, new connections are refused from then on, and the process
 * exits 0 once the request is done. The request is made slow without touching the gateway: the fleet
 * starts with no worker, so the job waits in the queue until a worker is started after the SIGTERM.
 */
if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the fleet gateway drain test'));
const maybe = fleetEnvAvailable() ? describe : describe.skip;

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 14, font });
  return doc.save();
}

/** POST of a multipart form over `agent` (keep-alive), with the response's Connection header. */
async function post(agent: http.Agent, url: string, key: string, form: FormData): Promise<{ status: number; connection?: string; body: any }> {
  const encoded = new Request(url, { method: 'POST', body: form });
  const bytes = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'x-api-key': key, 'content-type': encoded.headers.get('content-type')!, 'content-length': bytes.length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

const connect = (url: string) => fetch(url).then((r) => `HTTP ${r.status}`, (e: { cause?: { code?: string } }) => e.cause?.code ?? String(e));

maybe('fleet gateway: graceful stop on SIGTERM', () => {
  let fleet: Fleet;
  let late: FleetService | undefined;
  let db: pg.Client;
  beforeAll(async () => {
    fleet = await startFleet({ workers: [] });
    db = new pg.Client({ connectionString: fleet.databaseUrl });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await late?.stop();
    await db?.end();
    await fleet?.close();
  }, 60_000);

  it('a synchronous request in flight gets its full 200, new connections are refused, and the gateway exits 0', async () => {
    const agent = new http.Agent({ keepAlive: true });
    const dump = () => `\n--- gateway ---\n${fleet.gateway.output().slice(-3000)}\n--- worker ---\n${late?.output().slice(-2000) ?? ''}`;
    try {
      expect((await fetch(`${fleet.url}/readyz`)).status).toBe(200);
      const fd = new FormData();
      fd.append('file', new Blob([Buffer.from(await onePagePdf('Answered while draining'))], { type: 'application/pdf' }), 'drain.pdf');
      const answer = post(agent, `${fleet.url}/extract`, fleet.key, fd); // synchronous: waits for its job
      // the gateway has accepted it: the job is in the queue, with no worker to run it
      const deadline = Date.now() + 15_000;
      while (!(await db.query("SELECT 1 FROM jobs WHERE status IN ('pending', 'queued')")).rowCount) {
        if (Date.now() > deadline) throw new Error(`no job accepted${dump()}`);
        await new Promise((r) => setTimeout(r, 50));
      }

      fleet.gateway.child.kill('SIGTERM');
      // From the signal on, a new connection is refused (the listener closes as the drain starts).
      const end = Date.now() + 5_000;
      let seen = await connect(`${fleet.url}/healthz`);
      while (seen !== 'ECONNREFUSED') {
        if (Date.now() > end) throw new Error(`new connections still answered (${seen})${dump()}`);
        await new Promise((r) => setTimeout(r, 25));
        seen = await connect(`${fleet.url}/healthz`);
      }
      expect(fleet.gateway.child.exitCode).toBeNull(); // still draining: its request is not done

      late = spawnService('worker-extract', 'services/worker-extract/dist/main.js', fleet.env);
      await late.ready;
      const res = await answer;
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}${dump()}`);
      expect(res.body.markdown).toContain('Answered while draining');
      expect(res.body.page_count).toBe(1);
      expect(res.connection).toBe('close'); // a kept-alive client is told to reconnect elsewhere
      const exit = await Promise.race([fleet.gateway.exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(fleet.gateway.output()).not.toContain('were cut');
    } finally {
      agent.destroy();
    }
  }, 60_000);
});
