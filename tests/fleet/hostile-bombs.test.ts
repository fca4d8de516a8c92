import { fleetEnvAvailable, fleetSkipMessage, sampleMemory, startFleet, type Fleet } from '../../scripts/lib/fleet.mjs';
import { bombDocx, contentBombPdf, pngBomb } from '../fixtures/hostile/bombs.js';
import { HOSTILE_RSS_GROWTH_LIMIT } from '../support/bounds.js';

/**
 * The fleet (gateway and worker-extract in processes of their own, uploads in S3) given files that expand:
 * each answered 4xx in bounded time, neither process's RSS grows past the bound, both keep serving.
 */
if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the fleet hostile bombs test'));
const maybe = fleetEnvAvailable() ? describe : describe.skip;

maybe('fleet: expanding inputs are bounded in time and memory', () => {
  let fleet: Fleet;
  beforeAll(async () => { fleet = await startFleet(); }, 120_000);
  afterAll(async () => { await fleet?.close(); }, 60_000);

  it.each([
    ['a PDF whose content stream inflates to 1 GiB', async () => ({ bytes: await contentBombPdf(1024), name: 'bomb.pdf', type: 'application/pdf' }), ['FILE_003']],
    ['a 50,000 × 50,000 PNG', async () => ({ bytes: await pngBomb(50_000), name: 'pixels.png', type: 'image/png' }), ['REQ_003', 'FILE_003']],
    ['a DOCX whose part declares 1 MB and inflates to 1 GiB', async () => ({ bytes: await bombDocx(1024), name: 'bomb.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }), ['FILE_003']],
  ])('%s: 400, and the gateway and worker stay within bounds', async (_name, make, codes) => {
    const file = await make();
    const worker = fleet.workers[0];
    const memory = [sampleMemory(fleet.gateway.pid, 20), sampleMemory(worker.pid, 20)];
    const started = Date.now();
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(file.bytes)], { type: file.type }), file.name);
    const res = await fleet.api('/extract', { method: 'POST', body: form });
    const body = (await res.json()) as { error?: { code: string } };
    const ms = Date.now() - started;
    const [gateway, workerMem] = memory.map((m) => m.stop());
    expect(res.status).toBe(400);
    expect(codes).toContain(body.error?.code);
    expect(ms).toBeLessThan(30_000);
    expect(gateway.growth).toBeLessThan(HOSTILE_RSS_GROWTH_LIMIT);
    expect(workerMem.growth).toBeLessThan(HOSTILE_RSS_GROWTH_LIMIT);
    expect(fleet.gateway.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
    expect((await fetch(`${fleet.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
