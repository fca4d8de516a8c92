import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { characterErrorRate, renderScan, SAMPLE_LINES, type Scan } from '../../../tests/fixtures/scans/generate.js';
import { createOcrPool, type OcrPool } from './index.js';
import { checkTesseractBinary, createNativeTesseractWorkerFactory, nativeTessdataDir, parseHocrRowHeights, parseTesseractTsv, parseTesseractVersion, splitNativeOutput } from './native-worker.js';
import { describeOcrWorkerConformance } from '../test/ocr-worker.conformance.js';
import { languageDataPath } from './tesseract-settings.js';

const T = 120_000;

// stdout of `tesseract stdin stdout … -c tessedit_create_tsv=1 -c tessedit_create_hocr=1` (5.3.0, a crop
// of the corpus' eurotext.png), trimmed to two lines; the second block (lines 3–4) is added by hand to
// cover block and paragraph nesting. The two renderers' output interleaves as the CLI writes it.
const TAB = '\t';
const tsvRow = (...f: (string | number)[]) => f.join(TAB);
const CAPTURED = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">',
  ' <body>',
  tsvRow('level', 'page_num', 'block_num', 'par_num', 'line_num', 'word_num', 'left', 'top', 'width', 'height', 'conf', 'text'),
  `  <div class='ocr_page' id='page_1' title='image "stdin"; bbox 0 0 850 160; ppageno 0; scan_res 300 300'>`,
  `   <div class='ocr_carea' id='block_1_1' title="bbox 13 11 797 151">`,
  `    <p class='ocr_par' id='par_1_1' lang='eng' title="bbox 13 11 797 151">`,
  `     <span class='ocr_line' id='line_1_1' title="bbox 15 11 733 58; baseline 0.015 -18; x_size 39; x_descenders 7; x_ascenders 9">`,
  `      <span class='ocrx_word' id='word_1_1' title='bbox 15 11 88 42; x_wconf 94'>The</span>`,
  '     </span>',
  `     <span class='ocr_line' id='line_1_2' title="bbox 14 60 797 110; baseline 0.013 -19; x_size 42.5; x_descenders 9; x_ascenders 11">`,
  `      <span class='ocrx_word' id='word_1_9' title='bbox 471 66 606 107; x_wconf 90'>&lt;lazy&gt;</span>`,
  '     </span>',
  `   <div class='ocr_carea' id='block_1_2' title="bbox 13 300 400 350">`,
  `     <span class='ocr_line' id='line_1_3' title="bbox 13 300 400 320; baseline 0 -5; x_size 30; x_descenders 6; x_ascenders 8">`,
  '  </div>',
  tsvRow(1, 1, 0, 0, 0, 0, 0, 0, 850, 400, -1, ''),
  tsvRow(2, 1, 1, 0, 0, 0, 13, 11, 784, 140, -1, ''),
  tsvRow(3, 1, 1, 1, 0, 0, 13, 11, 784, 140, -1, ''),
  tsvRow(4, 1, 1, 1, 1, 0, 15, 11, 718, 47, -1, ''),
  tsvRow(5, 1, 1, 1, 1, 1, 15, 11, 73, 31, '94.468552', 'The'),
  tsvRow(5, 1, 1, 1, 1, 2, 115, 12, 142, 39, '94.468552', '(quick)'),
  tsvRow(4, 1, 1, 1, 2, 0, 14, 60, 783, 50, -1, ''),
  tsvRow(5, 1, 1, 1, 2, 1, 14, 60, 95, 32, '94.992989', 'Over'),
  tsvRow(5, 1, 1, 1, 2, 2, 471, 66, 135, 41, '90.729950', '<lazy>'),
  tsvRow(2, 1, 2, 0, 0, 0, 13, 300, 387, 50, -1, ''),
  tsvRow(3, 1, 2, 1, 0, 0, 13, 300, 387, 50, -1, ''),
  tsvRow(4, 1, 2, 1, 1, 0, 13, 300, 387, 20, -1, ''),
  tsvRow(5, 1, 2, 1, 1, 1, 13, 300, 100, 20, '61.5', 'Total'),
  tsvRow(3, 1, 2, 2, 0, 0, 13, 330, 387, 20, -1, ''),
  tsvRow(4, 1, 2, 2, 1, 0, 13, 330, 387, 20, -1, ''),
  tsvRow(5, 1, 2, 2, 1, 1, 13, 330, 100, 20, '88', '12.5%'),
  ' </body>',
  '</html>',
  '',
].join('\n');

describe('native tesseract output parsing', () => {
  it('separates the interleaved TSV and hOCR output', () => {
    const { tsv, hocr } = splitNativeOutput(CAPTURED);
    expect(tsv.split('\n')).toHaveLength(17); // header + 16 rows
    expect(tsv.split('\n').every((l) => /^(\d|level)\t/.test(l))).toBe(true);
    expect(hocr).toContain("class='ocr_line'");
    expect(hocr).not.toContain('\t');
  });

  it('reads the row height of each line from hOCR, keyed by the line box', () => {
    const rows = parseHocrRowHeights(splitNativeOutput(CAPTURED).hocr);
    expect(rows.get('15 11 733 58')).toBe(39);
    expect(rows.get('14 60 797 110')).toBe(42.5);
    expect(rows.get('13 300 400 320')).toBe(30);
  });

  it('builds blocks → paragraphs → lines → words with boxes, confidences, row heights and text', () => {
    const { tsv, hocr } = splitNativeOutput(CAPTURED);
    const r = parseTesseractTsv(tsv, parseHocrRowHeights(hocr));
    expect(r.blocks).toHaveLength(2);
    expect(r.blocks.map((b) => b.paragraphs.length)).toEqual([1, 2]);
    const [l1, l2] = r.blocks[0].paragraphs[0].lines;
    expect(l1.bbox).toEqual({ x0: 15, y0: 11, x1: 733, y1: 58 });
    expect(l1.rowAttributes).toEqual({ rowHeight: 39 });
    expect(l2.rowAttributes).toEqual({ rowHeight: 42.5 });
    expect(l1.words.map((w) => w.text)).toEqual(['The', '(quick)']);
    expect(l2.words[1]).toEqual({ text: '<lazy>', confidence: 90.72995, bbox: { x0: 471, y0: 66, x1: 606, y1: 107 } });
    // a line hOCR did not list keeps no row height: words.ts falls back to the line box
    const last = r.blocks[1].paragraphs[1].lines[0];
    expect(last.rowAttributes).toBeUndefined();
    expect(last.words[0]).toMatchObject({ text: '12.5%', confidence: 88 });
    // GetUTF8Text's layout: a newline per line, a blank line after each paragraph
    expect(r.text).toBe('The (quick)\nOver <lazy>\n\nTotal\n\n12.5%\n\n');
    expect(r.confidence).toBe(Math.round((94.468552 * 2 + 94.992989 + 90.72995 + 61.5 + 88) / 6));
  });

  it('reads an empty page as no blocks', () => {
    const r = parseTesseractTsv(`${tsvRow('level', 'page_num', 'block_num', 'par_num', 'line_num', 'word_num', 'left', 'top', 'width', 'height', 'conf', 'text')}\n${tsvRow(1, 1, 0, 0, 0, 0, 0, 0, 100, 80, -1, '')}\n`);
    expect(r).toEqual({ blocks: [], confidence: 0, text: '' });
  });

  it('parses tesseract version lines and rejects other programs', () => {
    expect(parseTesseractVersion('tesseract 5.3.0\n leptonica-1.82.0\n')).toMatchObject({ major: 5, minor: 3, text: '5.3.0' });
    expect(parseTesseractVersion('\ntesseract v4.0.0-beta.1\n')).toMatchObject({ major: 4, minor: 0 });
    expect(parseTesseractVersion('Python 3.11.2')).toBeNull();
  });
});

describe('native tesseract binary checks (no tesseract needed)', () => {
  let dir: string;
  beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fake-tess-')); });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const script = (name: string, body: string) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return f;
  };

  it('says what is wrong: not found, failing, not tesseract, too old', () => {
    expect(() => checkTesseractBinary(path.join(dir, 'absent'))).toThrow(/was not found/);
    expect(() => checkTesseractBinary(script('failing', 'echo broken >&2; exit 3'))).toThrow(/exited with 3: broken/);
    expect(() => checkTesseractBinary(script('other', 'echo "Python 3.11"'))).toThrow(/does not look like tesseract/);
    expect(() => checkTesseractBinary(script('old', 'echo "tesseract 3.05.02"'))).toThrow(/needs tesseract 4 or 5/);
    expect(checkTesseractBinary(script('fine', 'echo "tesseract 5.3.0"'))).toMatchObject({ major: 5 });
  });

  it("hands what tesseract prints on stderr beside a result to onEngineOutput, line by line", async () => {
    const out = path.join(dir, 'captured.txt');
    fs.writeFileSync(out, CAPTURED);
    const fake = script('chatty', `if [ "$1" = "--version" ]; then echo "tesseract 5.3.0"; exit 0; fi
cat > /dev/null
printf 'Detected 12 diacritics\nEstimating resolution as 301\n' >&2
cat "${out}"`);
    const lines: [string, string][] = [];
    const make = createNativeTesseractWorkerFactory({ binary: fake, cacheDir: path.join(dir, 'cache') });
    const w = await make({ languages: 'eng', psm: 3, onEngineOutput: (line, stream) => lines.push([stream, line]) });
    const r = await w.recognize(new Uint8Array([137, 80, 78, 71]));
    await w.terminate();
    expect(r.text).toContain('quick');
    expect(lines).toEqual([['stderr', 'Detected 12 diacritics'], ['stderr', 'Estimating resolution as 301']]);
  }, T);

  it('fails pool creation, not the first page, when the binary is missing', async () => {
    await expect(createOcrPool({ size: 1, engine: 'native', tesseractPath: path.join(dir, 'absent') })).rejects.toThrow(/was not found/);
  });

  it('unpacks the packaged model once, atomically, into the cache folder', async () => {
    const cache = path.join(dir, 'cache');
    const d = await nativeTessdataDir('eng', undefined, cache);
    expect(path.dirname(d)).toBe(cache);
    const model = path.join(d, 'eng.traineddata');
    const size = fs.statSync(model).size;
    expect(size).toBeGreaterThan(fs.statSync(path.join(languageDataPath('eng'), 'eng.traineddata.gz')).size);
    expect(fs.readdirSync(d)).toEqual(['eng.traineddata']); // no temporary file left behind
    expect(await nativeTessdataDir('eng', undefined, cache)).toBe(d);
    // a folder that already holds the unpacked model is used as it is
    expect(await nativeTessdataDir('eng', d, path.join(dir, 'other-cache'))).toBe(d);
    await expect(nativeTessdataDir('eng', path.join(dir, 'no-models'), cache)).rejects.toThrow(/No traineddata for eng/);
  });

  it('kills a hung tesseract process on the job timeout, replaces the worker and reports PROC_001', async () => {
    // "tesseract" that answers --version and then hangs on every recognition, recording its pid
    const pids = path.join(dir, 'pids');
    const hung = script('hung', `[ "$1" = "--version" ] && { echo "tesseract 5.3.0"; exit 0; }\necho $$ >> ${pids}\nexec sleep 60`);
    const factory = createNativeTesseractWorkerFactory({ binary: hung, cacheDir: path.join(dir, 'cache') });
    const deaths: string[] = [];
    const pool = await createOcrPool({
      size: 1, jobTimeoutMs: 400,
      workerFactory: async (o) => { const w = await factory(o); w.onDeath((e) => deaths.push(e.message)); return w; },
    });
    try {
      const scan = await renderScan({ lines: ['Hung'] });
      await expect(pool.recognize(scan.png, { number: 1, widthPt: 295, heightPt: 418 })).rejects.toMatchObject({ code: 'PROC_001' });
      expect(deaths).toHaveLength(2); // the first worker and its replacement, one per attempt
      const started = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
      expect(started).toHaveLength(2);
      const gone = (pid: number) => { try { process.kill(pid, 0); return false; } catch (e) { return (e as NodeJS.ErrnoException).code === 'ESRCH'; } };
      while (!started.every(gone)) await new Promise((r) => setTimeout(r, 10)); // killed processes are reaped
    } finally { await pool.close(); }
  }, T);
});

/** Resolves once no process has `pid` (signal 0 answers ESRCH); fails after 10 s. */

const NATIVE = spawnSync('tesseract', ['--version']).status === 0;
if (!NATIVE) console.log('native tesseract tests skipped: no `tesseract` on PATH (Debian: apt-get install tesseract-ocr)');

if (NATIVE) describeOcrWorkerConformance('native tesseract CLI', createNativeTesseractWorkerFactory());

(NATIVE ? describe : describe.skip)('native tesseract engine (needs `tesseract` on PATH)', () => {
  let wasm: OcrPool, native: OcrPool;
  let scan: Scan;
  const page = (s: Scan) => ({ number: 1, widthPt: (s.width / s.dpi) * 72, heightPt: (s.height / s.dpi) * 72 });
  beforeAll(async () => {
    [wasm, native] = await Promise.all([createOcrPool({ size: 1 }), createOcrPool({ size: 1, engine: 'native' })]);
    scan = await renderScan();
  }, T);
  afterAll(async () => { await Promise.all([wasm?.close(), native?.close()]); });

  it('reads a generated scan as the WASM engine does: same words, boxes and font sizes', async () => {
    const [a, b] = await Promise.all([native.recognize(scan.png, page(scan)), wasm.recognize(scan.png, page(scan))]);
    const text = (p: typeof a) => p.words.map((w) => w.text).join(' ');
    expect(text(a)).toBe(text(b));
    expect(characterErrorRate(text(a), SAMPLE_LINES.join(' '))).toBeLessThan(0.05);
    expect(a.words.map((w) => w.fontSize)).toEqual(b.words.map((w) => w.fontSize));
    expect(a.words.map((w) => w.endOfRun)).toEqual(b.words.map((w) => w.endOfRun));
    a.words.forEach((w, i) => {
      expect(w.box).toEqual(b.words[i].box);
      // tesseract.js reports whole numbers (and is tesseract 5.1, Debian 5.3): near, not equal
      expect(Math.abs(w.confidence - b.words[i].confidence)).toBeLessThan(0.05);
    });
  }, T);
});
