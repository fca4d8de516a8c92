import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { DEFAULT_BINARISATION, type OcrWorker, type OcrWorkerFactory, type TessLine, type TessResult, type TessWord } from './ocr-worker.js';
import { languageDataPath, THRESHOLDING_METHOD } from './tesseract-settings.js';

/**
 * The second adapter of the OCR engine port: the native tesseract CLI (4.x or 5.x), one process per
 * recognition. tesseract.js runs the same LSTM in WASM, where its int8 kernels are emulated on
 * 128-bit SIMD; the native binary uses AVX2 and runs the engine in about 0.6 of the time with the
 * same model, a whole page through recognizePage in 0.65–0.8 of it (docs/benchmarks.md). Chosen by
 * configuration (QUIRE_OCR_ENGINE=native); tesseract.js stays the default: it needs nothing installed.
 *
 * A process per call keeps the pool's model simple: a worker owns no state between recognitions, so a
 * hung or crashed recognition is one killed process, and the pool's size is the number of tesseract
 * processes at once (OMP_THREAD_LIMIT=1: one core each).
 */
export interface NativeEngineOptions {
  /** The tesseract executable: a path, or a name looked up on PATH. Default `tesseract`. */
  binary?: string;
  /** Where the packaged gzipped models are unpacked once (default: os.tmpdir()/quire-tessdata). */
  cacheDir?: string;
}

export interface TesseractVersion { major: number; minor: number; text: string }

const VERSION_TIMEOUT_MS = 15_000;

/** `tesseract --version` → its version; tesseract 4.0 printed it on stderr, later ones on stdout. */
export function parseTesseractVersion(output: string): TesseractVersion | null {
  const m = /^\s*tesseract\s+v?(\d+)\.(\d+)(\S*)/im.exec(output);
  return m ? { major: Number(m[1]), minor: Number(m[2]), text: `${m[1]}.${m[2]}${m[3]}` } : null;
}

function versionOrThrow(binary: string, result: { error?: Error; status: number | null; signal?: string | null; output: string }): TesseractVersion {
  const { error, status, output } = result;
  if (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`the tesseract executable "${binary}" was not found (install tesseract-ocr 4 or 5, or give its path)`);
    if (code === 'EACCES') throw new Error(`the tesseract executable "${binary}" is not executable`);
    throw new Error(`"${binary} --version" failed: ${error.message}`);
  }
  if (status !== 0) throw new Error(`"${binary} --version" exited with ${status ?? result.signal}: ${output.trim().slice(0, 200) || 'no output'}`);
  const v = parseTesseractVersion(output);
  if (!v) throw new Error(`"${binary} --version" does not look like tesseract: ${JSON.stringify(output.trim().slice(0, 120))}`);
  // 3.x has no LSTM engine and cannot read the LSTM model both adapters use.
  if (v.major < 4) throw new Error(`"${binary}" is tesseract ${v.text}; the LSTM model needs tesseract 4 or 5`);
  return v;
}

/**
 * Checks synchronously that `binary` runs and is tesseract 4 or newer; throws a message saying what
 * is wrong. For start-up checks (a service configured for native OCR refuses to start without it).
 */
export function checkTesseractBinary(binary = 'tesseract'): TesseractVersion {
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS });
  return versionOrThrow(binary, { error: r.error, status: r.status, signal: r.signal, output: `${r.stdout ?? ''}\n${r.stderr ?? ''}` });
}

const versions = new Map<string, Promise<TesseractVersion>>();

/** The same check without blocking, once per binary and process (a failure is not cached). */
function tesseractVersion(binary: string): Promise<TesseractVersion> {
  let p = versions.get(binary);
  if (!p) {
    p = new Promise<TesseractVersion>((resolve, reject) => {
      execFile(binary, ['--version'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS }, (error, stdout, stderr) => {
        // execFile's error: code is the errno string when it could not start, the exit status otherwise
        const code = (error as { code?: unknown } | null)?.code;
        try {
          resolve(versionOrThrow(binary, {
            error: typeof code === 'string' ? error! : undefined,
            status: error ? (typeof code === 'number' ? code : null) : 0,
            signal: error?.signal,
            output: `${stdout}\n${stderr}`,
          }));
        } catch (e) { reject(e); }
      });
    });
    versions.set(binary, p);
    p.catch(() => versions.delete(binary));
  }
  return p;
}

// ---------------------------------------------------------------- language data

const unpacked = new Map<string, Promise<string>>();

/**
 * A folder with `<lang>.traineddata` for the native binary, which cannot read gzipped models. A
 * `tessdataDir` that holds them unpacked is used as it is; otherwise the gzipped files (from
 * `tessdataDir`, or the @tesseract.js-data packages — the model the WASM engine reads) are unpacked
 * once into `cacheDir`, in a folder named by their paths, sizes and dates, so an upgraded package
 * gets a fresh copy. Files are written under a temporary name and renamed, so processes unpacking at
 * the same time never read half a model.
 */
export async function nativeTessdataDir(languages: string, tessdataDir?: string, cacheDir?: string): Promise<string> {
  const langs = languages.split('+');
  if (tessdataDir && langs.every((l) => fs.existsSync(path.join(tessdataDir, `${l}.traineddata`)))) return tessdataDir;
  const sources = langs.map((l) => {
    const gz = tessdataDir ? path.join(tessdataDir, `${l}.traineddata.gz`) : path.join(languageDataPath(l), `${l}.traineddata.gz`);
    if (!fs.existsSync(gz)) throw new Error(`No traineddata for ${languages} in ${tessdataDir ?? path.dirname(gz)}`);
    return { lang: l, gz };
  });
  const key = createHash('sha256').update(JSON.stringify(sources.map(({ gz }) => {
    const st = fs.statSync(gz);
    return [gz, st.size, st.mtimeMs];
  }))).digest('hex').slice(0, 16);
  const dir = path.join(cacheDir ?? path.join(os.tmpdir(), 'quire-tessdata'), key);
  let p = unpacked.get(dir);
  if (!p) {
    p = (async () => {
      await fs.promises.mkdir(dir, { recursive: true });
      for (const { lang, gz } of sources) {
        const target = path.join(dir, `${lang}.traineddata`);
        if (fs.existsSync(target)) continue;
        const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
        try {
          await pipeline(fs.createReadStream(gz), createGunzip(), fs.createWriteStream(tmp));
          await fs.promises.rename(tmp, target);
        } catch (e) {
          await fs.promises.rm(tmp, { force: true });
          throw e;
        }
      }
      return dir;
    })();
    unpacked.set(dir, p);
    p.catch(() => unpacked.delete(dir));
  }
  return p;
}

// ---------------------------------------------------------------- output parsing

/**
 * The CLI writes both renderers to stdout, interleaved: hOCR's header, TSV's header, hOCR's page,
 * TSV's page, hOCR's footer. Every TSV line starts with its level digit (or the `level` header) and
 * a tab; every hOCR line starts with `<` or indentation.
 */
export function splitNativeOutput(stdout: string): { tsv: string; hocr: string } {
  const tsv: string[] = [], hocr: string[] = [];
  for (const line of stdout.split('\n')) (/^(?:\d|level)\t/.test(line) ? tsv : hocr).push(line);
  return { tsv: tsv.join('\n'), hocr: hocr.join('\n') };
}

const bboxKey = (b: { x0: number; y0: number; x1: number; y1: number }) => `${b.x0} ${b.y0} ${b.x1} ${b.y1}`;

/**
 * Each hOCR line's `x_size` by its bbox. It is tesseract's row height (RowAttributes: ascender top to
 * descender bottom), which tesseract.js reports as `rowAttributes.rowHeight` and words.ts turns into a
 * font size; TSV has only the line's ink box, which is shorter on a line without ascenders or descenders.
 */
export function parseHocrRowHeights(hocr: string): Map<string, number> {
  const out = new Map<string, number>();
  const re = /class=['"]ocr_(?:line|header|caption|textfloat)['"][^>]*title=(['"])([^'"]*)\1/g;
  for (let m = re.exec(hocr); m; m = re.exec(hocr)) {
    const box = /bbox (\d+) (\d+) (\d+) (\d+)/.exec(m[2]);
    const size = /x_size ([\d.]+)/.exec(m[2]);
    if (box && size) out.set(`${box[1]} ${box[2]} ${box[3]} ${box[4]}`, Number(size[1]));
  }
  return out;
}

/**
 * tesseract's TSV (level, page, block, paragraph, line, word numbers, left/top/width/height, conf,
 * text) → the blocks → paragraphs → lines → words tree tesseract.js returns, with its conventions:
 * boxes as x0/y0 (left/top) and x1/y1 (right/bottom, exclusive), word confidences 0..100 (the same
 * ResultIterator confidence), `text` as GetUTF8Text lays it out (words by spaces, lines by newlines,
 * a blank line after each paragraph) and `confidence` the mean word confidence (MeanTextConf).
 */
export function parseTesseractTsv(tsv: string, rowHeights: Map<string, number> = new Map()): TessResult {
  type Par = { lines: TessLine[] };
  const blocks = new Map<string, { paragraphs: Par[] }>();
  const pars = new Map<string, Par>();
  const lines = new Map<string, TessLine>();
  const words: TessWord[] = [];
  for (const row of tsv.split('\n')) {
    const f = row.replace(/\r$/, '').split('\t');
    if (f.length < 12 || !/^\d$/.test(f[0])) continue;
    const [level, page, block, par, line] = f.slice(0, 5).map(Number);
    const [left, top, width, height] = f.slice(6, 10).map(Number);
    const conf = Number(f[10]);
    const text = f.slice(11).join('\t');
    const bbox = { x0: left, y0: top, x1: left + width, y1: top + height };
    const bk = `${page}/${block}`, pk = `${bk}/${par}`, lk = `${pk}/${line}`;
    if (level === 2) {
      blocks.set(bk, { paragraphs: [] });
    } else if (level === 3) {
      const p: Par = { lines: [] };
      pars.set(pk, p);
      blocks.get(bk)?.paragraphs.push(p);
    } else if (level === 4) {
      const l: TessLine = { bbox, words: [] };
      const rowHeight = rowHeights.get(bboxKey(bbox));
      if (rowHeight !== undefined) l.rowAttributes = { rowHeight };
      lines.set(lk, l);
      pars.get(pk)?.lines.push(l);
    } else if (level === 5) {
      const w: TessWord = { text, confidence: Number.isFinite(conf) ? Math.max(0, conf) : 0, bbox };
      const l = lines.get(lk);
      if (!l) throw new Error(`tesseract TSV: word before its line (${row})`);
      l.words.push(w);
      words.push(w);
    }
  }
  const result = [...blocks.values()].filter((b) => b.paragraphs.length > 0);
  const text = result.map((b) => b.paragraphs.map((p) => p.lines.map((l) => `${l.words.map((w) => w.text).join(' ')}\n`).join('') + '\n').join('')).join('');
  const confidence = words.length ? Math.round(words.reduce((s, w) => s + w.confidence, 0) / words.length) : 0;
  return { blocks: result, confidence, text };
}

// ---------------------------------------------------------------- the worker

let counter = 0;

/**
 * The OcrWorkerFactory of the native engine. Creating a worker checks the binary (once per process)
 * and unpacks the model (once per cache folder), so a pool of native workers fails at creation when
 * either is missing. Each recognition runs `tesseract stdin stdout` with the image on stdin.
 */
export function createNativeTesseractWorkerFactory(engine: NativeEngineOptions = {}): OcrWorkerFactory {
  const binary = engine.binary ?? 'tesseract';
  return async ({ languages, psm, tessdataDir, onEngineOutput }) => {
    const version = await tesseractVersion(binary);
    const dataDir = await nativeTessdataDir(languages, tessdataDir, engine.cacheDir);
    const id = `ocr-native-${++counter}`;
    const baseArgs = [
      'stdin', 'stdout', '--tessdata-dir', dataDir, '-l', languages, '--oem', '1', '--psm', String(psm),
      // as createTesseractWorker sets it: images carry no trustworthy DPI, the pipeline scales text to 300 DPI size
      '-c', 'user_defined_dpi=300',
      // the tsv and hocr config files live in the system tessdata folder, not in dataDir: set their variables
      '-c', 'tessedit_create_tsv=1', '-c', 'tessedit_create_hocr=1', '-c', 'hocr_font_info=0',
    ];
    // 4.x has one binarisation (Otsu) and no thresholding_method variable.
    const binarise = (b = DEFAULT_BINARISATION) => (version.major >= 5 ? ['-c', `thresholding_method=${THRESHOLDING_METHOD[b]}`] : []);
    const env = { ...process.env, OMP_THREAD_LIMIT: '1' };

    const deathListeners: ((e: Error) => void)[] = [];
    let dead: Error | null = null;
    let child: ChildProcess | null = null;
    const die = (e: Error) => {
      if (dead) return;
      dead = e;
      for (const cb of deathListeners) cb(e);
    };

    return {
      id,
      recognize(image, pass) {
        if (dead) return Promise.reject(dead);
        if (child) return Promise.reject(new Error(`${id}: a recognition is already running`));
        return new Promise<TessResult>((resolve, reject) => {
          const proc = spawn(binary, [...baseArgs, ...binarise(pass?.binarisation)], { env, stdio: ['pipe', 'pipe', 'pipe'] });
          child = proc;
          const out: Buffer[] = [], err: Buffer[] = [];
          let spawnError: Error | null = null;
          proc.stdout!.on('data', (b: Buffer) => out.push(b));
          proc.stderr!.on('data', (b: Buffer) => err.push(b));
          proc.on('error', (e) => {
            // could not start (ENOENT, EACCES …): 'close' may never come
            spawnError = e;
            if (child === proc) child = null;
            reject(e);
          });
          // tesseract exits without reading stdin when it fails early; its exit status says why.
          proc.stdin!.on('error', () => {});
          proc.stdin!.end(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
          proc.on('close', (code, signal) => {
            if (child === proc) child = null;
            const stderr = Buffer.concat(err).toString('utf8').trim();
            if (spawnError) return reject(spawnError);
            if (signal) return reject(new Error(`tesseract was killed (${signal})`));
            if (code !== 0) return reject(new Error(`tesseract exited with ${code}: ${stderr.slice(-300) || 'no message'}`));
            // what tesseract says beside a result ("Detected 12 diacritics") goes to the caller's logger
            if (onEngineOutput) for (const line of stderr.split('\n')) if (line.trim()) onEngineOutput(line, 'stderr');
            try {
              const { tsv, hocr } = splitNativeOutput(Buffer.concat(out).toString('utf8'));
              resolve(parseTesseractTsv(tsv, parseHocrRowHeights(hocr)));
            } catch (e) { reject(e); }
          });
        });
      },
      async terminate() {
        child?.kill('SIGTERM');
        die(new Error(`${id} terminated`));
      },
      kill() {
        // what the pool does to a hung or failed worker: the process in flight goes now
        child?.kill('SIGKILL');
        die(new Error(`${id} killed`));
      },
      onDeath(cb) {
        if (dead) cb(dead);
        else deathListeners.push(cb);
      },
    } satisfies OcrWorker;
  };
}
