import type { StopCheck } from './interrupt.js';
import type { Document } from './document.js';
import type { RawPage } from './raw-page.js';

/**
 * Limits every reader enforces before work eats memory, with these safe defaults. Job handlers pass the
 * process's settings (QUIRE_LIMIT_PAGES, QUIRE_LIMIT_PIXELS, QUIRE_LIMIT_PAGE_CONTENT_MB); the others are
 * fixed here. Readers throw QuireError FILE_003 (corrupt/bomb) or REQ_003 (over a limit).
 */
export interface ParseLimits {
  maxPages: number;
  /** Largest page side in points (absurd MediaBoxes are refused). */
  maxPageSidePt: number;
  /** Largest raster (width × height) a page may be rendered or decoded to. */
  maxPixels: number;
  /** PDF: most bytes one page's content streams may decode to (flate bombs; pdf.js and PDFium hold them whole). */
  maxPageContentBytes: number;
  /** Zip containers (OOXML). */
  maxZipEntries: number;
  maxUncompressedBytes: number;
  maxCompressionRatio: number;
  /** XML nesting depth. */
  maxXmlDepth: number;
  /** Spreadsheets: most cells read per sheet. */
  maxCellsPerSheet: number;
}

export const DEFAULT_LIMITS: ParseLimits = {
  maxPages: 5000,
  maxPageSidePt: 14_400, // 200 inches, the PDF spec's own user-unit limit
  maxPixels: 120_000_000,
  maxPageContentBytes: 256 * 1024 * 1024,
  maxZipEntries: 10_000,
  maxUncompressedBytes: 1024 * 1024 * 1024,
  maxCompressionRatio: 200,
  maxXmlDepth: 256,
  maxCellsPerSheet: 5_000_000,
};

/** OCR port as the pure readers see it (implemented in @quire/ocr). */
export interface OcrEngine {
  /** Recognizes one page image (PNG/JPEG bytes) and returns a RawPage of words (normalized boxes). */
  recognize(image: Uint8Array, page: { number: number; widthPt: number; heightPt: number }): Promise<RawPage>;
}

export interface ParseOptions {
  /** 1-indexed original pages to process; all when absent. */
  pages?: number[];
  detectSelections?: boolean;
  limits?: Partial<ParseLimits>;
  /**
   * Called after each page. Used for progress and as the cancellation point: when it throws, the
   * reader stops and the error propagates.
   */
  onPage?: (done: number, total: number) => void | Promise<void>;
  /**
   * Throws when the work must stop (its job was canceled or timed out), at once, even inside synchronous
   * work on a busy thread (see interrupt.ts). Readers call it in long loops; onPage is the page-level point.
   */
  throwIfStopped?: StopCheck;
  /** OCR for pages without a usable text layer, and for images. Without it such pages come back empty with a warning. */
  ocr?: OcrEngine;
  /**
   * HTML: keep the page's main content (the article) and leave out navigation and page chrome, as
   * Readability does. Absent: on for full web pages (navigation, header, footer or sidebar landmarks,
   * or several link-list blocks), off for plain documents.
   */
  htmlMainContent?: boolean;
  /**
   * PDF: OCR of large raster images on pages that have a text layer (text inside a logo, a table pasted
   * as a picture), within pixel budgets. Absent: on (with OCR) at the default budgets; false: off.
   */
  embeddedImageOcr?: false | { maxPixelsPerPage?: number; maxPixelsPerDocument?: number };
  /** HTML: fetch remote images (through the caller's SSRF-guarded fetcher). Off by default. */
  fetchRemote?: (url: string) => Promise<{ bytes: Uint8Array; mime: string } | null>;
}

/** The shape every reader package exports as `parse`. */
export type DocumentParser = (bytes: Uint8Array, options?: ParseOptions) => Promise<Document>;

export const resolveLimits = (o?: ParseOptions): ParseLimits => ({ ...DEFAULT_LIMITS, ...(o?.limits ?? {}) });
