import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fleetEnvAvailable, fleetSkipMessage, startFleet, type Fleet } from '../../scripts/lib/fleet.mjs';
import { openSse, type SseFrame } from '../support/sse-client.js';

/**
 * Live job events in distributed mode: the worker-extract process publishes status, progress and page
 * results through Redis; the gateway process streams them. Reconnecting replays from the window kept
 * in Redis, so any gateway replica could serve it.
 */
if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the fleet job events test'));
const maybe = fleetEnvAvailable() ? describe : describe.skip;

async function pdfOfPages(n: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= n; i++) doc.addPage([612, 792]).drawText(`Fleet events page number ${i}`, { x: 72, y: 700, size: 14, font });
  return doc.save();
}

maybe('fleet: GET /job/{id}/events with the worker in another process', () => {
  let fleet: Fleet;
  beforeAll(async () => { fleet = await startFleet({ workers: ['worker-extract'] }); }, 90_000);
  afterAll(async () => { await fleet?.close(); }, 60_000);

  it('streams the worker\'s progress and page results in order, ends on completed, and replays after a Last-Event-ID', async () => {
    const fd = new FormData();
    fd.append('async', 'true');
    fd.append('file', new Blob([Buffer.from(await pdfOfPages(3))], { type: 'application/pdf' }), 'events.pdf');
    const res = await fleet.api('/extract', { method: 'POST', body: fd });
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { job_id: string }).job_id;
    // last_event_id=0: everything retained is replayed, so the test sees every event however fast the worker was
    const sse = await openSse(`${fleet.url}/job/${jobId}/events?partial=true&last_event_id=0`, { 'x-api-key': fleet.key });
    expect(sse.status).toBe(200);
    const frames = await sse.collect();
    const dump = `\n${JSON.stringify(frames)}\n--- gateway ---\n${fleet.gateway.output().slice(-2000)}\n--- worker ---\n${fleet.workers[0].output().slice(-2000)}`;
    if (frames.at(-1)?.event !== 'end') throw new Error(`stream ended without end${dump}`);
    const idsOf = (fs: SseFrame[]) => fs.map((f) => f.id!);
    expect(idsOf(frames)).toEqual(idsOf(frames).map((_, i) => i + 1)); // one sequence from the gateway's and the worker's publishes
    const order = frames.map((f) => (f.event === 'status' ? f.data.status : f.event));
    // the gateway marks and announces `queued` before it enqueues, so no worker's `processing` can come first
    expect(order.slice(0, 3)).toEqual(['pending', 'queued', 'processing']);
    expect(frames.filter((f) => f.event === 'progress').map((f) => f.data)).toEqual([1, 2, 3].map((n) => ({ job_id: jobId, pages_done: n, pages_total: 3 })));
    const pages = frames.filter((f) => f.event === 'page').map((f) => f.data);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    pages.forEach((p, i) => {
      expect(p.markdown).toContain(`Fleet events page number ${i + 1}`);
      expect(p).toEqual(expect.objectContaining({ provisional: true, elements: [expect.objectContaining({ type: 'text', bounding_box: expect.any(Array) })] }));
    });
    // each page went out as the worker read it: page n, then its progress, before page n+1
    const perPage = frames.filter((f) => f.event === 'page' || f.event === 'progress').map((f) => `${f.event} ${f.data.page ?? f.data.pages_done}`);
    expect(perPage).toEqual(['page 1', 'progress 1', 'page 2', 'progress 2', 'page 3', 'progress 3']);
    expect(order.slice(-2)).toEqual(['completed', 'end']);

    const firstProgress = frames.find((f) => f.event === 'progress')!.id!;
    const replayed = await (await openSse(`${fleet.url}/job/${jobId}/events`, { 'x-api-key': fleet.key, 'last-event-id': String(firstProgress) })).collect();
    expect(idsOf(replayed)).toEqual(idsOf(frames).filter((id) => id > firstProgress && frames[id - 1].event !== 'page'));
    const snapshot = await (await openSse(`${fleet.url}/job/${jobId}/events?api_key=${fleet.key}`)).collect();
    expect(snapshot.map((f) => [f.event, f.data.status])).toEqual([['status', 'completed'], ['end', 'completed']]);
  }, 90_000);
});
