import type { Box } from './geometry.js';

/**
 * Quire's document model: what every reader (pdf, image, docx, pptx, xlsx, html) produces and what
 * render, tables, schema, split and forms consume. Elements are in reading order within a page.
 * Ids (txt-N, tbl-N, fig-N) are assigned by assignIds() once the element order is final.
 */

/** The spec's text-like categories (bounding_boxes keys). */
export type TextCategory =
  | 'Title' | 'Header' | 'Text' | 'List Items' | 'Footer' | 'caption' | 'Page Number' | 'Formulas';

export interface SpreadsheetAnchor {
  sheetName: string;
  /** Index among visible sheets (0-based, after hidden-sheet filtering). */
  sheetIndex: number;
  /** Index in the workbook (0-based, hidden sheets counted). */
  workbookSheetIndex: number;
  /** A1-style anchor cell or range, e.g. "B2:F20". */
  excelRange?: string;
}

export interface TextElement {
  kind: 'text';
  id?: string;
  category: TextCategory;
  /** Text without the markdown prefix. */
  text: string;
  /** Heading level 1..6 for Title/Header (Title is normally 1). */
  level?: number;
  /** List nesting depth (0 = top level) and marker ("-", "1.", "a)") for List Items. */
  listDepth?: number;
  listMarker?: string;
  /** True when the list marker is an ordinal. */
  ordered?: boolean;
  box: Box | null;
  page: number;
  /** Average word confidence 0..1. */
  confidence: number;
  /** detect_selections: the element is a control or a marked choice. */
  selected?: boolean;
  /** Id of the figure or table this caption describes (caption elements). */
  captionFor?: string;
  /** Hyperlink targets inside the text (docx/html). */
  links?: { text: string; href: string }[];
  spreadsheet?: SpreadsheetAnchor;
  /** Per-element extras that the spec lets us add (e.g. slide notes flag). */
  extra?: Record<string, unknown>;
}

export interface TableCell {
  id?: string;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
  box: Box | null;
  isHeader: boolean;
  confidence: number | null;
}

export interface TableElement {
  kind: 'table';
  id?: string;
  page: number;
  box: Box | null;
  /** Dimensions after span expansion. */
  rows: number;
  cols: number;
  /** Every cell, empty ones included; a spanning cell appears once at its top-left position. */
  cells: TableCell[];
  confidence: number | null;
  /** Number of leading header rows (column headers), and leading stub columns (row headers). */
  headerRows: number;
  headerCols?: number;
  spreadsheet?: SpreadsheetAnchor;
  extra?: Record<string, unknown>;
}

export interface ChartSeries {
  name: string;
  categories: (string | number)[];
  values: (number | null)[];
  /** Scatter/bubble charts: numeric x values instead of categories. */
  xValues?: (number | null)[];
  /** Bubble charts: bubble sizes. */
  bubbleSizes?: (number | null)[];
  /** Plot this series belongs to (chart class, e.g. "column", "line"): tells combo charts apart. */
  plotType?: string;
  /** Cell formulas feeding the series (office charts), e.g. "Sheet1!$B$2:$B$5". */
  refs?: { name?: string; categories?: string; values?: string; bubbleSizes?: string };
  /** Charts read from a PDF drawing: the page box (normalized) of each point's mark, null for a missing point. */
  markBoxes?: (Box | null)[];
  /** Charts read from a PDF drawing: true where a value lies between ticks (read off the scale, not printed). */
  interpolated?: boolean[];
}

/** How a chart drawn in a PDF was read (absent for office charts, whose series are stored). */
export interface DrawnChartReading {
  /** 0..1: how sure the recogniser is that this is a chart of this type. */
  confidence: number;
  /** linear / log value axis from its tick labels; share: pie angles as percent of the whole. */
  valueScale: 'linear' | 'log' | 'share';
  /** Largest error of a value, in value units: the tick fit's residual plus the drawing's coordinate precision. */
  uncertainty: number;
  /** Plain-language account of how the values were read and what is estimated. */
  note: string;
}

export interface ChartData {
  chartType: string;
  title?: string;
  series: ChartSeries[];
  sourceRanges: string[];
  axes?: { x?: { title?: string }; y?: { title?: string } };
  drawn?: DrawnChartReading;
}

export interface FigureElement {
  kind: 'figure';
  id?: string;
  page: number;
  box: Box | null;
  visualType: 'chart' | 'image';
  /** Text found inside the figure (labels, legend) in reading order. */
  text: string;
  /** Caption text when one is tied to the figure. */
  caption?: string;
  /** Image bytes for show_images (office/html embedded pictures); PDF figures are cropped from a render. */
  image?: { bytes: Uint8Array; mime: string };
  chart?: ChartData;
  spreadsheet?: SpreadsheetAnchor;
  /** Why the chart/image classifier decided what it did, for transparency. */
  classification?: { confidence: number; model: string; error?: string };
  extra?: Record<string, unknown>;
}

export type Element = TextElement | TableElement | FigureElement;

export interface Word {
  text: string;
  box: Box;
  confidence: number;
}

export interface SelectionMark {
  box: Box;
  state: 'selected' | 'unselected';
  confidence: number;
}

export interface Page {
  /** 1-indexed page (slide, sheet) number in the original document. */
  number: number;
  /** Size in points; 0 when the format has no fixed pages (docx, html, xlsx). */
  width: number;
  height: number;
  elements: Element[];
  words: Word[];
  selectionMarks: SelectionMark[];
  spreadsheet?: SpreadsheetAnchor;
  /** Set when reading this page failed; its elements are then empty and the error is reported (PROC_005). */
  error?: { code: string; message: string };
  /** Free-form page extras (speaker notes, OCR rotation applied, …). */
  extra?: Record<string, unknown>;
}

export interface FootnoteReference {
  symbol: string;
  /** Id of the footnote's own text element. */
  footnoteTextId: string;
  /** Ids of the elements that reference the footnote. */
  referenceTextIds: string[];
}

export type SourceFormat = 'pdf' | 'png' | 'jpeg' | 'tiff' | 'docx' | 'pptx' | 'xlsx' | 'html';

export interface Document {
  format: SourceFormat;
  /** Pages in the source, whether or not all were processed. */
  pageCount: number;
  /** The processed pages, in page order. */
  pages: Page[];
  title?: string;
  footnotes?: FootnoteReference[];
  /** Non-fatal notes about the conversion (limits applied, features approximated). */
  warnings: string[];
  /** HTML read in main-content mode: how the article was found and what was left out. */
  contentSelection?: ContentSelection;
  /**
   * The structured invoice the file carries (a Factur-X / ZUGFeRD / XRechnung XML attached to a PDF),
   * as its issuer stated it: schema extraction answers invoice fields from it before reading the page.
   */
  embeddedInvoice?: EmbeddedInvoice;
}

/** One item line of an embedded invoice. */
export interface EmbeddedInvoiceLine {
  description: string | null;
  quantity: number | null;
  /** Net price (after price discounts) as stated, for the line's price base quantity (usually one unit). */
  unitPrice: number | null;
  /** Net line amount. */
  amount: number | null;
}

/**
 * The common invoice fields of an e-invoice XML (EN 16931 terms in brackets). Dates are ISO
 * (YYYY-MM-DD); amounts in the invoice currency; a field the XML does not state is null.
 */
export interface EmbeddedInvoice {
  /** Where it came from: the attachment's name and the XML's syntax and profile (guideline id). */
  source: { file: string; syntax: 'CII' | 'ZUGFeRD 1.0' | 'UBL'; profile: string | null };
  /** Invoice number (BT-1). */
  number: string | null;
  /** Issue date (BT-2). */
  issueDate: string | null;
  /** Payment due date (BT-9). */
  dueDate: string | null;
  /** Seller's name (BT-27). */
  seller: string | null;
  /** Buyer's name (BT-44). */
  buyer: string | null;
  /** Invoice currency (BT-5). */
  currency: string | null;
  /** Total with tax (BT-112). */
  grandTotal: number | null;
  /** Amount due for payment (BT-115). */
  duePayable: number | null;
  /** Total without tax (BT-109). */
  taxBasisTotal: number | null;
  /** Total tax in the invoice currency (BT-110). */
  taxTotal: number | null;
  lines: EmbeddedInvoiceLine[];
}

/** What HTML main-content mode kept and left out (blocks as the reader would have emitted them). */
export interface ContentSelection {
  /** main: the page's <main>; article: its one <article>; scored: the block its paragraphs score highest for. */
  mode: 'main' | 'article' | 'scored';
  keptBlocks: number;
  droppedBlocks: number;
  droppedWords: number;
}
