import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { SAMPLE_HTML, startTestServer, type TestServer } from '../support/embedded.js';
import { makeReportPdf } from '../fixtures/playground/report-pdf.js';
import { makeFormPdf } from '../fixtures/pdf/documents.js';
import { ROOT } from '../../scripts/lib/fleet.mjs';

/**
 * The playground in a real browser: Debian's chromium (apt-get install chromium; .ci/run installs it),
 * driven by playwright-core. Screenshots go to test-artifacts/ (gitignored); with
 * QUIRE_UPDATE_DOCS_SCREENSHOT=1 the README's docs/images/playground.png is replaced too.
 */
const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(ROOT, 'test-artifacts');

/** The elements of an extraction result that have a place on a page, counted straight from the JSON. */
function placedElements(result: any): number {
  const bb = result.bounding_boxes;
  const placed = (polygon: unknown) => Array.isArray(polygon) && polygon.length > 0;
  let n = 0;
  for (const key of ['Title', 'Header', 'Text', 'List Items', 'Footer', 'caption', 'Page Number', 'Formulas']) n += (bb[key] ?? []).filter((t: any) => placed(t.bounding_box)).length;
  for (const table of bb.Tables ?? []) n += (placed(table.table_info.location.coordinates) ? 1 : 0) + table.cell_data.filter((c: any) => placed(c.location.coordinates)).length;
  n += (bb.Images ?? []).filter((f: any) => placed(f.bounding_box)).length;
  n += (bb.Words ?? []).length + (bb.SelectionMarks ?? []).length;
  return n;
}

/** The centre of an element's box on screen, scrolled to the middle of the view (the header is sticky). */
async function centreOf(page: Page, selector: string): Promise<{ x: number; y: number }> {
  await page.$eval(selector, (el) => el.scrollIntoView({ block: 'center' }));
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function clickBox(page: Page, selector: string): Promise<void> {
  const { x, y } = await centreOf(page, selector);
  await page.mouse.click(x, y);
}

describe('playground in headless Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`No browser at ${CHROMIUM}: apt-get install -y chromium (.ci/run does), or set QUIRE_CHROMIUM`);
    if (!fs.existsSync(path.join(ROOT, 'services/gateway/dist/playground/app.js'))) throw new Error('The playground is not bundled: run node scripts/build.mjs');
    t = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1440, height: 960 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('asks for the key once, extracts an uploaded PDF and draws one box per element', async () => {
    const consoleErrors: string[] = [];
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(`${t.url}/playground`);
    await page.fill('#key-form input[name=key]', 'qk_not_a_key');
    await page.click('#key-form button');
    await page.waitForSelector('#key-form .error');
    expect(await page.textContent('#key-form .error')).toMatch(/AUTH_002/);
    await page.fill('#key-form input[name=key]', t.key);
    await page.click('#key-form button');
    await page.waitForSelector('#source-form');
    expect(await page.evaluate("sessionStorage.getItem('quire.playground.apiKey')")).toBe(t.key);

    await page.setInputFiles('#file-input', { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makeReportPdf()) });
    await page.click('#extract-button');
    await page.waitForSelector('#pages .box', { timeout: 90_000 });
    await page.waitForSelector('img[data-page-image="1"]');
    await page.waitForFunction('document.querySelector(\'img[data-page-image="1"]\').complete');

    const jobId = await page.getAttribute('#pages', 'data-job-id');
    const job = (await (await t.api(`/job/${jobId}`)).json()) as any;
    expect(job.status).toBe('completed');
    const expected = placedElements(job.result);
    expect(expected).toBeGreaterThan(20); // title, text, a table with 9 cells and the words
    expect(await page.locator('#pages .box').count()).toBe(expected);
    // each category its own colour: the title's box and a cell's box differ
    const colour = (sel: string) => page.$eval(sel, (el) => (globalThis as any).getComputedStyle(el).borderTopColor as string);
    expect(await colour('.box[data-category="title"]')).not.toBe(await colour('.box[data-category="cell"]'));

    const title = job.result.bounding_boxes.Title[0];
    const { x, y } = await centreOf(page, `.box[data-id="${title.id}"]`);
    await page.mouse.move(x, y);
    expect(await page.textContent('#hover-info')).toContain(title.id);
    await page.mouse.click(x, y);
    await page.waitForSelector('#selected-id');
    expect(await page.textContent('#selected-id')).toBe(title.id);
    expect(await page.textContent('#inspector pre.json')).toContain(`"id": "${title.id}"`);
    expect(await page.textContent('#inspector pre.markdown mark')).toContain(`data-bb-text-id="${title.id}"`);

    const cell = job.result.bounding_boxes.Tables[0].cell_data[4];
    await clickBox(page, `.box[data-id="${cell.id}"]`);
    expect(await page.textContent('#selected-id')).toBe(cell.id);
    expect(await page.textContent('#inspector pre.markdown mark')).toContain(`>${cell.text}</td>`);
    // the same spot again: the next element under it (the table holding the cell), then round to the cell
    await clickBox(page, `.box[data-id="${cell.id}"]`);
    expect(await page.textContent('#selected-id')).toBe(job.result.bounding_boxes.Tables[0].table_info.id);
    await clickBox(page, `.box[data-id="${cell.id}"]`);
    expect(await page.textContent('#selected-id')).toBe(cell.id);

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: path.join(ARTIFACTS, 'playground.png') });
    if (process.env.QUIRE_UPDATE_DOCS_SCREENSHOT === '1') fs.copyFileSync(path.join(ARTIFACTS, 'playground.png'), path.join(ROOT, 'docs/images/playground.png'));
    expect(consoleErrors).toEqual([]);
  }, 180_000);

  it('hides a category\'s boxes with its legend switch', async () => {
    const words = await page.locator('#pages .box[data-category="word"]').count();
    const all = await page.locator('#pages .box').count();
    expect(words).toBeGreaterThan(0);
    await page.click('.legend label:has(.cat-word) input');
    expect(await page.locator('#pages .box').count()).toBe(all - words);
    await page.click('.legend label:has(.cat-word) input');
    expect(await page.locator('#pages .box').count()).toBe(all);
  });

  it('shows /tables output as rendered HTML and marks the table it came from', async () => {
    await page.click('button[data-tab="tables"]');
    await page.click('text=Run /tables');
    await page.waitForSelector('.html-table table', { timeout: 90_000 });
    expect(await page.locator('.html-table table td, .html-table table th').count()).toBe(9);
    expect(await page.textContent('.html-table table')).toContain('North');
    await page.click('.table-result');
    expect(await page.locator('#pages .box.cited').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'playground-tables.png') });
  }, 120_000);

  it('runs a JSON schema from the textarea and marks each value\'s citations on the page', async () => {
    await page.click('button[data-tab="schema"]');
    const schema = { type: 'object', properties: { prepared_by: { type: 'string', description: 'Who prepared the report' }, auditor: { type: 'string', description: 'The auditor' } } };
    await page.fill('#schema-input', JSON.stringify(schema));
    await page.click('text=Run /schema');
    await page.waitForSelector('table.values, .right .error', { timeout: 90_000 });
    expect(await page.locator('.right .error').allTextContents()).toEqual([]);
    // a value the document does not give is listed as null with the service's note
    const missing = page.locator('table.values tbody tr', { hasText: 'auditor' });
    expect(await missing.locator('td').nth(1).textContent()).toBe('null');
    expect(await page.textContent('.right ul.hint')).toMatch(/\/auditor: not found/);
    const row = page.locator('table.values tbody tr', { hasText: 'prepared_by' });
    expect(await row.locator('td').nth(1).textContent()).toBe('"Finance team"');
    const ids = (await row.locator('td').nth(2).textContent())!.split(', ');
    expect(ids.length).toBeGreaterThan(0);
    await row.hover();
    for (const id of ids) expect(await page.locator(`#pages .box.cited[data-id="${id}"]`).count()).toBe(1);
    expect(await page.locator('#pages .box.cited').count()).toBe(ids.length);
    await page.screenshot({ path: path.join(ARTIFACTS, 'playground-schema.png') });
  }, 120_000);

  it('follows the job through the live events route (GET /job/{id}/events, key as ?api_key=)', async () => {
    const eventsRequest = page.waitForRequest((r) => /^\/job\/[^/]+\/events$/.test(new URL(r.url()).pathname), { timeout: 90_000 });
    await page.setInputFiles('#file-input', { name: 'form.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makeFormPdf()) });
    await page.click('#extract-button');
    const request = await eventsRequest;
    expect(new URL(request.url()).searchParams.get('api_key')).toBe(t.key);
    const response = await request.response();
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/event-stream/);
    await page.waitForSelector('.progress[data-status="completed"] >> text=live events', { timeout: 90_000 });
    await page.waitForSelector('#pages .box[data-category="text"]');
  }, 120_000);

  it('draws /form/detect\'s form cells on the PDF', async () => {
    await page.click('button[data-tab="forms"]');
    await page.click('text=Run /form/detect');
    await page.waitForSelector('#pages .box[data-category="form cell"]', { timeout: 90_000 });
    const drawnText = (await page.textContent('#forms-summary'))!;
    const count = Number(/^(\d+) form cells drawn/.exec(drawnText)![1]);
    expect(count).toBeGreaterThan(0);
    expect(await page.locator('#pages .box[data-category="form cell"]').count()).toBe(count);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: path.join(ARTIFACTS, 'playground-forms.png') });
  }, 120_000);

  it('fills the form from instructions and shows the filled PDF with its cells', async () => {
    await page.fill('#fill-instructions', 'Name: Grace Hopper');
    await page.click('text=Run /form/fill');
    await page.waitForSelector('#forms-summary >> text=filled', { timeout: 90_000 });
    expect(await page.textContent('#forms-summary')).toMatch(/^\d+ form cells drawn on the filled PDF; [1-9]\d* filled\.$/);
    await page.waitForSelector('#pages[data-image-of="output"] img[data-page-image="1"]');
    const fillJob = await page.getAttribute('#pages', 'data-job-id');
    const job = (await (await t.api(`/job/${fillJob}`)).json()) as any;
    expect(job.kind).toBe('form_fill');
    expect(await page.locator('#pages .box[data-category="form cell"]').count()).toBe(job.result.form_fields.length);
    expect(job.result.form_fields.some((c: any) => c.text === 'Grace Hopper')).toBe(true);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: path.join(ARTIFACTS, 'playground-form-fill.png') });
  }, 120_000);

  it('lists the elements of a document it cannot draw (HTML) and says why there is no page image', async () => {
    await page.setInputFiles('#file-input', { name: 'report.html', mimeType: 'text/html', buffer: Buffer.from(SAMPLE_HTML) });
    await page.click('#extract-button');
    await page.waitForSelector('#unplaced .chip', { timeout: 90_000 });
    expect(await page.textContent('.page-error')).toMatch(/FILE_001: Page images are drawn for pdf, png, jpeg, tiff documents; this job's source is html/);
    const jobId = await page.getAttribute('#pages', 'data-job-id');
    const job = (await (await t.api(`/job/${jobId}`)).json()) as any;
    const ids = [...job.result.bounding_boxes.Title, ...job.result.bounding_boxes.Text].map((e: any) => e.id);
    expect(await page.locator('#pages .box').count()).toBe(0);
    for (const id of ids) expect(await page.locator(`#unplaced .chip[data-id="${id}"]`).count()).toBe(1);
    await page.click(`#unplaced .chip[data-id="${ids[0]}"]`);
    expect(await page.textContent('#selected-id')).toBe(ids[0]);
    expect(await page.textContent('#inspector pre.markdown mark')).toContain(`data-bb-text-id="${ids[0]}"`);
  }, 120_000);

  it('lists each page\'s markdown as the service finished it (live page events), in page order', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 3; n++) pdf.addPage([612, 792]).drawText(`Playground live page ${n} text`, { x: 72, y: 700, size: 14, font });
    const eventsRequest = page.waitForRequest((r) => /^\/job\/[^/]+\/events$/.test(new URL(r.url()).pathname), { timeout: 90_000 });
    await page.setInputFiles('#file-input', { name: 'three.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await pdf.save()) });
    await page.click('#extract-button');
    expect(new URL((await eventsRequest).url()).searchParams.get('partial')).toBe('true');
    await page.waitForSelector('.progress[data-status="completed"]', { timeout: 90_000 });
    await page.waitForSelector('#live-pages .live-page[data-page="3"]', { state: 'attached' }); // folded once the result is shown
    expect(await page.$$eval('#live-pages .live-page', (els) => els.map((e) => e.getAttribute('data-page')))).toEqual(['1', '2', '3']);
    for (let n = 1; n <= 3; n++) expect(await page.textContent(`#live-pages .live-page[data-page="${n}"] pre`)).toContain(`Playground live page ${n} text`);
    expect(await page.textContent('#live-pages .live-page[data-page="1"] h4')).toContain('provisional');
    expect(await page.$eval('#live-pages', (el) => (el as unknown as { open: boolean }).open)).toBe(false); // folded once the result is shown
  }, 120_000);
});
