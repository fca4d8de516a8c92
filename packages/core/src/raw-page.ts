import type { Box } from './geometry.js';

/**
 * What a page-based reader (PDF text layer, OCR of a raster) hands to layout analysis: positioned
 * words, vector strokes and fills, image placements and form widgets. Coordinates are normalized
 * 0..1 from the top-left of the page as displayed (after /Rotate), so layout never sees PDF units.
 */
export interface RawWord {
  text: string;
  box: Box;
  /** Font size in points (for OCR: the line height in points at the page's size). */
  fontSize: number;
  fontName?: string;
  bold?: boolean;
  italic?: boolean;
  /** 0..1; 1 for text layers, tesseract's confidence / 100 for OCR. */
  confidence: number;
  /**
   * Text direction of the run on the displayed page; vertical/rotated runs are kept but laid out
   * separately. 'inverted': text turned half a turn (it runs right to left, upside down).
   */
  direction?: 'ltr' | 'rtl' | 'ttb' | 'btt' | 'inverted';
  /** True when this word ends the text run it came from (a hint for line building). */
  endOfRun?: boolean;
}

/** A straight stroke segment (horizontal or vertical) in normalized coordinates; the ruling-line input of table detection. */
export interface RawSegment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Stroke width normalized by the page's larger dimension. */
  width: number;
}

/** A filled rectangle (cell backgrounds, thick rules drawn as fills, checkbox squares). */
export interface RawRect {
  box: Box;
  filled: boolean;
  stroked: boolean;
  /** Fill colour as [r,g,b] 0..1 when known. */
  fill?: [number, number, number];
}

/**
 * A painted path other than an axis-aligned rectangle (polylines, pie sectors, markers, diagonal strokes),
 * kept with its paint so chart recognition can read plotted marks and match them to legend swatches.
 */
export interface RawPath {
  /** One flat [x0, y0, x1, y1, …] vertex list per subpath, normalized; a curve contributes its end point. */
  subpaths: number[][];
  /** Per subpath: closed (h) or ending where it started. */
  closed: boolean[];
  filled: boolean;
  stroked: boolean;
  /** Any subpath holds a Bézier curve (arcs of pie sectors, round markers). */
  curved: boolean;
  /** Paint colours as [r,g,b] 0..1 when known. */
  fill?: [number, number, number];
  stroke?: [number, number, number];
  /** Painted with a shading (a gradient, `sh` inside a clip): `fill` is then the mean of its stops, no single paint. */
  shading?: boolean;
}

export interface RawImage {
  box: Box;
  /** raster: an image XObject / inline image; vector: a cluster of paths dense enough to be a drawing. */
  kind: 'raster' | 'vector';
  /** Number of path segments inside (vector drawings), used by the chart classifier. */
  pathCount?: number;
}

export interface RawWidget {
  /** AcroForm field type as read from the PDF. */
  fieldType: 'text' | 'checkbox' | 'radio' | 'button' | 'choice' | 'signature';
  name: string;
  box: Box;
  value?: string;
  checked?: boolean;
}

export interface RawPage {
  /** 1-indexed page number in the original document. */
  number: number;
  /** Size in points as displayed (after rotation). */
  width: number;
  height: number;
  words: RawWord[];
  segments: RawSegment[];
  rects: RawRect[];
  /** Painted non-rectangular paths (PDF text layers only; absent elsewhere). */
  paths?: RawPath[];
  images: RawImage[];
  widgets: RawWidget[];
  /** How the words were obtained. */
  source: 'text-layer' | 'ocr';
  /** Degrees the scan was rotated to read upright (OCR only). */
  correctedRotation?: number;
  /**
   * OCR only: the slight clockwise turn (degrees, beyond the quarter turn of `correctedRotation`) that made
   * a skewed scan's lines level. Boxes stay on the page as sent; layout works on the page levelled.
   */
  correctedSkew?: number;
  /** Set when the page could not be read; the page is still emitted (with no content) so the rest survives. */
  error?: { code: string; message: string };
  /**
   * Set by OCR when it read no word: 'blank' when the page shows no ink worth reading, 'unread' when it
   * shows ink but no word could be read (a picture, a script the model cannot read, a very poor scan).
   * Readers turn it into a warning (emptyPageWarning), so an empty result always says why.
   */
  ocrEmpty?: 'blank' | 'unread';
  /**
   * Set by OCR: the engine that read the page ('wasm', 'native', 'onnx', or two joined by '+' when the page
   * was read with both and merged line by line), the mean word confidence (0..1) and the seconds it took.
   */
  ocr?: { engine: string; meanConfidence: number; seconds: number };
}

/** The warning for a page OCR read no word on, or undefined when it read some. */
export function emptyPageWarning(page: Pick<RawPage, 'number' | 'ocrEmpty'>): string | undefined {
  if (page.ocrEmpty === 'blank') return `Page ${page.number}: the page is blank (no ink found, and OCR read no text)`;
  if (page.ocrEmpty === 'unread') return `Page ${page.number}: the page shows ink but OCR read no text on it`;
  return undefined;
}

/** Entry of a PDF outline (bookmarks), used for heading levels. */
export interface OutlineEntry {
  title: string;
  level: number;
  page?: number;
}
