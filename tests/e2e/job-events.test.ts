import { PDFDocument, StandardFonts } from 'pdf-lib';
import { defineJobHandler } from '@quire/jobs';
import { startTestServer, formWith, pollJob, SAMPLE_HTML, type TestServer } from '../support/embedded.js';
import { openSse, type SseFrame } from '../support/sse-client.js';

/**
 * GET /job/{id}/events in embedded mode, over real HTTP: a job whose pages the test releases one by
 * one (a stepped handler), so every event can be watched in order.
 */
const PAGES = 3;
const steps = new Map<string, { released: number; wake?: () => void }>();
const stepOf = (jobId: string) => { let s = steps.get(jobId); if (!s) steps.set(jobId, (s = { released: 0 })); return s; };
/** Lets the job's handler finish its next page. */
function release(jobId: string, pages = 1): void {
  const s = stepOf(jobId);
  s.released += pages;
  s.wake?.();
}
const steppedHandler = defineJobHandler('extract', async (ctx) => {
  for (let page = 1; page <= PAGES; page++) {
    const s = stepOf(ctx.job.id);
    while (s.released < page) await new Promise<void>((r) => { s.wake = r; });
    await ctx.pagesReady([{ page, markdown: `# Page ${page}`, elements: [], provisional: true }]);
    await ctx.checkpoint(page, PAGES);
  }
  return { result: { markdown: 'done' }, credits: PAGES, pages: PAGES };
});

const ids = (frames: SseFrame[]) => frames.map((f) => f.id!);
const strictlyIncreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]);
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

describe('embedded: live job events (SSE)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({}, { handlers: { extract: steppedHandler } });
  }, 60_000);
  afterAll(() => t.close());

  const submit = async (): Promise<string> => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'a.html', type: 'text/html' }, { async: 'true' }) });
    expect(res.status).toBe(202);
    return ((await res.json()) as { job_id: string }).job_id;
  };
  const events = (jobId: string, query = '', headers: Record<string, string> = { 'x-api-key': t.key }) =>
    openSse(`${t.url}/job/${jobId}/events${query}`, headers);

  it('streams the status snapshot, progress per page, page results, the terminal status and end, then closes', async () => {
    const jobId = await submit();
    const sse = await events(jobId, '?partial=true');
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(sse.headers.get('cache-control')).toBe('no-cache');
    expect(sse.headers.get('x-accel-buffering')).toBe('no');
    const first = (await sse.next())!;
    expect(first.event).toBe('status');
    expect(first.data).toEqual(expect.objectContaining({ job_id: jobId, status: expect.stringMatching(/^(pending|processing)$/) }));
    release(jobId, PAGES);
    const rest = await sse.collect();
    const frames = [first, ...rest];
    expect(sse.closed).toBe(true);
    expect(strictlyIncreasing(ids(frames))).toBe(true);
    const progress = frames.filter((f) => f.event === 'progress').map((f) => f.data);
    expect(progress).toEqual([1, 2, 3].map((n) => ({ job_id: jobId, pages_done: n, pages_total: PAGES })));
    expect(frames.filter((f) => f.event === 'page').map((f) => f.data)).toEqual([1, 2, 3].map((n) => ({ job_id: jobId, page: n, markdown: `# Page ${n}`, elements: [], provisional: true })));
    const statuses = frames.filter((f) => f.event === 'status').map((f) => f.data.status);
    expect(statuses.at(-1)).toBe('completed');
    expect(frames.at(-2)!.event).toBe('status');
    expect(frames.at(-1)).toEqual(expect.objectContaining({ event: 'end', data: { job_id: jobId, status: 'completed' } }));
    // progress comes after processing and before completed
    const order = frames.map((f) => (f.event === 'status' ? f.data.status : f.event));
    expect(order.indexOf('progress')).toBeGreaterThan(order.indexOf('processing'));
    expect(order.lastIndexOf('page')).toBeLessThan(order.indexOf('completed'));
    await until(() => t.server.ctx.events.listenerCount() === 0);
  }, 60_000);

  it('leaves page results out unless asked for (partial=true)', async () => {
    const jobId = await submit();
    const sse = await events(jobId);
    release(jobId, PAGES);
    const frames = await sse.collect();
    expect(frames.some((f) => f.event === 'page')).toBe(false);
    expect(frames.at(-1)!.event).toBe('end');
    expect(strictlyIncreasing(ids(frames))).toBe(true);
  }, 60_000);

  it('on a job already terminal: its status, then end, then close', async () => {
    const jobId = await submit();
    release(jobId, PAGES);
    await pollJob(t, jobId);
    const frames = await (await events(jobId)).collect();
    expect(frames.map((f) => [f.event, f.data.status])).toEqual([['status', 'completed'], ['end', 'completed']]);
    expect(frames[1].id).toBeGreaterThan(frames[0].id!);
  }, 60_000);

  it('replays what a reconnecting client missed after its Last-Event-ID (header or query), without a new snapshot', async () => {
    const jobId = await submit();
    const sse = await events(jobId);
    release(jobId, 1);
    const seen = await sse.collect((f) => f.event === 'progress');
    const lastId = seen.at(-1)!.id!;
    sse.abort();
    await until(() => t.server.ctx.events.listenerCount(jobId) === 0); // the disconnect let go of its subscription
    release(jobId, PAGES - 1);
    await pollJob(t, jobId);
    const replayed = await (await events(jobId, '', { 'x-api-key': t.key, 'last-event-id': String(lastId) })).collect();
    // the first event after lastId is page 2's result, left out without ?partial=true: page 2's progress follows it
    expect(replayed[0]).toEqual(expect.objectContaining({ id: lastId + 2, event: 'progress' }));
    expect(strictlyIncreasing(ids(replayed))).toBe(true);
    expect(replayed.filter((f) => f.event === 'progress').map((f) => f.data.pages_done)).toEqual([2, 3]);
    expect(replayed.slice(-2).map((f) => f.event)).toEqual(['status', 'end']);
    const byQuery = await (await events(jobId, `?last_event_id=${lastId}`)).collect();
    expect(ids(byQuery)).toEqual(ids(replayed));
    // an id the window does not reach back to (or never gave out): a fresh snapshot instead
    const fresh = await (await events(jobId, '?last_event_id=999999')).collect();
    expect(fresh.map((f) => f.event)).toEqual(['status', 'end']);
  }, 60_000);

  it('takes the key as ?api_key= (EventSource cannot send headers) and answers 404 for another organization\'s job', async () => {
    const jobId = await submit();
    release(jobId, PAGES);
    await pollJob(t, jobId);
    const byQuery = await events(jobId, `?api_key=${t.key}`, {});
    expect(byQuery.status).toBe(200);
    expect((await byQuery.collect()).at(-1)!.event).toBe('end');
    const byBearer = await events(jobId, '', { authorization: `Bearer ${t.key}` });
    expect(byBearer.status).toBe(200);
    expect((await byBearer.collect()).at(-1)!.event).toBe('end');
    const { store } = t.server.ctx;
    const org = await store.orgs.create({ name: 'someone else' });
    const { key } = await store.keys.create(org.id);
    const res = await fetch(`${t.url}/job/${jobId}/events`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(expect.objectContaining({ error: expect.objectContaining({ code: 'JOB_001' }) }));
    expect((await fetch(`${t.url}/job/${jobId}/events`)).status).toBe(401);
  }, 60_000);

  it('lets go of every subscription when clients disconnect mid-stream', async () => {
    const jobId = await submit();
    const clients = await Promise.all([1, 2, 3].map(() => events(jobId)));
    for (const c of clients) await c.next();
    expect(t.server.ctx.events.listenerCount(jobId)).toBe(3);
    for (const c of clients) c.abort();
    await until(() => t.server.ctx.events.listenerCount() === 0);
    release(jobId, PAGES);
    await pollJob(t, jobId);
  }, 60_000);
});

/** Pages of a generated report: a heading and a line naming the page. */
async function reportPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Chapter ${n}`, { x: 72, y: 700, size: 20, font: bold });
    page.drawText(`Live results reach the client as page ${n} is read.`, { x: 72, y: 670, size: 11, font });
  }
  return pdf.save();
}

describe('embedded: the extract pipeline streams each page as it is read', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); }, 60_000);
  afterAll(() => t.close());

  it('page results (partial=true) come one by one, each before its progress and all before the terminal status', async () => {
    const PAGES_IN_PDF = 5;
    const body = formWith({ bytes: Buffer.from(await reportPdf(PAGES_IN_PDF)), name: 'report.pdf', type: 'application/pdf' }, { async: 'true' });
    const res = await t.api('/extract', { method: 'POST', body });
    expect(res.status).toBe(202);
    const jobId = ((await res.json()) as { job_id: string }).job_id;
    // last_event_id=0 replays everything retained: every event is seen however fast the job was
    const frames = await (await openSse(`${t.url}/job/${jobId}/events?partial=true&last_event_id=0`, { 'x-api-key': t.key })).collect();
    expect(strictlyIncreasing(ids(frames))).toBe(true);
    const order = frames.map((f) => (f.event === 'status' ? f.data.status : f.event === 'end' ? 'end' : `${f.event} ${f.data.page ?? f.data.pages_done}`));
    const perPage = Array.from({ length: PAGES_IN_PDF }, (_, i) => [`page ${i + 1}`, `progress ${i + 1}`]).flat();
    expect(order.filter((o) => o.startsWith('page') || o.startsWith('progress'))).toEqual(perPage);
    // streamed while the job ran: the first page came before the last page's progress, and all before completed
    expect(order.indexOf('page 1')).toBeGreaterThan(order.indexOf('processing'));
    expect(order.indexOf(`page ${PAGES_IN_PDF}`)).toBeLessThan(order.indexOf('completed'));
    expect(order.slice(-2)).toEqual(['completed', 'end']);
    const pages = frames.filter((f) => f.event === 'page').map((f) => f.data);
    pages.forEach((p, i) => {
      expect(p).toEqual(expect.objectContaining({ job_id: jobId, page: i + 1, provisional: true }));
      expect(p.markdown).toContain(`Live results reach the client as page ${i + 1} is read.`);
      const line = `Live results reach the client as page ${i + 1} is read.`;
      expect(p.elements.map((e: { type: string; markdown_span: [number, number] }) => [e.type, p.markdown.slice(...e.markdown_span)])).toContainEqual(['text', line]);
      for (const e of p.elements) expect(e.bounding_box).toHaveLength(8);
    });
    // the final result holds the same text per page
    const result = (await (await t.api(`/job/${jobId}`)).json()) as { result: { markdown: string } };
    for (let n = 1; n <= PAGES_IN_PDF; n++) expect(result.result.markdown).toContain(`as page ${n} is read.`);
  }, 60_000);

  it('office and HTML documents: their pages come once the document is read, final', async () => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'a.html', type: 'text/html' }, { async: 'true' }) });
    const jobId = ((await res.json()) as { job_id: string }).job_id;
    const frames = await (await openSse(`${t.url}/job/${jobId}/events?partial=true&last_event_id=0`, { 'x-api-key': t.key })).collect();
    const pages = frames.filter((f) => f.event === 'page').map((f) => f.data);
    expect(pages).toEqual([expect.objectContaining({ page: 1, provisional: false, markdown: expect.any(String) })]);
    expect(pages[0].markdown.length).toBeGreaterThan(0);
    expect(frames.findIndex((f) => f.event === 'page')).toBeLessThan(frames.findIndex((f) => f.data.status === 'completed'));
  }, 60_000);
});
