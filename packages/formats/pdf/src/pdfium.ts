import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';

/**
 * Page rasterization with PDFium (the @embedpdf/pdfium WebAssembly build, MIT; PDFium itself BSD).
 * pdf.js stays the parser for everything Quire reads from a page (words, rulings, images, widgets);
 * PDFium only turns pages into pixels, for OCR input and figure crops. A text page drawn grey at 300
 * DPI for OCR took 221 ms through pdf.js onto @napi-rs/canvas (pdf.js builds a path per glyph, the
 * canvas fills them) and takes 42 ms with PDFium (docs/benchmarks.md, "Rendering with PDFium";
 * docs/decisions.md, "Page rasterizer"). render.ts falls back to the pdf.js canvas for a document or
 * page PDFium cannot open or fails on.
 *
 * The wasm module is loaded once per isolate, on the first render (never for text-layer pages), from
 * the npm package's own file: nothing is fetched. Its calls are synchronous, so one isolate never has
 * two PDFium calls interleaved.
 */

/** A raster in plain memory: `channels` bytes a pixel (1 grey, 3 RGB, 4 RGBA, opaque), row by row, no padding. */
export interface Raster { data: Uint8Array; width: number; height: number; channels: 1 | 3 | 4 }

export type PixelFormat = 'grey' | 'rgb' | 'rgba';

/** The region to draw given the page's size as displayed, in points; undefined: do not draw it. */
export type RegionOf = (pageSize: { width: number; height: number }) => RasterRegion | undefined;

/** The part of a page to draw: the whole page is `fullWidth` × `fullHeight` pixels; the output is the w × h box at (x, y). */
export interface RasterRegion { fullWidth: number; fullHeight: number; x: number; y: number; w: number; h: number }

// PDFium's constants (fpdfview.h)
const FPDF_ANNOT = 0x01; // draw annotation appearances (form fields), as pdf.js's AnnotationMode.ENABLE does
const FPDF_GRAYSCALE = 0x08;
const FPDF_REVERSE_BYTE_ORDER = 0x10; // RGB(x) instead of BGR(x)
/**
 * Bitmap formats and render flags per output. RGBA is drawn as BGRx, reversed: on a bitmap filled
 * with opaque white the fourth byte stays 255, and it draws ~15 % faster than BGRA, which composites
 * alpha (render.test.ts checks the output is opaque).
 */
const FORMATS: Record<PixelFormat, { bitmap: number; channels: 1 | 3 | 4; flags: number }> = {
  grey: { bitmap: 1 /* FPDFBitmap_Gray */, channels: 1, flags: FPDF_GRAYSCALE },
  rgb: { bitmap: 2 /* FPDFBitmap_BGR */, channels: 3, flags: FPDF_REVERSE_BYTE_ORDER },
  rgba: { bitmap: 3 /* FPDFBitmap_BGRx */, channels: 4, flags: FPDF_REVERSE_BYTE_ORDER },
};
const WHITE = 0xffffffff;

/**
 * Pixels rendered per PDFium call. Larger renders are drawn in horizontal bands, each copied out
 * before the next: WebAssembly memory grows to its largest use and never shrinks, so this bounds
 * what one render leaves behind (16 MB of RGBA), and the event loop gets a turn between bands.
 */
const BAND_PIXELS = 4_000_000;

let loading: Promise<WrappedPdfiumModule> | undefined;
/** The module `loading` resolved to, so a failed one can be let go synchronously. */
let current: WrappedPdfiumModule | undefined;
let modulesLoaded = 0;

/** How many PDFium modules this isolate has loaded (one, unless a failure made it load another). */
export const pdfiumModulesLoaded = () => modulesLoaded;

/**
 * Lets go of a module a call failed in (a WebAssembly trap, e.g. on a malformed file, leaves its memory
 * in an unknown state): the next document loads a fresh one; documents open on it stop using it.
 */
function discardModule(m: WrappedPdfiumModule): void {
  if (current === m) { current = undefined; loading = undefined; }
}

/** The module's memory as bytes (Emscripten's HEAPU8, which the package's types leave out); a new view after memory grows. */
const heapOf = (m: WrappedPdfiumModule) => (m.pdfium as unknown as { HEAPU8: Uint8Array }).HEAPU8;

/**
 * This isolate's PDFium module, loaded on first use from the package's own wasm file. Exported for
 * measurements that call PDFium's C API directly (scripts/bench-extract.mjs); Quire draws through
 * PdfiumDocument.
 */
export function loadPdfium(): Promise<WrappedPdfiumModule> {
  loading ??= (async () => {
    const { init } = await import('@embedpdf/pdfium');
    const wasm = await fs.readFile(createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm'));
    const m = await init({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer });
    m.PDFiumExt_Init();
    current = m;
    modulesLoaded++;
    return m;
  })();
  loading.catch(() => { loading = undefined; });
  return loading;
}

export class PdfiumDocument {
  private closed = false;
  /** Renders in progress: a render yields between bands, and the document must outlive it. */
  private rendering = 0;
  /** A call into PDFium failed on this document (see discardModule). */
  private broken = false;

  /**
   * `form`: PDFium's form-fill environment. FPDF_RenderPageBitmap leaves widget annotations out (form
   * fields are the form layer's to draw), so fields are drawn over the page with FPDF_FFLDraw.
   */
  private constructor(
    private readonly m: WrappedPdfiumModule, private readonly doc: number, private readonly bytesPtr: number,
    private readonly formInfo: number, private readonly form: number,
  ) {}

  /**
   * Opens `bytes` (copied into PDFium's memory, where they stay until close). Throws when PDFium
   * cannot read the file; callers then draw with pdf.js.
   */
  static async open(bytes: Uint8Array): Promise<PdfiumDocument> {
    const m = await loadPdfium();
    const P = m.pdfium;
    const ptr = P.wasmExports.malloc(Math.max(1, bytes.length));
    if (!ptr) throw new Error('PDFium could not allocate memory for the document');
    heapOf(m).set(bytes, ptr);
    const doc = m.FPDF_LoadMemDocument(ptr, bytes.length, '');
    if (!doc) {
      const code = m.FPDF_GetLastError();
      P.wasmExports.free(ptr);
      throw new Error(`PDFium could not open the document (error ${code})`);
    }
    const formInfo = m.PDFiumExt_OpenFormFillInfo();
    const form = formInfo ? m.PDFiumExt_InitFormFillEnvironment(doc, formInfo) : 0;
    return new PdfiumDocument(m, doc, ptr, formInfo, form);
  }

  /**
   * Draws `region` of page `n` on white, with form field appearances, in `format`. Undefined when
   * PDFium cannot load the page. `region` may be a function of the page's size as displayed (its
   * /Rotate applied, in points), answering undefined to draw nothing: the page is loaded (and its content
   * parsed) once for both.
   */
  async render(n: number, region: RasterRegion | RegionOf, format: PixelFormat, bandPixels = BAND_PIXELS): Promise<Raster | undefined> {
    this.checkUsable();
    try {
      return await this.drawRegion(n, region, format, bandPixels);
    } catch (e) {
      throw this.failed(e);
    }
  }

  private async drawRegion(n: number, regionOf: RasterRegion | RegionOf, format: PixelFormat, bandPixels: number): Promise<Raster | undefined> {
    const { m } = this;
    const page = m.FPDF_LoadPage(this.doc, n - 1);
    if (!page) return undefined;
    if (this.form) m.FORM_OnAfterLoadPage(page, this.form);
    this.rendering++;
    try {
      const region = typeof regionOf === 'function'
        ? regionOf({ width: m.FPDF_GetPageWidthF(page), height: m.FPDF_GetPageHeightF(page) })
        : regionOf;
      if (!region) return undefined;
      const { bitmap: bitmapFormat, channels, flags: formatFlags } = FORMATS[format];
      const rowBytes = region.w * channels;
      const buffer = Buffer.allocUnsafeSlow(region.h * rowBytes); // not zeroed (~5 ms for a page): every byte is written below
      const out = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      const bandRows = Math.max(1, Math.floor(bandPixels / region.w));
      for (let top = 0; top < region.h; top += bandRows) {
        if (top > 0) await new Promise((resolve) => setImmediate(resolve));
        const rows = Math.min(bandRows, region.h - top);
        const bitmap = m.FPDFBitmap_CreateEx(region.w, rows, bitmapFormat, 0, 0);
        if (!bitmap) throw new Error(`PDFium could not allocate a ${region.w}×${rows} bitmap`);
        try {
          m.FPDFBitmap_FillRect(bitmap, 0, 0, region.w, rows, WHITE);
          // the page is placed so that the band's top-left pixel lands at the bitmap's origin
          const flags = FPDF_ANNOT | formatFlags;
          m.FPDF_RenderPageBitmap(bitmap, page, -region.x, -(region.y + top), region.fullWidth, region.fullHeight, 0, flags);
          if (this.form) m.FPDF_FFLDraw(this.form, bitmap, page, -region.x, -(region.y + top), region.fullWidth, region.fullHeight, 0, flags);
          const stride = m.FPDFBitmap_GetStride(bitmap);
          const pixels = m.FPDFBitmap_GetBuffer(bitmap);
          const heap = heapOf(m); // read after the calls: a grown memory replaces the view
          if (stride === rowBytes) out.set(heap.subarray(pixels, pixels + rows * rowBytes), top * rowBytes);
          else for (let r = 0; r < rows; r++) out.set(heap.subarray(pixels + r * stride, pixels + r * stride + rowBytes), (top + r) * rowBytes);
        } finally {
          m.FPDFBitmap_Destroy(bitmap);
        }
      }
      return { data: out, width: region.w, height: region.h, channels };
    } finally {
      if (this.form) m.FORM_OnBeforeClosePage(page, this.form);
      m.FPDF_ClosePage(page);
      if (--this.rendering === 0 && this.closed) this.release();
    }
  }

  /** Frees the document; one still rendering (between bands) is freed when that render ends. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.rendering === 0) this.release();
  }

  private release(): void {
    if (this.broken) return; // its module is let go as a whole
    if (this.form) this.m.PDFiumExt_ExitFormFillEnvironment(this.form);
    if (this.formInfo) this.m.PDFiumExt_CloseFormFillInfo(this.formInfo);
    this.m.FPDF_CloseDocument(this.doc);
    this.m.pdfium.wasmExports.free(this.bytesPtr);
  }

  private checkUsable(): void {
    if (this.closed) throw new Error('The PDFium document is closed');
    if (this.broken) throw new Error('PDFium failed on this document earlier');
  }

  /** A call into PDFium threw: this document and its module are not used again. */
  private failed(e: unknown): Error {
    this.broken = true;
    discardModule(this.m);
    return new Error(`PDFium failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** PDFium answered that it cannot do what was asked (its state is intact), as opposed to failing inside. */
class Refusal extends Error {}

const FPDF_REMOVE_SECURITY = 3; // FPDF_SaveAsCopy's flag (fpdf_save.h): write the document decrypted

/**
 * A decrypted copy of an encrypted PDF that opens without a password (an empty user password: readers
 * open it without asking, the owner password only restricts editing). Undefined when the file is not
 * encrypted; throws when PDFium cannot open it (a user password is needed, or the file is damaged).
 * pdf-lib, which writes Quire's form fills, cannot read encrypted files; PDFium decrypts them on save.
 */
export async function decryptedCopy(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const m = await loadPdfium();
  const P = m.pdfium;
  const ptr = P.wasmExports.malloc(Math.max(1, bytes.length));
  if (!ptr) throw new Error('PDFium could not allocate memory for the document');
  let doc = 0, writer = 0, trapped = false;
  try {
    heapOf(m).set(bytes, ptr);
    doc = m.FPDF_LoadMemDocument(ptr, bytes.length, '');
    if (!doc) throw new Refusal(`PDFium could not open the document (error ${m.FPDF_GetLastError()})`);
    if (m.FPDF_GetSecurityHandlerRevision(doc) < 0) return undefined;
    writer = m.PDFiumExt_OpenFileWriter();
    if (!writer || !m.FPDF_SaveAsCopy(doc, writer, FPDF_REMOVE_SECURITY)) throw new Refusal('PDFium could not write a decrypted copy');
    const size = m.PDFiumExt_GetFileWriterSize(writer);
    const out = P.wasmExports.malloc(Math.max(1, size));
    if (!out) throw new Refusal('PDFium could not allocate memory for the copy');
    try {
      m.PDFiumExt_GetFileWriterData(writer, out, size);
      return heapOf(m).slice(out, out + size);
    } finally {
      P.wasmExports.free(out);
    }
  } catch (e) {
    // anything else is a failure inside PDFium (a trap), which leaves the module's memory in an unknown
    // state: it is let go as a whole, nothing freed in it
    trapped = !(e instanceof Refusal);
    if (trapped) discardModule(m);
    throw e;
  } finally {
    if (!trapped) {
      if (writer) m.PDFiumExt_CloseFileWriter(writer);
      if (doc) m.FPDF_CloseDocument(doc);
      P.wasmExports.free(ptr);
    }
  }
}

/** Bytes of WebAssembly memory PDFium holds in this isolate (0 before its first use): it only grows. */
export async function pdfiumMemoryBytes(): Promise<number> {
  return loading ? heapOf(await loading).length : 0;
}
