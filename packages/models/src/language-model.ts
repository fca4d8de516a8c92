import type { ChartData, Document } from '@quire/core';

/**
 * The LanguageModel port: everything that needs language understanding goes through it.
 * Adapters: the built-in offline engine (deterministic, no weights) and the OpenAI-compatible HTTP
 * adapter (hosted APIs, vLLM, Ollama, llama.cpp server). Step packages call the port and never
 * know which adapter answers.
 */

export type JsonSchema = Record<string, unknown>;

export interface SchemaRequest {
  document: Document;
  /** The extraction's markdown_with_ids (what a model reads to cite element ids). */
  markdownWithIds?: string;
  schema: JsonSchema;
  prompt?: string;
  /** Extended reasoning: a stronger model or a verification pass. */
  effort?: boolean;
  /** Produce per-field confidence 0..1 (agentic_confidence). */
  wantConfidence?: boolean;
}

export interface SchemaAnswer {
  /** Shaped by the schema; a field with no qualifying candidate is null. */
  values: unknown;
  /** Mirrors `values`: element ids (txt-3, tbl-1-r4c2) per leaf; null where the value is null. */
  citations: unknown;
  /** Mirrors `values`: 0..1 per leaf, when wantConfidence. */
  confidence?: unknown;
  /** JSON-pointer-like path → why a field is null or was dropped, or where its value came from when that is not the page (an embedded e-invoice). */
  notes?: Record<string, string>;
}

export interface PipelineCandidate {
  id: string;
  name: string;
  description?: string;
  keywords?: string[];
}

export interface ClassifyRequest {
  document: Document;
  pipelines: PipelineCandidate[];
  /** Pages of `document` to read, from its first (default 5, the spec's classify default). */
  maxPages?: number;
}

export interface ClassifyAnswer {
  pipelineId: string | null;
  scores: { pipelineId: string; score: number }[];
}

export interface SplitTopic {
  name: string;
  description?: string;
}

export interface SplitRequest {
  document: Document;
  topics: SplitTopic[];
}

export interface SplitAnswer {
  groups: { topic: string; pages: number[]; confidence: number }[];
}

/** A form cell as the instruction mapper sees it. */
export interface FillableCell {
  index: number;
  label: string;
  type: 'text' | 'checkbox' | 'signature';
  page: number;
  currentText: string;
  /** Radio/checkbox option labels (checkbox cells with several boxes) or choice-field options. */
  options?: string[];
  maxLength?: number;
  /** Date pattern printed on the form near the cell, e.g. "MM/DD/YYYY". */
  datePattern?: string;
  /** The label's sources, when known apart (fillable PDFs): printed text next to the field, tooltip, field name. Trust them in that order. */
  printedLabel?: string;
  tooltip?: string;
  fieldName?: string;
  /** The heading of the part of the form the field stands under ("Spouse", "Part II"): "spouse's first name" names the first name under it. */
  section?: string;
  /** A comb field: one character per box (maxLength boxes). */
  comb?: boolean;
  /** [left, top, right, bottom] normalized 0..1 on its page: neighbouring cells of one value (an SSN in three boxes). */
  box?: [number, number, number, number];
}

export interface FormInstructionsRequest {
  instructions: string;
  cells: FillableCell[];
}

export interface FormAssignment {
  cellIndex: number;
  /** Text for text/signature cells; for checkbox cells "true"/"false" or the chosen option label. */
  value: string;
  confidence: number;
  /** The instruction fragment this came from (for reporting). */
  instruction: string;
  /** What was done to the value to fit the field (truncated to max length, date reformatted…). */
  note?: string;
}

export interface FormInstructionsAnswer {
  assignments: FormAssignment[];
  /** Instruction fragments that named something no cell matched (reported, never silently dropped). */
  unmatched: string[];
  /** Why each value given was not placed (the built-in engine says; a model's `unmatched` carry no reason). */
  unplaced?: { instruction: string; value?: string; reason: string }[];
}

export interface FigureDescriptionRequest {
  image: { bytes: Uint8Array; mime: string };
  caption?: string;
  textInside?: string;
}

export interface ChartReadingRequest {
  image: { bytes: Uint8Array; mime: string };
  caption?: string;
  /** Text found inside the chart (axis labels, legend, data labels): context, and a check on what the model reads. */
  textInside?: string;
}

export interface LanguageModel {
  /** 'builtin' or 'openai:<model>'. */
  readonly id: string;
  readonly supportsVision: boolean;
  extractSchema(req: SchemaRequest): Promise<SchemaAnswer>;
  classify(req: ClassifyRequest): Promise<ClassifyAnswer>;
  split(req: SplitRequest): Promise<SplitAnswer>;
  mapFormInstructions(req: FormInstructionsRequest): Promise<FormInstructionsAnswer>;
  /** Only adapters with vision; the built-in engine describes figures from caption and inner text elsewhere. */
  describeFigure?(req: FigureDescriptionRequest): Promise<string>;
  /**
   * Only adapters with vision: the data series of a chart picture (a chart drawn in a PDF or an image,
   * which stores no values), checked for shape (every series one value per category). An answer that
   * is not a usable table fails with PROC_001.
   */
  readChart?(req: ChartReadingRequest): Promise<ChartData>;
  /**
   * The same model, its calls stopped when `signal` fires (a job's JobContext.signal), failing with the
   * signal's reason. Only adapters that call out; the built-in engine's work is the job's own.
   */
  withSignal?(signal: AbortSignal): LanguageModel;
}
