/**
 * QUIRE_OCR_ENGINE=auto: which reader reads a page first, from evidence that costs a few milliseconds
 * (the page's grey levels and the analysis recognizePage makes anyway).
 *
 * tesseract reads a flat, clean scan of ordinary-size print about as well as PP-OCR at a fraction of its
 * cost (a 300 DPI A4 page of 10 pt text: ~4 CPU s against ~13, almost all of PP-OCR's in its recognizer,
 * which reads each 1700–2300 px wide line crop whole). PP-OCR reads photos, unevenly lit or low-contrast
 * pages and small or noisy print much better. So a page that looks like a flat scan of text large enough for
 * tesseract is read by tesseract first, and its reading is kept when tesseract is sure of it; everything else,
 * and a flat page tesseract is unsure of, is read by PP-OCR as before.
 */
import type { GreyImage } from './analysis.js';

export interface PageEvidence {
  /** A sheet photographed on a darker surface (findPaper cropped it). */
  sheetOnSurface: boolean;
  /**
   * How unevenly the paper is lit: over a grid of cells, the spread (grey levels, between the 3rd lowest
   * and the 3rd highest cell) of each cell's paper level (its 90th percentile). A scanner lights the sheet
   * evenly; a photo's light falls off, and shadows lie across it.
   */
  paperSpread: number;
  /**
   * How soft the ink is: the share of the non-paper pixels (grey < 192 after decodeGrey's contrast stretch)
   * that are mid-grey (64–191) rather than dark. On a crisp scan the grey lies only along the glyphs'
   * edges (0–0.45 on the corpus's flat scans, 0.25 on 11 pt text drawn at 300 DPI); blur, shading, faint or
   * thermal print and textured paper push it up (0.52 for that text blurred by σ 2.5 px, 0.75–0.86 on
   * photographed receipts).
   */
  edgeShare: number;
  /** Text row height (ascender to descender) in the page's pixels, or null when no line structure was found. */
  rowPx: number | null;
}

const GRID = 8;

/** The page's evidence, on the decoded (contrast-stretched) grey image of the sheet. */
export function pageEvidence(grey: GreyImage, sheetOnSurface: boolean, rowPx: number | null): PageEvidence {
  const { width: W, height: H, data } = grey;
  let mid = 0, dark = 0;
  for (let i = 0; i < data.length; i++) { const v = data[i]; if (v < 64) dark++; else if (v < 192) mid++; }
  const levels: number[] = [];
  const hist = new Uint32Array(256);
  for (let cy = 0; cy < GRID; cy++) {
    for (let cx = 0; cx < GRID; cx++) {
      hist.fill(0);
      const y0 = Math.floor((cy * H) / GRID), y1 = Math.floor(((cy + 1) * H) / GRID);
      const x0 = Math.floor((cx * W) / GRID), x1 = Math.floor(((cx + 1) * W) / GRID);
      // every other pixel of every other row: the paper level needs no more
      for (let y = y0; y < y1; y += 2) for (let x = x0; x < x1; x += 2) hist[data[y * W + x]]++;
      const n = hist.reduce((s, c) => s + c, 0);
      if (n === 0) continue;
      let acc = 0, v = 0;
      for (; v < 255; v++) { acc += hist[v]; if (acc > n * 0.9) break; }
      levels.push(v);
    }
  }
  levels.sort((a, b) => a - b);
  const k = Math.min(2, Math.floor((levels.length - 1) / 2));
  return {
    sheetOnSurface,
    paperSpread: levels.length ? levels[levels.length - 1 - k] - levels[k] : 0,
    edgeShare: mid + dark ? mid / (mid + dark) : 0,
    rowPx,
  };
}

/** Paper levels within this spread are a scanner's even light. */
export const FLAT_PAPER_SPREAD = 16;
/** Ink at most this soft is a crisp scan's. */
export const CRISP_EDGE_SHARE = 0.5;
/**
 * Text rows under this height (px) are too small for tesseract: recognizePage enlarges them before
 * tesseract reads them (see its TESSERACT_ROWS), which costs tesseract more and reads worse than PP-OCR.
 */
export const SMALL_ROW_PX = 38;
/** tesseract's own size range: from SMALL_ROW_PX to 160 px (larger is shrunk: posters, or a row height the analysis got wrong). */
const TESSERACT_ROW_MIN = SMALL_ROW_PX, TESSERACT_ROW_MAX = 160;

/** Whether a page looks like a flat, clean scan of print tesseract reads at its own size. */
export function looksLikeFlatScan(e: PageEvidence): boolean {
  return !e.sheetOnSurface && e.paperSpread <= FLAT_PAPER_SPREAD && e.edgeShare <= CRISP_EDGE_SHARE
    && e.rowPx !== null && e.rowPx >= TESSERACT_ROW_MIN && e.rowPx <= TESSERACT_ROW_MAX;
}

/**
 * On a flat scan, tesseract's reading is kept when its mean confidence (per letter, `readability`) is at
 * least this: clean print reads above 90, a noisy or degraded scan lower, and there PP-OCR reads better.
 */
export const TESSERACT_KEEPS_FROM = 90;
