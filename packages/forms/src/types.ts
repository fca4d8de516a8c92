import type { RawRect, RawSegment, RawWord, Box, OcrEngine } from '@quire/core';

/** The spec's checkbox_details entry. */
export interface CheckboxDetail {
  /** Centre of the box, normalized 0..1 from the top-left. */
  center_coord: [number, number];
  selected: boolean;
  /** Label of the box (the option). */
  text: string;
}

/** Where a cell came from: a live AcroForm field (and which of its widgets), or the page drawing. */
export type CellSource =
  | { kind: 'acroform'; fieldName: string; widgetIndex?: number; fieldType: 'text' | 'checkbox' | 'radio' | 'choice' | 'signature'; exportValues?: string[] }
  | { kind: 'drawn'; shape: 'box' | 'underline' | 'underscores' | 'comb' | 'grid' | 'leader' | 'square' | 'glyph' | 'circle'; boxes?: [number, number, number, number][] };

/**
 * A detected form cell: the spec's FormCell fields plus the internal fields fill/clear need.
 * `toSpecFormCells` strips everything that is not in the spec's shape.
 */
export interface DetectedCell {
  page_number: number;
  type: 'text' | 'checkbox' | 'signature';
  /** [left, top, right, bottom] normalized 0..1 from the top-left of the displayed page. */
  bounding_box: [number, number, number, number];
  text: string;
  row?: number;
  col?: number;
  table_idx?: number;
  checkbox_details?: CheckboxDetail[];
  /** The printed or declared label of the cell (tooltip, nearest text, or prettified field name). */
  label: string;
  /**
   * The label's sources, apart (AcroForm fields): the printed text nearest the field, the tooltip (/TU)
   * and the prettified field name. Instructions match the printed label first (it is what people read).
   * `section`: the heading of the part of the form the field stands under ("Spouse"), printed larger
   * than the text around it, which tells apart fields printed with the same label in two parts.
   */
  labels?: { printed?: string; tooltip?: string; name?: string; section?: string };
  /** Choice-field options (dropdown/list mapped to type text), or the option labels of a checkbox cell. */
  options?: string[];
  source: CellSource;
  maxLength?: number;
  comb?: boolean;
  multiline?: boolean;
  /** Total page rotation in which the cell's text reads upright, when it differs from the displayed page's (sideways text). */
  readingRotation?: number;
  /** Date pattern declared by the field (AFDate format) or printed near it, e.g. "MM/DD/YYYY". */
  datePattern?: string;
  /**
   * Cells of a scanned page: what the scan's own pixels showed in the cell when it was OCR'd (text
   * read there, which boxes were ticked), apart from Quire's overlays. Fill and clear re-read a scanned
   * cell's value from this plus the overlays then on the page, without OCR-ing the page again.
   */
  scan?: { text: string; selected?: boolean[] };
}

/** One overlay Quire drew on a flat PDF; what clear needs to remove exactly that drawing. */
export interface OverlayRecord {
  page_number: number;
  /** Index of the cell in the cells array passed to fill. */
  cellIndex: number;
  bounding_box: [number, number, number, number];
  /** Name of the Form XObject in the page's /Resources /XObject dictionary (QuireOverlayN). */
  xobject: string;
  value: string;
}

/** A word; `fill` marks text known to be a filled-in value (inside /Tx or Quire's own marked content). */
export type GeoWord = RawWord & { fill?: boolean };

/**
 * A page's words and drawing in normalized coordinates (the same shapes as core's RawPage), so that
 * a raster path (OCR words + detected lines) can stand in for pdf.js on scanned pages.
 */
export interface PageGeometry {
  /** Page size in points as displayed. */
  width: number;
  height: number;
  words: GeoWord[];
  /** Shapes flagged `fillIn` were drawn inside /QuireFill or /Tx marked content (Quire's check marks, a field's drawing), not by the template. */
  segments: (RawSegment & { fillIn?: boolean })[];
  rects: (RawRect & { fillIn?: boolean })[];
  /** Bounding boxes of other painted marks (curves, diagonal strokes): checkmarks, circles. */
  marks?: { box: Box; closedCurve?: boolean; filled?: boolean; fillIn?: boolean; /** a filled piece of an outline (its area a small part of its box): one side of a bevelled frame */ hollow?: boolean; /** drawn with curves */ curved?: boolean }[];
  /**
   * Clockwise quarter turn from the displayed page to this geometry's frame (an OCR'd sideways scan
   * turned upright); cells found in it are mapped back to the displayed page.
   */
  turn?: 0 | 90 | 180 | 270;
}

export interface DetectOptions {
  /** 1-indexed pages to detect on; all when absent. */
  pages?: number[];
  /** Geometry supplied from outside (e.g. OCR + raster line detection) for pages that have no usable text layer. */
  geometry?: Record<number, PageGeometry>;
  /**
   * OCR engine for image-only (scanned) pages without outside geometry: they are rendered, OCR'd and
   * their ruling lines and checkbox squares found in the raster. Without it such pages yield no cells.
   */
  ocr?: OcrEngine;
  /**
   * Drawn cells already known on scanned pages (an earlier detection with OCR, with `scan` values, or
   * cells a caller drew). A scanned page with no OCR engine given yields these cells, their values
   * read from `scan` plus Quire's overlays now on the page (how fill and clear re-read scans).
   */
  knownCells?: DetectedCell[];
  /**
   * Also look for drawn cells on the pages without widgets of a fillable form (off by default: those
   * pages are usually instructions, and their rules and leaders are not fields).
   */
  drawnCellsBesideFields?: boolean;
}

export interface DetectResult {
  cells: DetectedCell[];
  pageCount: number;
  /** Pages that look scanned (image only, no text and no drawing); their cells come from OCR when an engine was given. */
  scannedPages: number[];
  warnings: string[];
}

export interface FillAssignment {
  cellIndex: number;
  value: string;
}

export interface UnappliedAssignment {
  cellIndex: number;
  value: string;
  reason: string;
}

export interface FillOptions {
  /** A TTF/OTF covering the text to write; defaults to Liberation Sans (shipped with pdfjs-dist) when the text is not WinAnsi. */
  fontBytes?: Uint8Array;
  /** Overlays drawn by earlier fills on this PDF (the form_id lineage), so re-filling a cell replaces Quire's own drawing. */
  overlays?: OverlayRecord[];
}

export interface FillResult {
  pdf: Uint8Array;
  cells: DetectedCell[];
  filled: number;
  /** All Quire overlays now on the PDF (earlier ones still present plus the new ones). */
  overlays: OverlayRecord[];
  unapplied: UnappliedAssignment[];
}

export interface ClearLineage {
  overlays?: OverlayRecord[];
}

export interface ClearResult {
  pdf: Uint8Array;
  cells: DetectedCell[];
  cleared: number;
  warnings: string[];
}
