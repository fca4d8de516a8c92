import type { ContentSelection, EmbeddedInvoice, FigureElement, FootnoteReference, Polygon, LazyJsonArray } from '@quire/core';

/** The spec's "Extraction layout" shapes, as emitted on the wire. */

export interface TextBox {
  id: string;
  content: string;
  original_content: string;
  bounding_box: Polygon | null;
  page_number: number;
  average_word_confidence: number;
  selected?: boolean;
}

export interface CellData {
  id: string;
  position: { row: number; column: number };
  text: string;
  location: { coordinates: Polygon | null; page: number };
  confidence: number | null;
  properties?: { type: 'header'; spans_rows?: number; spans_columns?: number } | { spans_rows?: number; spans_columns?: number };
}

export interface TableBox {
  table_info: {
    id: string;
    dimensions: { rows: number; columns: number };
    location: { coordinates: Polygon | null; page: number };
    confidence: number | null;
  };
  cell_data: CellData[];
}

export interface ImageBox {
  id: string;
  visual_type: 'chart' | 'image';
  page_number: number;
  /** Polygon; [] when the figure has no geometry (spreadsheets, docx, html). */
  bounding_box: Polygon | [];
  image_url?: string;
  description?: string;
  description_error?: string;
  render_error?: string;
  content?: string;
  sheet_name?: string;
  sheet_index?: number;
  workbook_sheet_index?: number;
  excel_range?: string;
  chart_type?: string;
  chart_title?: string;
  source_ranges?: string[];
  classification?: FigureElement['classification'];
}

export interface WordBox {
  content: string;
  page_number: number;
  confidence: number;
  bounding_box: { x: number; y: number }[];
}

export interface SelectionMarkBox {
  page_number: number;
  state: 'selected' | 'unselected';
  confidence: number;
  polygon: Polygon;
}

export interface BoundingBoxes {
  Title?: TextBox[];
  Header?: TextBox[];
  Text?: TextBox[];
  'List Items'?: TextBox[];
  Footer?: TextBox[];
  caption?: TextBox[];
  'Page Number'?: TextBox[];
  Formulas?: TextBox[];
  Tables?: TableBox[];
  Images?: ImageBox[];
  /** Objects, or (with RenderOptions.wordsAsJson) the same array written as JSON text when the result is serialized. */
  Words?: WordBox[] | LazyJsonArray<WordBox>;
  SelectionMarks?: SelectionMarkBox[];
  markdown_with_ids: string;
}

/** The chunking strategies (extensions.chunking.chunk_types). */
export type ChunkType = 'semantic' | 'header' | 'page' | 'recursive';

/** Where one element of a chunk sits: a citation from the chunk leads back to the page and region. */
export interface ChunkBox {
  element_id: string;
  page_number: number;
  bounding_box: Polygon;
}

export interface Chunk {
  chunk_id: string;
  /** Markdown of the chunk (clean, no ids). */
  content: string;
  element_ids: string[];
  page_numbers: number[];
  /** The boxes of the chunk's elements that have geometry (spreadsheet, docx and html elements have none). */
  boxes: ChunkBox[];
  /** Which strategy made the chunk; present when extensions.chunking.chunk_types was given. */
  chunk_type?: ChunkType;
  /** header chunks: the headings above and including the section's own, outermost first ([] before the first heading). */
  heading_path?: string[];
}

/** One OCR-read page: the engine that read it ('wasm', 'native', 'onnx', or 'wasm+onnx' when merged line by line), its mean word confidence (0..1) and seconds. */
export interface OcrPageReport {
  page_number: number;
  engine: string;
  mean_confidence: number;
  seconds: number;
}

export interface Extensions {
  footnoteReferences?: FootnoteReference[];
  /** HTML read in main-content mode (html_main_content): how the article was found, blocks and words left out. */
  mainContent?: ContentSelection;
  /** Present when OCR read any page. */
  ocr?: { pages: OcrPageReport[] };
  /**
   * The invoice data the file carries as a structured attachment (a Factur-X / ZUGFeRD / XRechnung XML in
   * a PDF), as its issuer stated it; /schema answers invoice fields from it.
   */
  embeddedInvoice?: EmbeddedInvoice;
}

export interface ExtractionOutput {
  page_count: number;
  markdown: string;
  markdown_with_ids: string;
  bounding_boxes: BoundingBoxes;
  extensions: Extensions;
  chunks: Chunk[];
  html?: string;
}

export interface RenderOptions {
  /** Set when show_images; the gateway builds the URL (undefined: no URL for that figure). */
  imageUrl?: (figure: FigureElement) => string | undefined;
  /** Emit figure.extra.description / description_error. */
  includeDescriptions?: boolean;
  /** extensions.footnoteReferences. */
  footnoteReferences?: boolean;
  /** Emit `selected` on text elements and the SelectionMarks category. */
  detectSelections?: boolean;
  /**
   * Print each chart's data (its title, then a categories × series table) under the chart's placeholder, for charts
   * whose file keeps their data (office charts). Off by default: the placeholder alone is what the document shows.
   */
  chartData?: boolean;
  /** Target chunk size in characters (the gateway validates 100..10000). */
  chunkSize?: number;
  /** Chunking strategies (extensions.chunking.chunk_types); absent: the semantic chunks, untagged. */
  chunkTypes?: readonly ChunkType[];
  /** Legacy return_html: also an `html` rendering of the whole document. */
  returnHtml?: boolean;
  /**
   * bounding_boxes.Words as a LazyJsonArray (made page by page as it is written) instead of objects: for results that are
   * serialized, not read (the extract step).
   */
  wordsAsJson?: boolean;
}

/** One page's part of the output, as live per-page results carry it (GET /job/{id}/events?partial=true). */
export interface PageResult {
  page: number;
  markdown: string;
  elements: PageResultElement[];
  /** The page could not be read (too large, broken, OCR failed): why it has no content. */
  error?: { code: string; message: string };
}

/** A block of a page's markdown with its box (normalized polygon; null without geometry). */
export interface PageResultElement {
  type: 'heading' | 'list' | 'text' | 'table' | 'figure';
  /** Text elements: their category in the extraction layout. */
  category?: string;
  /** [start, end): where the block sits in the page's markdown (offsets of a JavaScript string, UTF-16 code units). */
  markdown_span: [number, number];
  bounding_box: Polygon | null;
}
