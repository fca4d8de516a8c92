import { QuireError, type Document } from '@quire/core';
import type {
  ClassifyAnswer, ClassifyRequest, FormInstructionsAnswer, FormInstructionsRequest, JsonSchema, LanguageModel,
  SchemaAnswer, SchemaRequest, SplitAnswer, SplitRequest,
} from '../language-model.js';
import { conformAnswer, documentIds, schemaErrors, unknownCitations } from '../conform-answer.js';

/**
 * The LanguageModel port over any OpenAI-compatible chat-completions endpoint (hosted APIs, vLLM,
 * Ollama, llama.cpp server). Schema extraction asks for JSON with response_format json_schema,
 * checks the answer (values against the caller's schema, cited ids against the document) and asks
 * once more with the problems listed; what is still wrong after that is nulled with a note.
 * Tasks this adapter does not prompt for yet (classify, split, form instructions) go to `fallback`.
 */
export interface OpenAiCompatibleOptions {
  /** …/v1 (chat/completions is appended). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Used for effort=true; default: `model`. */
  strongModel?: string;
  visionModel?: string;
  timeoutMs: number;
  /** Tests and custom transports. */
  fetch?: typeof fetch;
}

interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string }

const SYSTEM = [
  'You extract structured data from one document for a JSON Schema.',
  'The document is markdown whose elements carry ids (data-bb-text-id, data-bb-cell-id attributes, or [id] prefixes).',
  'Answer with one JSON object: {"values": …, "citations": …, "confidence": …}.',
  '"values" must validate against the schema; use null for anything the document does not state. Never invent values.',
  '"citations" mirrors "values": for every non-null leaf, an array of the element ids whose text contains the value.',
  '"confidence" mirrors "values": a number 0..1 per leaf (how sure you are the value is right).',
].join(' ');

/** Plain listing with ids, for callers that pass no markdown_with_ids. */
export function documentListing(doc: Document): string {
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

function parseJson(content: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  return JSON.parse((fenced ? fenced[1] : content).trim());
}

export class OpenAiCompatibleModel implements LanguageModel {
  readonly id: string;
  readonly supportsVision: boolean;

  constructor(private readonly opts: OpenAiCompatibleOptions, private readonly fallback?: LanguageModel) {
    this.id = `openai:${opts.model}`;
    this.supportsVision = Boolean(opts.visionModel);
  }

  /** One chat-completions call; upstream trouble maps to the spec's retryable processing codes. */
  async chat(messages: ChatMessage[], opts: { model?: string; responseFormat?: Record<string, unknown> } = {}): Promise<string> {
    const doFetch = this.opts.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(`${this.opts.baseUrl.replace(/\/$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        body: JSON.stringify({ model: opts.model ?? this.opts.model, messages, temperature: 0, ...(opts.responseFormat ? { response_format: opts.responseFormat } : {}) }),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (e) {
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new QuireError('PROC_002', `Language model did not answer within ${Math.round(this.opts.timeoutMs / 1000)} s`, { model: this.id });
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

  async extractSchema(req: SchemaRequest): Promise<SchemaAnswer> {
    const want = req.wantConfidence === true;
    const known = documentIds(req.document);
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content: [
          req.prompt ? `Instructions: ${req.prompt}` : '',
          `JSON Schema of "values":\n${JSON.stringify(req.schema)}`,
          `Document:\n${req.markdownWithIds ?? documentListing(req.document)}`,
        ].filter(Boolean).join('\n\n'),
      },
    ];
    const responseFormat = { type: 'json_schema', json_schema: { name: 'schema_answer', schema: answerSchema(req.schema, want), strict: false } };
    const model = req.effort ? this.opts.strongModel ?? this.opts.model : this.opts.model;
    let last: { parsed?: Record<string, unknown>; problems: string[] } = { problems: [] };
    for (let attempt = 0; attempt < 2; attempt++) {
      const content = await this.chat(messages, { model, responseFormat });
      last = this.check(content, req.schema, known);
      if (!last.problems.length) break;
      messages.push({ role: 'assistant', content }, { role: 'user', content: `Your answer has problems:\n- ${last.problems.join('\n- ')}\nReturn the corrected JSON object only.` });
    }
    if (!last.parsed) throw new QuireError('PROC_001', 'Language model returned output that is not a JSON answer, twice', { model: this.id, problems: last.problems });
    const notes: Record<string, string> = {};
    if (last.problems.length) notes[''] = `model answer still had problems after one retry; invalid parts were dropped: ${last.problems.slice(0, 5).join('; ')}`;
    const answer = conformAnswer(req.schema, { values: last.parsed.values, citations: last.parsed.citations, confidence: last.parsed.confidence, notes }, { knownIds: known, wantConfidence: want });
    return answer;
  }

  private check(content: string, schema: JsonSchema, known: Set<string>): { parsed?: Record<string, unknown>; problems: string[] } {
    let parsed: unknown;
    try { parsed = parseJson(content); } catch { return { problems: ['the answer is not valid JSON'] }; }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('values' in parsed)) {
      return { problems: ['the answer must be a JSON object with "values" and "citations"'] };
    }
    const p = parsed as Record<string, unknown>;
    const problems = schemaErrors(schema, p.values).map((e) => `values${e}`);
    const unknown = unknownCitations(p.citations, known);
    if (unknown.length) problems.push(`citations name ids that are not in the document: ${unknown.slice(0, 10).join(', ')}`);
    return { parsed: p, problems };
  }

  private delegate<T>(task: string, run: (m: LanguageModel) => Promise<T>): Promise<T> {
    if (!this.fallback) throw new QuireError('GENERAL_005', `${task} is not available through the OpenAI-compatible adapter in this build`, { model: this.id });
    return run(this.fallback);
  }

  classify(req: ClassifyRequest): Promise<ClassifyAnswer> { return this.delegate('classification', (m) => m.classify(req)); }
  split(req: SplitRequest): Promise<SplitAnswer> { return this.delegate('splitting', (m) => m.split(req)); }
  mapFormInstructions(req: FormInstructionsRequest): Promise<FormInstructionsAnswer> { return this.delegate('form instructions', (m) => m.mapFormInstructions(req)); }
}
