import { QuireError, type ChartData, type Document } from '@quire/core';
import type {
  ChartReadingRequest, ClassifyAnswer, ClassifyRequest, FormInstructionsAnswer, FormInstructionsRequest, JsonSchema, LanguageModel,
  SchemaAnswer, SchemaRequest, SplitAnswer, SplitRequest, FigureDescriptionRequest,
} from '../language-model.js';
import { conformAnswer, documentIds, jsonPointer, schemaErrors, unknownCitations } from '../conform-answer.js';
import { crossCheckConfidence, elementTexts } from '../confidence-check.js';

/** Settings of an OpenAI-compatible endpoint (the runtime's QUIRE_LLM_* block). */
export interface OpenAiSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  strongModel?: string;
  visionModel?: string;
  timeoutMs: number;
}

type Fetch = typeof fetch;

/** Characters of document text sent per page, and per request: bounds prompt size on long documents. */
const PAGE_CHARS = 2_000;
const DOC_CHARS = 24_000;

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string | ContentPart[] }

const SYSTEM = [
  'You extract structured data from one document for a JSON Schema.',
  'The document is markdown whose elements carry ids (data-bb-text-id, data-bb-cell-id attributes, or [id] prefixes).',
  'Answer with one JSON object: {"values": …, "citations": …, "confidence": …}.',
  '"values" must validate against the schema; use null for anything the document does not state. Never invent values.',
  '"citations" mirrors "values": for every non-null leaf, an array of the element ids whose text contains the value.',
  '"confidence" mirrors "values": a number 0..1 per leaf (how sure you are the value is right).',
].join(' ');

const VERIFY_SYSTEM = [
  'You check a structured answer extracted from one document for a JSON Schema.',
  'The document is markdown whose elements carry ids (data-bb-text-id, data-bb-cell-id attributes, or [id] prefixes).',
  'You get your first answer and the text of the elements it cites. Check every value against its cited elements and the document:',
  'correct a value the cited text does not support, fix citations that name the wrong elements, fill a null the document does state, and set to null a value the document does not state.',
  'Answer with the whole corrected JSON object in the same format: {"values": …, "citations": …, "confidence": …}.',
  '"values" must validate against the schema; "citations" mirrors "values" with arrays of element ids; "confidence" mirrors "values" with 0..1 per leaf. Never invent values.',
].join(' ');

/** One line per cited leaf: its pointer, value and the text of the elements it cites (for the verification pass). */
function citedTexts(values: unknown, citations: unknown, doc: Document): string {
  const texts = elementTexts(doc);
  const lines: string[] = [];
  const visit = (v: unknown, c: unknown, path: (string | number)[]) => {
    if (v === null || v === undefined) { lines.push(`${jsonPointer(path)} = null`); return; }
    if (Array.isArray(v)) { v.forEach((x, i) => visit(x, Array.isArray(c) ? c[i] : undefined, [...path, i])); return; }
    if (typeof v === 'object') { for (const [k, x] of Object.entries(v)) visit(x, c && typeof c === 'object' && !Array.isArray(c) ? (c as Record<string, unknown>)[k] : undefined, [...path, k]); return; }
    const ids = Array.isArray(c) ? c.filter((x): x is string => typeof x === 'string') : [];
    lines.push(`${jsonPointer(path)} = ${JSON.stringify(v)} cites ${ids.length ? ids.map((id) => `[${id}] ${JSON.stringify((texts.get(id) ?? '').slice(0, 300))}`).join(', ') : 'nothing'}`);
  };
  visit(values, citations, []);
  return lines.slice(0, 400).join('\n');
}

/** Plain listing with ids, for callers that pass no markdown_with_ids. */
function documentListing(doc: Document): string {
  const out: string[] = [];
  for (const page of doc.pages) {
    out.push(`<!-- page ${page.number} -->`);
    for (const el of page.elements) {
      if (el.kind === 'text') out.push(`[${el.id}] ${el.text}`);
      else if (el.kind === 'figure') out.push(`[${el.id}] (figure) ${el.caption ?? ''} ${el.text}`.trim());
      else {
        const rows = new Map<number, string[]>();
        for (const c of el.cells) rows.set(c.row, [...(rows.get(c.row) ?? []), `[${c.id}] ${c.text}`]);
        out.push(`[${el.id}] table`, ...[...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, cells]) => `| ${cells.join(' | ')} |`));
      }
    }
  }
  return out.join('\n');
}

/** The caller's schema as the "values" member of the answer schema; its $defs move up so local refs still resolve. */
function answerSchema(schema: JsonSchema, wantConfidence: boolean): JsonSchema {
  const { $defs, definitions, $schema: _s, $id: _i, ...values } = schema;
  return {
    type: 'object',
    properties: { values, citations: { type: 'object' }, ...(wantConfidence ? { confidence: { type: 'object' } } : {}) },
    required: ['values', 'citations', ...(wantConfidence ? ['confidence'] : [])],
    ...($defs ? { $defs } : {}),
    ...(definitions ? { definitions } : {}),
  };
}


/**
 * The HTTP adapter for any OpenAI-compatible chat-completions server (hosted APIs, vLLM, Ollama,
 * llama.cpp). Every call asks for a JSON object and checks the answer against what was asked
 * (known pipeline ids, known topics, pages that exist, the caller's JSON schema): a model's
 * invention is dropped, never passed on. Transport failures map to the spec's retryable codes.
 */
export class OpenAiCompatibleModel implements LanguageModel {
  readonly id: string;
  readonly supportsVision: boolean;

  constructor(private readonly settings: OpenAiSettings, private readonly fetchFn: Fetch = fetch, private readonly jobSignal?: AbortSignal) {
    this.id = `openai:${settings.model}`;
    this.supportsVision = Boolean(settings.visionModel);
  }

  withSignal(signal: AbortSignal): OpenAiCompatibleModel {
    return new OpenAiCompatibleModel(this.settings, this.fetchFn, signal);
  }

  async classify(req: ClassifyRequest): Promise<ClassifyAnswer> {
    if (!req.pipelines.length) return { pipelineId: null, scores: [] };
    const answer = await this.chatJson(
      'You route documents to processing pipelines. Answer with JSON only: {"scores":[{"pipeline_id":string,"score":number 0..1}],"pipeline_id":string|null}. '
      + 'Score every pipeline by how well the document belongs to it; pipeline_id is the best one, or null when none fits.',
      `Pipelines:\n${JSON.stringify(req.pipelines.map((p) => ({ pipeline_id: p.id, name: p.name, description: p.description ?? '', keywords: p.keywords ?? [] })))}\n\nDocument:\n${documentText(req.document, req.maxPages)}`,
    );
    const given = new Map<string, number>();
    for (const s of asArray(answer.scores)) {
      const id = String((s as Record<string, unknown>)?.pipeline_id ?? '');
      const score = Number((s as Record<string, unknown>)?.score);
      if (req.pipelines.some((p) => p.id === id) && Number.isFinite(score)) given.set(id, clamp01(score));
    }
    const scores = req.pipelines.map((p) => ({ pipelineId: p.id, score: given.get(p.id) ?? 0 })).sort((a, b) => b.score - a.score);
    const chosen = typeof answer.pipeline_id === 'string' && req.pipelines.some((p) => p.id === answer.pipeline_id) ? answer.pipeline_id : null;
    return { pipelineId: chosen, scores };
  }

  async split(req: SplitRequest): Promise<SplitAnswer> {
    if (!req.topics.length || !req.document.pages.length) return { groups: [] };
    const answer = await this.chatJson(
      'You split a multi-document file into page groups by topic. Answer with JSON only: {"groups":[{"topic":string,"pages":[page numbers],"confidence":number 0..1}]}. '
      + 'Every page belongs to at most one group; groups are contiguous runs of pages of one document; two documents of the same topic are two groups. Use only the given topic names.',
      `Topics:\n${JSON.stringify(req.topics)}\n\nPages:\n${pagesText(req.document)}`,
    );
    const names = new Set(req.topics.map((t) => t.name));
    const pagesInDoc = new Set(req.document.pages.map((p) => p.number));
    const used = new Set<number>();
    const groups: SplitAnswer['groups'] = [];
    for (const g of asArray(answer.groups)) {
      const rec = (g ?? {}) as Record<string, unknown>;
      const topic = String(rec.topic ?? '');
      if (!names.has(topic)) continue;
      const pages = [...new Set(asArray(rec.pages).map(Number))].filter((n) => pagesInDoc.has(n) && !used.has(n)).sort((a, b) => a - b);
      if (!pages.length) continue;
      pages.forEach((n) => used.add(n));
      groups.push({ topic, pages, confidence: clamp01(Number(rec.confidence ?? 0.5)) });
    }
    return { groups };
  }

  async mapFormInstructions(req: FormInstructionsRequest): Promise<FormInstructionsAnswer> {
    const answer = await this.chatJson(
      'You fill form fields from instructions. Answer with JSON only: {"assignments":[{"cell_index":number,"value":string,"confidence":number 0..1,"instruction":string}],"unmatched":[string]}. '
      + 'Checkbox cells take "true", "false" or one of their options. List instruction fragments that match no cell in unmatched. '
      + 'Match a fragment to a cell by printedLabel first (what the person reads), then tooltip, then fieldName; the section of a cell is the heading it stands under ("spouse\'s first name" is the first name under "Spouse"); one value per cell; a name never goes in an address cell, an SSN only in an SSN cell. '
      + 'Split a code longer than its cell across the next cells of the row (box), and "instruction" is the fragment of the instructions the value came from.',
      JSON.stringify({ cells: req.cells, instructions: req.instructions }),
    );
    const byIndex = new Map(req.cells.map((c) => [c.index, c]));
    const assignments: FormInstructionsAnswer['assignments'] = [];
    const unmatched = asArray(answer.unmatched).filter((u): u is string => typeof u === 'string');
    for (const a of asArray(answer.assignments)) {
      const rec = (a ?? {}) as Record<string, unknown>;
      const cell = byIndex.get(Number(rec.cell_index));
      if (typeof rec.value !== 'string') continue;
      // An assignment to a cell the form does not have is reported, not silently dropped.
      if (!cell) { unmatched.push(String(rec.instruction ?? `${String(rec.cell_index)}: ${rec.value}`)); continue; }
      let value = rec.value;
      let note: string | undefined;
      if (cell.maxLength !== undefined && value.length > cell.maxLength) { value = value.slice(0, cell.maxLength); note = `truncated to ${cell.maxLength} characters`; }
      assignments.push({ cellIndex: cell.index, value, confidence: clamp01(Number(rec.confidence ?? 0.5)), instruction: String(rec.instruction ?? ''), ...(note ? { note } : {}) });
    }
    return { assignments, unmatched };
  }

  /** One chat-completions call; upstream trouble maps to the spec's retryable processing codes. */
  async chat(messages: ChatMessage[], opts: { model?: string; responseFormat?: Record<string, unknown> } = {}): Promise<string> {
    const doFetch = this.fetchFn;
    let res: Response;
    try {
      res = await doFetch(`${this.settings.baseUrl.replace(/\/$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}) },
        body: JSON.stringify({ model: opts.model ?? this.settings.model, messages, temperature: 0, ...(opts.responseFormat ? { response_format: opts.responseFormat } : {}) }),
        signal: this.jobSignal ? AbortSignal.any([this.jobSignal, AbortSignal.timeout(this.settings.timeoutMs)]) : AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (e) {
      if (this.jobSignal?.aborted) throw this.jobSignal.reason; // the job was told to stop: its reason, not a model failure
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new QuireError('PROC_002', `Language model did not answer within ${Math.round(this.settings.timeoutMs / 1000)} s`, { model: this.id });
      throw new QuireError('PROC_003', `Language model endpoint unreachable: ${(e as Error).message}`, { model: this.id });
    }
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      const code = res.status === 429 ? 'PROC_004' : res.status >= 500 ? 'PROC_003' : 'PROC_001';
      throw new QuireError(code, `Language model endpoint answered HTTP ${res.status}`, { model: this.id, upstream_status: res.status, upstream_body: text });
    }
    const body = (await res.json().catch(() => undefined)) as { choices?: { message?: { content?: string | null } }[] } | undefined;
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new QuireError('PROC_001', 'Language model answer has no message content', { model: this.id });
    return content;
  }

  /**
   * Structured extraction: one answer checked against the schema and the document's ids (one retry
   * with the problems listed). With effort the strong model answers (QUIRE_LLM_STRONG_MODEL when set)
   * and a second, verification pass sends the model its own answer, with the text of the elements it
   * cited, to check value by value and return a corrected answer; that answer is checked the same way
   * and replaces the first only when it is valid (after its own retry). With confidence asked for, the
   * model's per-field confidence is cross-checked against the cited text (see confidence-check.ts).
   */
  async extractSchema(req: SchemaRequest): Promise<SchemaAnswer> {
    const want = req.wantConfidence === true;
    const known = documentIds(req.document);
    const documentPart = `Document:\n${req.markdownWithIds ?? documentListing(req.document)}`;
    const schemaPart = `JSON Schema of "values":\n${JSON.stringify(req.schema)}`;
    const instructions = req.prompt ? `Instructions: ${req.prompt}` : '';
    const responseFormat = { type: 'json_schema', json_schema: { name: 'schema_answer', schema: answerSchema(req.schema, want), strict: false } };
    const model = req.effort ? this.settings.strongModel ?? this.settings.model : this.settings.model;

    const first = await this.askChecked([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: [instructions, schemaPart, documentPart].filter(Boolean).join('\n\n') },
    ], { model, responseFormat, schema: req.schema, known });
    if (!first.parsed) throw new QuireError('PROC_001', 'Language model returned output that is not a JSON answer, twice', { model: this.id, problems: first.problems });
    const notes: Record<string, string> = {};
    if (first.problems.length) notes[''] = `model answer still had problems after one retry; invalid parts were dropped: ${first.problems.slice(0, 5).join('; ')}`;
    const firstAnswer = conformAnswer(req.schema, { values: first.parsed.values, citations: first.parsed.citations, confidence: first.parsed.confidence, notes }, { knownIds: known, wantConfidence: want });
    if (!req.effort) return this.withCheckedConfidence(firstAnswer, req, want);

    // effort: the verification pass reads the first answer (as conformed: valid values, known ids only)
    const verify = await this.askChecked([
      { role: 'system', content: VERIFY_SYSTEM },
      {
        role: 'user',
        content: [
          instructions, schemaPart, documentPart,
          `Your first answer:\n${JSON.stringify({ values: firstAnswer.values, citations: firstAnswer.citations, ...(want ? { confidence: firstAnswer.confidence } : {}) })}`,
          `Text of the elements it cites:\n${citedTexts(firstAnswer.values, firstAnswer.citations, req.document)}`,
        ].filter(Boolean).join('\n\n'),
      },
    ], { model, responseFormat, schema: req.schema, known });
    if (!verify.parsed || verify.problems.length) {
      const why = verify.problems.slice(0, 5).join('; ') || 'no JSON answer';
      const kept = { ...firstAnswer, notes: { ...firstAnswer.notes } };
      kept.notes[''] = [kept.notes[''], `verification pass (effort) gave no valid answer after one retry, so the first answer is kept: ${why}`].filter(Boolean).join('; ');
      return this.withCheckedConfidence(kept, req, want);
    }
    const verified = conformAnswer(req.schema, { values: verify.parsed.values, citations: verify.parsed.citations, confidence: verify.parsed.confidence, notes: {} }, { knownIds: known, wantConfidence: want });
    return this.withCheckedConfidence(verified, req, want, firstAnswer.values);
  }

  /** Confidence (when asked for) capped by what the citations hold and by changes in verification. */
  private withCheckedConfidence(answer: SchemaAnswer, req: SchemaRequest, want: boolean, previous?: unknown): SchemaAnswer {
    if (!want) return answer;
    const confidence = crossCheckConfidence(answer.values, answer.citations, answer.confidence, req.document, { previous, hasPrevious: previous !== undefined });
    return { ...answer, confidence };
  }

  /** A structured answer checked against the schema and the known ids, asked again once with its problems listed. */
  private async askChecked(
    messages: ChatMessage[], opts: { model: string; responseFormat: Record<string, unknown>; schema: JsonSchema; known: Set<string> },
  ): Promise<{ parsed?: Record<string, unknown>; problems: string[] }> {
    let last: { parsed?: Record<string, unknown>; problems: string[] } = { problems: [] };
    for (let attempt = 0; attempt < 2; attempt++) {
      const content = await this.chat(messages, { model: opts.model, responseFormat: opts.responseFormat });
      last = this.check(content, opts.schema, opts.known);
      if (!last.problems.length) break;
      messages.push({ role: 'assistant', content }, { role: 'user', content: `Your answer has problems:\n- ${last.problems.join('\n- ')}\nReturn the corrected JSON object only.` });
    }
    return last;
  }

  private check(content: string, schema: JsonSchema, known: Set<string>): { parsed?: Record<string, unknown>; problems: string[] } {
    const parsed = parseJsonObject(content);
    if (!parsed) return { problems: ['the answer is not valid JSON'] };
    if (!('values' in parsed)) {
      return { problems: ['the answer must be a JSON object with "values" and "citations"'] };
    }
    const p = parsed as Record<string, unknown>;
    const problems = schemaErrors(schema, p.values).map((e) => `values${e}`);
    const unknown = unknownCitations(p.citations, known);
    if (unknown.length) problems.push(`citations name ids that are not in the document: ${unknown.slice(0, 10).join(', ')}`);
    return { parsed: p, problems };
  }

  /**
   * A figure description from the vision model (QUIRE_LLM_VISION_MODEL): the image goes as a data URL
   * content part, with the caption and the text read inside the figure as context.
   */
  async describeFigure(req: FigureDescriptionRequest): Promise<string> {
    const model = this.settings.visionModel;
    if (!model) throw new QuireError('GENERAL_005', 'No vision model is configured (QUIRE_LLM_VISION_MODEL)', { model: this.id });
    const context = [req.caption ? `Caption: ${req.caption}` : '', req.textInside ? `Text inside the figure: ${req.textInside}` : ''].filter(Boolean).join('\n');
    const url = `data:${req.image.mime};base64,${Buffer.from(req.image.bytes).toString('base64')}`;
    return (await this.chat([
      { role: 'system', content: 'Describe the figure for someone who cannot see it: what it shows, and for charts the axes, series and the main trend or values. Two to four sentences, plain text.' },
      { role: 'user', content: [{ type: 'text', text: context || 'Describe this figure.' }, { type: 'image_url', image_url: { url } }] },
    ], { model })).trim();
  }

  /**
   * A chart picture's data as a table, from the vision model: the image as a data URL with the caption
   * and the text read inside the chart, the answer a JSON object of categories and series. The answer
   * is checked (every series one number or null per category, at least one value); a faulty one is sent
   * back once with its problems listed, and a second faulty one fails with PROC_001.
   */
  async readChart(req: ChartReadingRequest): Promise<ChartData> {
    const model = this.settings.visionModel;
    if (!model) throw new QuireError('GENERAL_005', 'No vision model is configured (QUIRE_LLM_VISION_MODEL)', { model: this.id });
    const context = [req.caption ? `Caption: ${req.caption}` : '', req.textInside ? `Text inside the chart: ${req.textInside}` : ''].filter(Boolean).join('\n');
    const url = `data:${req.image.mime};base64,${Buffer.from(req.image.bytes).toString('base64')}`;
    const messages: ChatMessage[] = [
      { role: 'system', content: CHART_SYSTEM },
      { role: 'user', content: [{ type: 'text', text: context || 'Read the data of this chart.' }, { type: 'image_url', image_url: { url } }] },
    ];
    let problems: string[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const content = await this.chat(messages, { model, responseFormat: { type: 'json_object' } });
      const read = chartFromAnswer(parseJsonObject(content));
      if ('chart' in read) return read.chart;
      problems = read.problems;
      messages.push({ role: 'assistant', content }, { role: 'user', content: `Your answer has problems:\n- ${problems.join('\n- ')}\nReturn the corrected JSON object only.` });
    }
    throw new QuireError('PROC_001', 'The vision model did not return a usable chart table, twice', { model, problems });
  }

  /** One chat completion whose answer must be a JSON object (classify, split, form instructions). */
  private async chatJson(system: string, user: string, model = this.settings.model): Promise<Record<string, unknown>> {
    const content = await this.chat([{ role: 'system', content: system }, { role: 'user', content: user }], { model, responseFormat: { type: 'json_object' } });
    const parsed = parseJsonObject(content);
    if (!parsed) throw new QuireError('PROC_001', 'The language model answered something other than a JSON object', { model, answer: content.slice(0, 500) });
    return parsed;
  }
}

const CHART_SYSTEM = [
  'You read the data of one chart image into a table.',
  'Answer with one JSON object: {"chart_type": "bar"|"column"|"line"|"pie"|"area"|"scatter"|"other", "title": string|null,',
  '"x_axis_title": string|null, "y_axis_title": string|null, "categories": [the x-axis labels or pie slices, in order],',
  '"series": [{"name": string, "values": [one number per category, null where the chart shows none]}]}.',
  'Read values off labels where the chart prints them, else estimate them from the axis scale. Never invent series or categories the chart does not show.',
].join(' ');

/** A number from a model's cell: numbers as they are, numeric strings with separators ("1,200", "12 %"); anything else null. */
function chartNumber(v: unknown): number | null | undefined {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.replace(/[\s,%$€£]/g, '');
  return /^[-+]?\d+(\.\d+)?$/.test(t) ? Number(t) : undefined;
}

/** The model's chart answer checked into ChartData, or the list of what is wrong with it. */
function chartFromAnswer(answer: Record<string, unknown> | null): { chart: ChartData } | { problems: string[] } {
  if (!answer) return { problems: ['the answer is not a JSON object'] };
  const problems: string[] = [];
  const categories = asArray(answer.categories).map((c) => (typeof c === 'number' ? c : typeof c === 'string' ? c.trim() : undefined));
  if (!categories.length) problems.push('"categories" must be a non-empty array');
  if (categories.some((c) => c === undefined || c === '')) problems.push('every category must be a non-empty string or a number');
  const rawSeries = asArray(answer.series);
  if (!rawSeries.length) problems.push('"series" must be a non-empty array');
  const series = rawSeries.map((s, i) => {
    const rec = (s ?? {}) as Record<string, unknown>;
    const values = asArray(rec.values).map(chartNumber);
    if (values.length !== categories.length) problems.push(`series ${i + 1} has ${values.length} values for ${categories.length} categories`);
    if (values.some((v) => v === undefined)) problems.push(`series ${i + 1} has values that are not numbers (use null for a missing value)`);
    return { name: typeof rec.name === 'string' ? rec.name.trim() : '', categories: categories as (string | number)[], values: values.map((v) => v ?? null) };
  });
  if (!problems.length && series.every((s) => s.values.every((v) => v === null))) problems.push('no series has any value');
  if (problems.length) return { problems };
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const x = text(answer.x_axis_title), y = text(answer.y_axis_title), title = text(answer.title);
  return {
    chart: {
      chartType: text(answer.chart_type) ?? 'other', ...(title ? { title } : {}), series, sourceRanges: [],
      ...(x || y ? { axes: { ...(x ? { x: { title: x } } : {}), ...(y ? { y: { title: y } } : {}) } } : {}),
    },
  };
}

/** Tolerates code fences and prose around the object, which some servers add despite response_format. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf('{'), end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const v = JSON.parse(text.slice(start, end + 1)) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

function pageText(doc: Document, i: number): string {
  return doc.pages[i].elements
    .map((el) => (el.kind === 'text' ? el.text : el.kind === 'table' ? el.cells.map((c) => c.text).join(' | ') : `${el.caption ?? ''} ${el.text}`.trim()))
    .filter(Boolean).join('\n');
}

function documentText(doc: Document, maxPages = 5): string {
  return doc.pages.slice(0, maxPages).map((_, i) => pageText(doc, i)).join('\n\n').slice(0, DOC_CHARS);
}

/** Every page, labelled with its original number, each cut to PAGE_CHARS, the whole to DOC_CHARS·4. */
function pagesText(doc: Document): string {
  const per = Math.max(300, Math.min(PAGE_CHARS, Math.floor((DOC_CHARS * 4) / Math.max(1, doc.pages.length))));
  return doc.pages.map((p, i) => `--- page ${p.number} ---\n${pageText(doc, i).slice(0, per)}`).join('\n');
}
