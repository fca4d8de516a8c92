import { QuireError } from '@quire/core';
import type {
  ClassifyAnswer, ClassifyRequest, FormInstructionsAnswer, FormInstructionsRequest, LanguageModel,
  SchemaAnswer, SchemaRequest, SplitAnswer, SplitRequest,
} from '../language-model.js';

/**
 * The offline engines, one per capability. They live in the step packages (@quire/schema,
 * @quire/classify, @quire/split, @quire/forms), which depend on this one, so the caller hands them in.
 */
export interface BuiltinEngines {
  extractSchema?: (req: SchemaRequest) => SchemaAnswer;
  classify?: (req: ClassifyRequest) => ClassifyAnswer;
  split?: (req: SplitRequest) => SplitAnswer;
  mapFormInstructions?: (req: FormInstructionsRequest) => FormInstructionsAnswer;
}

const missing = (what: string) => new QuireError('GENERAL_005', `The built-in engine for ${what} is not part of this build`, { engine: 'builtin', task: what });

/** The deterministic, weight-free adapter: every answer is computed from the document itself. */
export class BuiltinLanguageModel implements LanguageModel {
  readonly id = 'builtin';
  readonly supportsVision = false;

  constructor(private readonly engines: BuiltinEngines = {}) {}

  async extractSchema(req: SchemaRequest): Promise<SchemaAnswer> {
    if (!this.engines.extractSchema) throw missing('schema');
    return this.engines.extractSchema(req);
  }

  async classify(req: ClassifyRequest): Promise<ClassifyAnswer> {
    if (!this.engines.classify) throw missing('classify');
    return this.engines.classify(req);
  }

  async split(req: SplitRequest): Promise<SplitAnswer> {
    if (!this.engines.split) throw missing('split');
    return this.engines.split(req);
  }

  async mapFormInstructions(req: FormInstructionsRequest): Promise<FormInstructionsAnswer> {
    if (!this.engines.mapFormInstructions) throw missing('form instructions');
    return this.engines.mapFormInstructions(req);
  }
}
