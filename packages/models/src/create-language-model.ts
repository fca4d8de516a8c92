import { z } from 'zod';
import { QuireError } from '@quire/core';
import { mapFormInstructionsBuiltin } from './builtin/form-instructions.js';
import type {
  ClassifyAnswer, ClassifyRequest, FormInstructionsAnswer, FormInstructionsRequest, LanguageModel,
  SchemaAnswer, SchemaRequest, SplitAnswer, SplitRequest,
} from './language-model.js';

/** The part of Quire's Config the factory reads (structural, so models does not depend on runtime). */
export interface LanguageModelConfig {
  llm?: { baseUrl: string; apiKey?: string; model: string; strongModel?: string; visionModel?: string; timeoutMs: number };
}

/**
 * Built-in engines that live in step packages (schema, classify, split depend on models, so they are
 * handed in rather than imported). The form-instruction mapper is models' own.
 */
export type BuiltinEngines = Partial<{
  extractSchema: (req: SchemaRequest) => Promise<SchemaAnswer> | SchemaAnswer;
  classify: (req: ClassifyRequest) => Promise<ClassifyAnswer> | ClassifyAnswer;
  split: (req: SplitRequest) => Promise<SplitAnswer> | SplitAnswer;
}>;

const missing = (what: string): never => {
  throw new QuireError('GENERAL_005', `No ${what} engine is available in this build`, { engine: what });
};

/** The offline, deterministic engine: no weights, no network. */
export class BuiltinLanguageModel implements LanguageModel {
  readonly id = 'builtin';
  readonly supportsVision = false;
  constructor(private readonly engines: BuiltinEngines = {}) {}
  async extractSchema(req: SchemaRequest): Promise<SchemaAnswer> { return this.engines.extractSchema ? this.engines.extractSchema(req) : missing('schema'); }
  async classify(req: ClassifyRequest): Promise<ClassifyAnswer> { return this.engines.classify ? this.engines.classify(req) : missing('classify'); }
  async split(req: SplitRequest): Promise<SplitAnswer> { return this.engines.split ? this.engines.split(req) : missing('split'); }
  async mapFormInstructions(req: FormInstructionsRequest): Promise<FormInstructionsAnswer> { return mapFormInstructionsBuiltin(req); }
}

const FormAnswerSchema = z.object({
  assignments: z.array(z.object({
    cellIndex: z.number().int(), value: z.union([z.string(), z.number(), z.boolean()]).transform(String),
    instruction: z.string().optional(), confidence: z.number().min(0).max(1).optional(), note: z.string().optional(),
  })),
  unmatched: z.array(z.string()).default([]),
});

const FORM_SYSTEM_PROMPT = [
  'You fill PDF forms. You get the form cells as JSON (index, label, type, options, maxLength, datePattern, currentText) and the user\'s instructions.',
  'Answer with one JSON object: {"assignments":[{"cellIndex":<index>,"value":"<text>","instruction":"<the fragment it came from>","confidence":<0..1>}],"unmatched":["<instruction fragments that match no cell>"]}.',
  'Rules: only use indexes from the list; for checkbox cells the value is "true", "false" or one of the cell\'s options;',
  'for cells with options use one option exactly; respect maxLength and datePattern; never invent values the instructions do not give;',
  'every instruction fragment that names something absent from the form goes to "unmatched".',
].join(' ');

/**
 * An OpenAI-compatible chat-completions endpoint (hosted APIs, vLLM, Ollama, llama.cpp server).
 * Form-instruction mapping goes to the model; schema, classify and split use the built-in engines
 * handed in until their prompts are written here (documented in docs/decisions.md).
 */
export class OpenAiCompatibleModel implements LanguageModel {
  readonly id: string;
  readonly supportsVision: boolean;
  private readonly fallback: BuiltinLanguageModel;
  constructor(private readonly cfg: NonNullable<LanguageModelConfig['llm']>, engines: BuiltinEngines = {}, private readonly fetchImpl: typeof fetch = fetch) {
    this.id = `openai:${cfg.model}`;
    this.supportsVision = !!cfg.visionModel;
    this.fallback = new BuiltinLanguageModel(engines);
  }
  extractSchema(req: SchemaRequest): Promise<SchemaAnswer> { return this.fallback.extractSchema(req); }
  classify(req: ClassifyRequest): Promise<ClassifyAnswer> { return this.fallback.classify(req); }
  split(req: SplitRequest): Promise<SplitAnswer> { return this.fallback.split(req); }

  async mapFormInstructions(req: FormInstructionsRequest): Promise<FormInstructionsAnswer> {
    const cells = req.cells.map((c) => ({
      index: c.index, label: c.label, type: c.type, page: c.page, currentText: c.currentText,
      ...(c.options ? { options: c.options } : {}), ...(c.maxLength ? { maxLength: c.maxLength } : {}), ...(c.datePattern ? { datePattern: c.datePattern } : {}),
    }));
    const content = await this.chat([
      { role: 'system', content: FORM_SYSTEM_PROMPT },
      { role: 'user', content: JSON.stringify({ cells, instructions: req.instructions }) },
    ]);
    let parsed: z.infer<typeof FormAnswerSchema>;
    try {
      parsed = FormAnswerSchema.parse(JSON.parse(stripFences(content)));
    } catch (e) {
      throw new QuireError('PROC_001', 'The language model returned an answer that is not the expected JSON', { model: this.cfg.model, reason: (e as Error).message.slice(0, 300) });
    }
    const known = new Set(req.cells.map((c) => c.index));
    const unmatched = [...parsed.unmatched];
    const assignments = parsed.assignments.flatMap((a) => {
      if (!known.has(a.cellIndex)) { unmatched.push(a.instruction ?? `${a.cellIndex}: ${a.value}`); return []; }
      return [{ cellIndex: a.cellIndex, value: a.value, confidence: a.confidence ?? 0.9, instruction: a.instruction ?? '', ...(a.note ? { note: a.note } : {}) }];
    });
    return { assignments, unmatched };
  }

  private async chat(messages: { role: string; content: string }[]): Promise<string> {
    const url = `${this.cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.cfg.apiKey ? { authorization: `Bearer ${this.cfg.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.cfg.model, messages, temperature: 0, response_format: { type: 'json_object' } }),
        signal: AbortSignal.timeout(this.cfg.timeoutMs),
      });
    } catch (e) {
      const timeout = (e as Error).name === 'TimeoutError';
      throw new QuireError(timeout ? 'PROC_002' : 'PROC_003', timeout ? 'The language model did not answer in time' : 'The language model endpoint could not be reached', { model: this.cfg.model, reason: (e as Error).message });
    }
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      throw new QuireError(res.status === 429 ? 'PROC_004' : 'PROC_003', `The language model endpoint answered ${res.status}`, { model: this.cfg.model, status: res.status, body: text });
    }
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new QuireError('PROC_001', 'The language model returned no message', { model: this.cfg.model });
    return content;
  }
}

const stripFences = (s: string) => s.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');

/** The configured model: the OpenAI-compatible adapter when QUIRE_LLM_BASE_URL/MODEL are set, else the built-in engine. */
export function createLanguageModel(config: LanguageModelConfig, engines: BuiltinEngines = {}): LanguageModel {
  return config.llm ? new OpenAiCompatibleModel(config.llm, engines) : new BuiltinLanguageModel(engines);
}
