// Extraction speed and memory, with PyMuPDF (Debian python3-fitz) and native tesseract (Debian
// tesseract-ocr) on the same files, printed as ratios:
//   1. text layer: a generated 60-page two-column PDF (headings, lists, a ruled table, page numbers)
//      through extractDocument + renderExtraction (full layout, ids, markdown) vs PyMuPDF
//      page.get_text("dict"), 1 process and one per core; peak RSS of one extraction
//   2. page rendering at 300 DPI, 1 process, like for like: openPdf().renderRgba (PDFium, the default,
//      and pdf.js + canvas, the fallback; raw RGBA) vs PyMuPDF get_pixmap(dpi=300) in memory, and openPdf().render (PNG) vs pixmap.tobytes('png');
//      2b. OCR input: scanned PDFs through readPdf with a stub OCR engine (the page read, judged and
//      rendered grey for OCR) vs PyMuPDF get_text + grey get_pixmap(dpi=300) + PNG
//   3. OCR at 300 DPI, 1 worker and one per core vs native tesseract: scripts/bench-ocr.mjs
//   4. office/HTML: pages (slides, sheets) per second per format over the corpus
//   5. a generated 1,000,000-cell XLSX (50,000 rows × 20 columns): time and peak RSS
// Usage: node scripts/build.mjs && node scripts/bench-extract.mjs [--skip-ocr] [--only=text,render,ocr,office,xlsx]
//        node scripts/bench-extract.mjs --make-pdf FILE [PAGES]   (writes the PDF of part 1, 60 pages by default, and exits)
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(root, '../shared/corpus');
const self = fileURLToPath(import.meta.url);
const cores = os.availableParallelism();
const PY = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

// ------------------------------------------------------------------ child modes (one measurement per process)
const [mode, ...rest] = process.argv.slice(2);
if (mode === '--child-text') {
  const { extractDocument } = await import('../packages/extract/dist/index.js');
  const { renderExtraction } = await import('../packages/render/dist/index.js');
  const bytes = fs.readFileSync(rest[0]);
  const repeat = Number(rest[1] ?? 1);
  // load pdf.js's modules before the clock starts, as PyMuPDF's `import fitz` is (no document is read)
  if ((rest[2] ?? 'pdf') === 'pdf') await (await import('../packages/formats/pdf/dist/pdfjs.js')).loadPdfjs();
  // rest[3] = untimed warm-up extractions first (JIT, as in a long-running server)
  for (let i = 0; i < Number(rest[3] ?? 0); i++) renderExtraction(await extractDocument(new Uint8Array(bytes), rest[2] ?? 'pdf'));
  const t0 = performance.now(), c0 = process.cpuUsage();
  let pages = 0;
  for (let i = 0; i < repeat; i++) {
    const doc = await extractDocument(new Uint8Array(bytes), rest[2] ?? 'pdf');
    const out = renderExtraction(doc);
    if (!out.markdown) throw new Error('empty markdown');
    pages += doc.pageCount;
  }
  const cpu = process.cpuUsage(c0); // all threads (pdf.js's worker thread included)
  console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, pages, rssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
  process.exit(0);
}
if (mode === '--child-pdfium-text') {
  // Another parser's ceiling, for comparison only (Quire reads text with pdf.js): PDFium in WebAssembly
  // (@embedpdf/pdfium, which Quire uses to draw pages) loading each page's text and asking every character
  // for its code point, box and font size, plus walking the page objects; no words, layout or output.
  const { loadPdfium } = await import('../packages/formats/pdf/dist/pdfium.js');
  const m = await loadPdfium();
  const P = m.pdfium;
  const bytes = fs.readFileSync(rest[0]);
  const reps = Number(rest[1] ?? 3);
  const box = P.wasmExports.malloc(32);
  const pass = () => {
    const ptr = P.wasmExports.malloc(bytes.length);
    P.HEAPU8.set(bytes, ptr);
    const doc = m.FPDF_LoadMemDocument(ptr, bytes.length, '');
    const n = m.FPDF_GetPageCount(doc);
    for (let i = 0; i < n; i++) {
      const page = m.FPDF_LoadPage(doc, i);
      const text = m.FPDFText_LoadPage(page);
      for (let k = 0, c = m.FPDFText_CountChars(text); k < c; k++) {
        P._FPDFText_GetUnicode(text, k);
        P._FPDFText_GetCharBox(text, k, box, box + 8, box + 16, box + 24);
        P._FPDFText_GetFontSize(text, k);
      }
      for (let k = 0, c = m.FPDFPage_CountObjects(page); k < c; k++) {
        const o = P._FPDFPage_GetObject(page, k);
        if (P._FPDFPageObj_GetType(o) === 2) P._FPDFPath_CountSegments(o);
      }
      m.FPDFText_ClosePage(text);
      m.FPDF_ClosePage(page);
    }
    m.FPDF_CloseDocument(doc);
    P.wasmExports.free(ptr);
    return n;
  };
  pass();
  const t0 = performance.now(), c0 = process.cpuUsage();
  let pages = 0;
  for (let i = 0; i < reps; i++) pages += pass();
  const cpu = process.cpuUsage(c0);
  console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, pages }));
  process.exit(0);
}
if (mode === '--child-pdfjs') {
  // pdf.js alone, opened as quire opens documents (same worker thread, fonts and options): getTextContent
  // or getOperatorList of every page, after one untimed pass. The parser's own ceiling for the text layer.
  const { openDocument, loadPdfjs } = await import('../packages/formats/pdf/dist/pdfjs.js');
  await loadPdfjs();
  const bytes = new Uint8Array(fs.readFileSync(rest[0]));
  const reps = Number(rest[1] ?? 3), what = rest[2] ?? 'text';
  const pass = async () => {
    const doc = await openDocument(bytes);
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      if (what === 'text') await page.getTextContent(); else await page.getOperatorList();
      page.cleanup();
    }
    const n = doc.numPages;
    await doc.destroy();
    return n;
  };
  await pass();
  const t0 = performance.now(), c0 = process.cpuUsage();
  let pages = 0;
  for (let i = 0; i < reps; i++) pages += await pass();
  const cpu = process.cpuUsage(c0);
  console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, pages }));
  process.exit(0);
}
if (mode === '--child-render') {
  const { openPdf } = await import('../packages/formats/pdf/dist/index.js');
  const pdf = await openPdf(new Uint8Array(fs.readFileSync(rest[0])), { rasterEngine: rest[2] ?? 'pdfium' });
  const n = Math.min(Number(rest[1]), pdf.pageCount);
  await pdf.render(1, { dpi: 300 }); // warm fonts, the canvas binding or PDFium's module
  let t0 = performance.now();
  for (let p = 1; p <= n; p++) await pdf.renderRgba(p, { dpi: 300 });
  const raw = (performance.now() - t0) / 1000;
  t0 = performance.now();
  for (let p = 1; p <= n; p++) await pdf.render(p, { dpi: 300 });
  const seconds = (performance.now() - t0) / 1000;
  t0 = performance.now();
  for (let p = 1; p <= n; p++) await pdf.render(p, { dpi: 300, grey: true });
  const grey = (performance.now() - t0) / 1000;
  // the grey pixels alone, before PNG encoding: what the OCR read draws (PageRasterizer → PdfiumDocument)
  let greyRaw = 0;
  if ((rest[2] ?? 'pdfium') === 'pdfium') {
    const { PdfiumDocument } = await import('../packages/formats/pdf/dist/pdfium.js');
    const { renderSize } = await import('../packages/formats/pdf/dist/render.js');
    const doc = await PdfiumDocument.open(new Uint8Array(fs.readFileSync(rest[0])));
    const regionOf = ({ width, height }) => {
      const { w, h } = renderSize(width, height, 300);
      return { fullWidth: w, fullHeight: h, x: 0, y: 0, w, h };
    };
    await doc.render(1, regionOf, 'grey');
    t0 = performance.now();
    for (let p = 1; p <= n; p++) await doc.render(p, regionOf, 'grey');
    greyRaw = (performance.now() - t0) / 1000;
    doc.close();
  }
  console.log(JSON.stringify({ seconds, raw, grey, greyRaw, pages: n }));
  await pdf.close();
  process.exit(0);
}

if (mode === '--child-ocr-input') {
  // what a scanned page costs before recognition: the page read (text layer judged unusable), rendered
  // grey at 300 DPI and PNG-encoded for the OCR engine, here a stub that only takes the image
  const { readPdf } = await import('../packages/formats/pdf/dist/index.js');
  const bytes = new Uint8Array(fs.readFileSync(rest[0]));
  const stub = { async recognize(png, page) { return { number: page.number, width: page.widthPt, height: page.heightPt, words: [], segments: [], rects: [], images: [], widgets: [], source: 'ocr' }; } };
  await readPdf(bytes, { ocr: stub }); // warm pdf.js, sharp and the wasm decoders
  const reps = Number(rest[1] ?? 3);
  let pages = 0;
  const t0 = performance.now(), c0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) pages += (await readPdf(bytes, { ocr: stub })).pages.length;
  const cpu = process.cpuUsage(c0);
  console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, pages }));
  process.exit(0);
}

// ------------------------------------------------------------------ helpers
function child(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [self, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`child ${args[0]} exited ${code}`))));
  });
}

async function parallel(n, fn) {
  const t0 = performance.now();
  const rs = await Promise.all(Array.from({ length: n }, fn));
  return { wall: (performance.now() - t0) / 1000, rs };
}

const PYMUPDF_TEXT = `
import sys, time, fitz
data = open(sys.argv[1], 'rb').read()
t0 = time.perf_counter(); c0 = time.process_time(); pages = 0
for _ in range(int(sys.argv[2])):
    doc = fitz.open(stream=data, filetype='pdf')
    for page in doc:
        page.get_text('dict'); pages += 1
    doc.close()
print(time.perf_counter() - t0, pages, time.process_time() - c0)
`;
const PYMUPDF_RENDER = `
import sys, time, fitz
doc = fitz.open(sys.argv[1]); n = min(int(sys.argv[2]), doc.page_count)
doc[0].get_pixmap(dpi=300)
t0 = time.perf_counter()
for i in range(n): doc[i].get_pixmap(dpi=300)
t1 = time.perf_counter()
for i in range(n): doc[i].get_pixmap(dpi=300).tobytes('png')
t2 = time.perf_counter()
for i in range(n): doc[i].get_pixmap(dpi=300, colorspace=fitz.csGRAY)
t3 = time.perf_counter()
for i in range(n): doc[i].get_pixmap(dpi=300, colorspace=fitz.csGRAY).tobytes('png')
print(t1 - t0, n, t2 - t1, t3 - t2, time.perf_counter() - t3)
`;
const PYMUPDF_OCR_INPUT = `
import sys, time, fitz
data = open(sys.argv[1], 'rb').read()
def run():
    doc = fitz.open(stream=data, filetype='pdf'); n = 0
    for page in doc:
        page.get_text('dict'); page.get_pixmap(dpi=300, colorspace=fitz.csGRAY).tobytes('png'); n += 1
    return n
run()
t0 = time.perf_counter(); c0 = time.process_time(); pages = 0
for _ in range(int(sys.argv[2])): pages += run()
print(time.perf_counter() - t0, pages, time.process_time() - c0)
`;
async function py(script, args) {
  const { stdout } = await run(PY, ['-c', script, ...args], { maxBuffer: 1 << 20 });
  const [s, p, extra, grey, greyPng] = stdout.trim().split(/\s+/).map(Number);
  return { seconds: s, pages: p, png: extra, cpuSeconds: extra, grey, greyPng };
}
let hasFitz = true;
try { await run(PY, ['-c', 'import fitz']); } catch { hasFitz = false; }

/** 60 Letter pages: title, headings, two columns of body text, a numbered list, a ruled table every 5th page, page numbers. */
async function makeLongPdf(pages) {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.TimesRoman), bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const words = 'the reservoir held steady through the dry season while inflow from the northern catchment fell below the ten year average and operators adjusted releases to keep downstream flow within the licensed range'.split(' ');
  let k = 0;
  const sentence = (n) => Array.from({ length: n }, () => words[k++ % words.length]).join(' ');
  for (let i = 1; i <= pages; i++) {
    const p = doc.addPage([612, 792]);
    p.drawText(`Section ${i}. Water operations report`, { x: 54, y: 740, size: 15, font: bold });
    for (const [col, x] of [[0, 54], [1, 318]]) {
      let y = 712;
      if (col === 0 && i % 3 === 0) {
        p.drawText(`${i}.1 Observations`, { x, y, size: 11.5, font: bold }); y -= 16;
        for (let n = 1; n <= 4; n++) { p.drawText(`${n}. ${sentence(6)}`, { x: x + 8, y, size: 10, font: regular }); y -= 13; }
        y -= 6;
      }
      const bottom = col === 1 && i % 5 === 0 ? 330 : 70;
      while (y > bottom) { p.drawText(sentence(8), { x, y, size: 10, font: regular }); y -= 12.5; }
      if (bottom === 330) {
        const cols = [318, 398, 478, 558], rows = 8;
        for (let r = 0; r <= rows; r++) p.drawLine({ start: { x: 318, y: 310 - r * 22 }, end: { x: 558, y: 310 - r * 22 }, thickness: 0.6, color: rgb(0, 0, 0) });
        for (const cx of cols) p.drawLine({ start: { x: cx, y: 310 }, end: { x: cx, y: 310 - rows * 22 }, thickness: 0.6, color: rgb(0, 0, 0) });
        for (let r = 0; r < rows; r++) for (let c = 0; c < 3; c++) p.drawText(r === 0 ? ['Month', 'Inflow', 'Release'][c] : c === 0 ? `M${r}` : String((r * 37 + c * 11) % 97), { x: cols[c] + 5, y: 310 - r * 22 - 15, size: 9, font: r === 0 ? bold : regular });
      }
    }
    p.drawText(String(i), { x: 300, y: 36, size: 9, font: regular });
  }
  return doc.save();
}

/** 1,000,000 cells: 50,000 rows × 20 columns of numbers, dates and text, written with exceljs' streaming writer. */
async function makeMillionCellXlsx(file) {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const ws = wb.addWorksheet('Data');
  ws.addRow(Array.from({ length: 20 }, (_, c) => `Column ${c + 1}`)).commit();
  for (let r = 1; r < 50_000; r++) {
    ws.addRow(Array.from({ length: 20 }, (_, c) => (c % 5 === 0 ? `item ${r % 977}` : c % 5 === 1 ? new Date(Date.UTC(2020, 0, 1 + (r % 1000))) : (r * (c + 1)) % 10007 / 7))).commit();
  }
  ws.commit();
  await wb.commit();
}

// `--make-pdf FILE` only writes the 60-page text PDF (for profiling with scripts/profile-text.mjs)
if (mode === '--make-pdf') {
  fs.writeFileSync(rest[0], await makeLongPdf(Number(rest[1] ?? 60)));
  process.exit(0);
}

const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const want = (part) => !onlyArg || onlyArg.slice(7).split(',').includes(part);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-extract-'));
const f2 = (n) => n.toFixed(2);
const line = (s) => console.log(s);
line(`machine: ${cores} cores (${os.cpus()[0]?.model ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; node ${process.version}; PyMuPDF ${hasFitz ? 'yes' : 'absent'}`);

// ------------------------------------------------------------------ 1. text layer
const longPdf = path.join(tmp, 'long-60.pdf');
fs.writeFileSync(longPdf, await makeLongPdf(60));
if (want('text')) line('\n1. Text-layer extraction, 60-page generated PDF (full layout + ids + markdown)');
if (want('text')) await child(['--child-text', longPdf, '1']); // warm the disk cache
for (const procs of want('text') ? [1, cores] : []) {
  const q = await parallel(procs, () => child(['--child-text', longPdf, '2']));
  const qPages = q.rs.reduce((a, r) => a + r.pages, 0), qRate = qPages / q.wall;
  const cpuMs = (rs) => (1000 * rs.reduce((a, r) => a + r.cpuSeconds, 0)) / rs.reduce((a, r) => a + r.pages, 0);
  const qCpu = cpuMs(q.rs);
  let msg = `  quire   ${procs} process(es): ${f2(qRate)} pages/s, CPU ${f2(qCpu)} ms/page  (peak RSS per process ${Math.max(...q.rs.map((r) => r.rssMB))} MB)`;
  if (hasFitz) {
    const m = await parallel(procs, () => py(PYMUPDF_TEXT, [longPdf, '2']));
    const mRate = m.rs.reduce((a, r) => a + r.pages, 0) / m.wall;
    const mCpu = cpuMs(m.rs);
    msg += `\n  PyMuPDF ${procs} process(es): ${f2(mRate)} pages/s, CPU ${f2(mCpu)} ms/page  → quire/PyMuPDF = ${f2(qRate / mRate)}× by wall clock (goal ≥ 0.4×), ${f2(mCpu / qCpu)}× by CPU time`;
  }
  line(msg);
}
if (want('text')) {
  // steady state: one untimed extraction first, then 3 timed (PyMuPDF has no warm-up to pay)
  const q = await child(['--child-text', longPdf, '3', 'pdf', '1']);
  let msg = `  quire   1 process, warm: ${f2(q.pages / q.seconds)} pages/s, CPU ${f2((1000 * q.cpuSeconds) / q.pages)} ms/page`;
  if (hasFitz) {
    const m = await py(PYMUPDF_TEXT, [longPdf, '3']);
    msg += `\n  PyMuPDF 1 process:       ${f2(m.pages / m.seconds)} pages/s, CPU ${f2((1000 * m.cpuSeconds) / m.pages)} ms/page  → ${f2(q.pages / q.seconds / (m.pages / m.seconds))}× by wall clock, ${f2(m.cpuSeconds / m.pages / (q.cpuSeconds / q.pages))}× by CPU time`;
    // the parser's ceiling: pdf.js alone (no words, layout, ids or markdown), warm, same process setup
    for (const [label, what] of [['getTextContent', 'text'], ['getOperatorList', 'ops']]) {
      const j = await child(['--child-pdfjs', longPdf, '3', what]);
      msg += `\n  pdf.js ${label} alone, warm: ${f2(j.pages / j.seconds)} pages/s, CPU ${f2((1000 * j.cpuSeconds) / j.pages)} ms/page  → ${f2(j.pages / j.seconds / (m.pages / m.seconds))}× PyMuPDF by wall clock`;
    }
    const f = await child(['--child-pdfium-text', longPdf, '3']);
    msg += `\n  PDFium (wasm) characters alone, warm: ${f2(f.pages / f.seconds)} pages/s, CPU ${f2((1000 * f.cpuSeconds) / f.pages)} ms/page  → ${f2(f.pages / f.seconds / (m.pages / m.seconds))}× PyMuPDF by wall clock (another parser's ceiling; not used for text)`;
  }
  line(msg);
}

// ------------------------------------------------------------------ 2. render
if (want('render')) line('\n2. Page rendering at 300 DPI, 1 process');
for (const [label, file, n] of !want('render') ? [] : [['generated text PDF, 10 pages', longPdf, 10], ['scanned linn.pdf, 1 page', path.join(corpus, 'scanned/linn.pdf'), 1], ['amt_handbook_sample.pdf (figures), 1 page', path.join(corpus, 'pdf-text/amt_handbook_sample.pdf'), 1]]) {
  if (!fs.existsSync(file)) continue;
  const reps = n === 1 ? 5 : 1;
  const quire = { pdfium: { png: 0, raw: 0, grey: 0, greyRaw: 0 }, pdfjs: { png: 0, raw: 0, grey: 0, greyRaw: 0 } };
  let m = 0, mPng = 0, mGrey = 0, mGreyPng = 0;
  for (let r = 0; r < reps; r++) {
    for (const engine of ['pdfium', 'pdfjs']) {
      const c = await child(['--child-render', file, String(n), engine]);
      quire[engine].png += c.seconds / n; quire[engine].raw += c.raw / n; quire[engine].grey += c.grey / n; quire[engine].greyRaw += c.greyRaw / n;
    }
    if (hasFitz) {
      const y = await py(PYMUPDF_RENDER, [file, String(n)]);
      m += y.seconds / n; mPng += y.png / n; mGrey += y.grey / n; mGreyPng += y.greyPng / n;
    }
  }
  const ms = (x) => f2((x / reps) * 1000);
  line(`  ${label}: raw pixels quire ${ms(quire.pdfium.raw)} ms/page (RGBA; pdf.js canvas ${ms(quire.pdfjs.raw)})${hasFitz ? `, PyMuPDF ${ms(m)} ms/page (RGB pixmap) → ${f2(quire.pdfium.raw / m)}× (canvas ${f2(quire.pdfjs.raw / m)}×; goal ≤ 10×)` : ''}`);
  line(`  ${' '.repeat(label.length)}  PNG-encoded quire ${ms(quire.pdfium.png)} ms/page (sharp, level 6; canvas ${ms(quire.pdfjs.png)})${hasFitz ? `, PyMuPDF ${ms(mPng)} ms/page (pixmap + tobytes('png')) → ${f2(quire.pdfium.png / mPng)}×` : ''}`);
  line(`  ${' '.repeat(label.length)}  grey pixels (PDFium, before PNG): quire ${ms(quire.pdfium.greyRaw)} ms/page${hasFitz ? `, PyMuPDF grey pixmap ${ms(mGrey)} ms/page → ${f2(quire.pdfium.greyRaw / mGrey)}× (goal ≤ 10×)` : ''}`);
  line(`  ${' '.repeat(label.length)}  grey PNG, as OCR takes it: quire ${ms(quire.pdfium.grey)} ms/page (sharp, level 1; canvas ${ms(quire.pdfjs.grey)})${hasFitz ? `, PyMuPDF grey pixmap ${ms(mGrey)} ms/page → ${f2(quire.pdfium.grey / mGrey)}× (goal ≤ 10×), + tobytes('png') ${ms(mGreyPng)} → ${f2(quire.pdfium.grey / mGreyPng)}×` : ''}`);
}

if (want('render')) line('\n2b. OCR input: a scanned PDF read with a stub OCR engine (text layer judged, page rendered grey at 300 DPI, PNG)');
for (const name of !want('render') ? [] : ['linn.pdf', 'linn-ccitt.pdf', 'linn-cardinal.pdf']) {
  const file = path.join(corpus, 'scanned', name);
  if (!fs.existsSync(file)) continue;
  const q = await child(['--child-ocr-input', file, '3']);
  let msg = `  ${name}: quire ${f2((1000 * q.seconds) / q.pages)} ms/page, CPU ${f2((1000 * q.cpuSeconds) / q.pages)} ms/page`;
  if (hasFitz) {
    const m = await py(PYMUPDF_OCR_INPUT, [file, '3']);
    msg += `; PyMuPDF get_text + grey get_pixmap(dpi=300) + PNG ${f2((1000 * m.seconds) / m.pages)} ms/page, CPU ${f2((1000 * m.cpuSeconds) / m.pages)} → ${f2(q.seconds / q.pages / (m.seconds / m.pages))}× (goal ≤ 10×)`;
  }
  line(msg);
}

// ------------------------------------------------------------------ 3. OCR
if (!process.argv.includes('--skip-ocr') && want('ocr')) {
  line('\n3. OCR at 300 DPI (scripts/bench-ocr.mjs, 4 pages per measurement)');
  const { stdout } = await run(process.execPath, [path.join(root, 'scripts/bench-ocr.mjs'), '4'], { maxBuffer: 1 << 22 });
  line(stdout.split('\n').filter((l) => l && !/^Detected \d+ diacritics/.test(l)).map((l) => `  ${l}`).join('\n'));
}

// ------------------------------------------------------------------ 4. office / html
if (want('office')) line('\n4. Office and HTML, corpus files, 1 process (pages = slides, sheets; DOCX/HTML count their derived pages)');
const FORMATS = { docx: 'docx', pptx: 'pptx', xlsx: 'xlsx', html: 'html' };
for (const [folder, format] of want('office') ? Object.entries(FORMATS) : []) {
  const dir = path.join(corpus, folder);
  if (!fs.existsSync(dir)) continue;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(`.${format}`) && !f.includes('.expected'));
  let seconds = 0, pages = 0;
  for (const f of files) { const r = await child(['--child-text', path.join(dir, f), '5', format]); seconds += r.seconds; pages += r.pages; }
  line(`  ${format}: ${files.length} files × 5 runs, ${f2(pages / seconds)} pages/s, ${f2((files.length * 5) / seconds)} files/s`);
}

// ------------------------------------------------------------------ 5. 1,000,000-cell XLSX
if (want('xlsx')) line('\n5. 1,000,000-cell XLSX (50,000 rows × 20 columns)');
const big = path.join(tmp, 'million.xlsx');
if (want('xlsx')) await makeMillionCellXlsx(big);
if (want('xlsx')) try {
  const r = await child(['--child-text', big, '1', 'xlsx']);
  line(`  ${(fs.statSync(big).size / 2 ** 20).toFixed(1)} MB file: ${f2(r.seconds)} s (extract + render), peak RSS ${r.rssMB} MB`);
} catch (e) {
  line(`  failed: ${e.message}`);
}
fs.rmSync(tmp, { recursive: true, force: true });
