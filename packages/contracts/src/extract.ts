import { z } from 'zod';
import { BoolField, IntField, PageRangeField, jsonObjectField } from './fields.js';

export const FigureProcessingSchema = z.object({
  show_images: BoolField.optional(), description: BoolField.optional(),
});

/** How chunks are cut: the strategies a retrieval pipeline picks from (see CHUNK_TYPES). */
export const CHUNK_TYPES = ['semantic', 'header', 'page', 'recursive'] as const;
export type ChunkType = (typeof CHUNK_TYPES)[number];

/** extensions.chunking: one strategy or several (each yields its own chunks, tagged with chunk_type). */
export const ChunkingOptionsSchema = z.object({
  chunk_types: z.union([z.enum(CHUNK_TYPES), z.array(z.enum(CHUNK_TYPES)).min(1)])
    .transform((v) => [...new Set(Array.isArray(v) ? v : [v])])
    .optional()
    .describe('semantic: whole elements packed to chunk_size, a new section starts a chunk; header: one chunk per section with its heading path; page: one chunk per page; recursive: the markdown split at paragraphs, then lines, sentences and words to chunk_size'),
}).strict();

/** POST /extract options (multipart fields or JSON body besides file / file_url). Unknown fields are refused. */
export const ExtractOptionsSchema = z.object({
  file_url: z.string().optional(),
  async: BoolField.optional(),
  pages: PageRangeField.optional(),
  page_range: PageRangeField.optional(),
  figure_processing: jsonObjectField(FigureProcessingSchema).optional(),
  extensions: jsonObjectField(z.object({
    footnote_references: BoolField.optional(),
    chart_data: BoolField.optional().describe('Print each office chart\'s title and a categories × series table of its data under the chart in the markdown'),
    chunking: ChunkingOptionsSchema.optional(),
    html_main_content: BoolField.optional().describe('HTML: keep the page\'s main content (the article) and leave out navigation, sidebars, footers and link lists, as Readability does; extensions.mainContent in the result says what was left out. Default: on for full web pages (navigation, header, footer or sidebar landmarks, or several link lists), off for plain HTML documents'),
  })).optional(),
  detect_selections: BoolField.optional(),
  storage: jsonObjectField(z.object({ enabled: BoolField.optional() })).optional().describe('storage.enabled=false: do not save the extraction (no extraction_id)'),
  // legacy
  return_html: BoolField.optional(),
  extract_figure: BoolField.optional(),
  figure_description: BoolField.optional(),
  chunk_size: IntField.optional(),
  // deprecated, routed to /schema
  structured_output: jsonObjectField(z.record(z.string(), z.unknown())).optional(),
  schema: jsonObjectField(z.record(z.string(), z.unknown())).optional(),
  schema_prompt: z.string().optional(),
}).strict().meta({ id: 'ExtractOptions' });

export type ExtractOptions = z.infer<typeof ExtractOptionsSchema>;

export const ExtractResultSchema = z.object({
  extraction_id: z.string().optional(),
  page_count: z.number().int(),
  markdown: z.string(),
  markdown_with_ids: z.string(),
  bounding_boxes: z.record(z.string(), z.unknown()),
  extensions: z.record(z.string(), z.unknown()).describe('Extras: footnoteReferences (extensions.footnote_references); mainContent (HTML read in main-content mode: mode main|article|scored, keptBlocks, droppedBlocks, droppedWords); ocr when OCR read any page: {pages: [{page_number, engine (wasm | native | onnx, or wasm+onnx when both read it and the better reading of each line was kept), mean_confidence (0..1), seconds}]}; embeddedInvoice when a PDF carries a Factur-X / ZUGFeRD / XRechnung invoice XML: {source: {file, syntax CII | ZUGFeRD 1.0 | UBL, profile}, number, issueDate, dueDate (ISO dates), seller, buyer, currency, grandTotal, duePayable, taxBasisTotal, taxTotal, lines: [{description, quantity, unitPrice, amount}]}, null where the XML states nothing'),
  chunks: z.array(z.record(z.string(), z.unknown())),
  html: z.string().optional(),
  credits_used: z.number(),
  plan_info: z.record(z.string(), z.unknown()),
  warnings: z.array(z.string()).optional().describe('What the reader could not do fully (e.g. a spreadsheet feature it skipped); absent when none'),
}).meta({ id: 'ExtractResult' });
