import { QuireError, type Document } from '@quire/core';
import type {
  ClassifyAnswer, ClassifyRequest, FormInstructionsAnswer, FormInstructionsRequest, LanguageModel,
  SchemaAnswer, SchemaRequest, SplitAnswer, SplitRequest,
} from '../language-model.js';
import { createAjv } from '../ajv.js';

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

/**
 * The HTTP adapter for any OpenAI-compatible chat-completions server (hosted APIs, vLLM, Ollama,
 * llama.cpp). Every call asks for a JSON object and checks the answer against what was asked
 * (known pipeline ids, known topics, pages that exist, the caller's JSON schema): a model's
 * invention is dropped, never passed on. Transport failures map to the spec's retryable codes.
 */
export class OpenAiCompatibleModel implements LanguageModel {
  readonly id: string;
  readonly supportsVision: boolean;

  constructor(private readonly settings: OpenAiSettings, private readonly fetchFn: Fetch = fetch) {
    this.id = `openai:${settings.model}`;
    this.supportsVision = Boolean(settings.visionModel);
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

  async extractSchema(req: SchemaRequest): Promise<SchemaAnswer> {
    const body = req.markdownWithIds ?? documentText(req.document, Infinity);
    const answer = await this.chatJson(
      'You extract data from a document into a JSON schema. Answer with JSON only: {"values":object shaped by the schema,"citations":object mirroring values with the element ids (data-bb-* ids such as txt-3 or tbl-1-r4c2) each value came from'
      + (req.wantConfidence ? ',"confidence":object mirroring values with a 0..1 score per field' : '')
      + '}. Use null for a value the document does not state; never invent values.',
      `Schema:\n${JSON.stringify(req.schema)}\n${req.prompt ? `\nInstructions:\n${req.prompt}\n` : ''}\nDocument:\n${body.slice(0, DOC_CHARS * 4)}`,
      req.effort ? this.settings.strongModel : undefined,
    );
    const values = answer.values ?? null;
    const notes: Record<string, string> = {};
    const validate = createAjv(req.schema).compile(req.schema);
    if (!validate(values)) notes['/'] = `model answer does not match the schema: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`;
    return { values, citations: answer.citations ?? null, ...(req.wantConfidence ? { confidence: answer.confidence ?? null } : {}), ...(Object.keys(notes).length ? { notes } : {}) };
  }

  async mapFormInstructions(req: FormInstructionsRequest): Promise<FormInstructionsAnswer> {
    const answer = await this.chatJson(
      'You fill form fields from instructions. Answer with JSON only: {"assignments":[{"cell_index":number,"value":string,"confidence":number 0..1,"instruction":string}],"unmatched":[string]}. '
      + 'Checkbox cells take "true", "false" or one of their options. List instruction fragments that match no cell in unmatched.',
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

  /** One chat completion whose answer must be a JSON object. */
  private async chatJson(system: string, user: string, model = this.settings.model): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await this.fetchFn(`${this.settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}) },
        body: JSON.stringify({ model, temperature: 0, response_format: { type: 'json_object' }, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] }),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (e) {
      const timedOut = (e as Error).name === 'TimeoutError';
      throw new QuireError(timedOut ? 'PROC_002' : 'PROC_003', timedOut ? 'The language model did not answer in time' : 'The language model endpoint is unreachable', { model, reason: (e as Error).message });
    }
    if (!res.ok) {
      const code = res.status === 429 ? 'PROC_004' : res.status >= 500 ? 'PROC_003' : 'PROC_001';
      throw new QuireError(code, `The language model endpoint answered HTTP ${res.status}`, { model, status: res.status, body: (await res.text().catch(() => '')).slice(0, 500) });
    }
    const body = (await res.json().catch(() => null)) as { choices?: { message?: { content?: string } }[] } | null;
    const content = body?.choices?.[0]?.message?.content ?? '';
    const parsed = parseJsonObject(content);
    if (!parsed) throw new QuireError('PROC_001', 'The language model answered something other than a JSON object', { model, answer: content.slice(0, 500) });
    return parsed;
  }
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
