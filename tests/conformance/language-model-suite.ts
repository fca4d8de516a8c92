import { ERROR_CODES, isQuireError, type ErrorCode } from '@quire/core';
import { documentIds, validatorFor, type FillableCell, type JsonSchema, type LanguageModel } from '@quire/models';
import { documentOf, lines, page } from '../fixtures/documents/builder.js';

/**
 * The LanguageModel port's contract (packages/models/src/language-model.ts), run against each adapter:
 * every method's answer has the documented shape and names only what was asked about (known
 * pipelines, topics, pages, cells and element ids), and every failure is a QuireError with a spec code.
 */

type Method = 'extractSchema' | 'classify' | 'split' | 'mapFormInstructions';
const METHODS: Method[] = ['extractSchema', 'classify', 'split', 'mapFormInstructions'];

export interface LanguageModelHarness {
  /** A model in working order. */
  model: LanguageModel;
  /** Ways the adapter fails, the spec code each surfaces as, and the methods that can meet it (default all). */
  failures: { what: string; model: LanguageModel; code: ErrorCode; methods?: Method[] }[];
  close?(): Promise<void>;
}

export const DOCUMENT = documentOf([
  page(1, [
    ...lines(['ACME Supplies Ltd', 'Invoice number: INV-2024-001', 'Invoice date: 2024-03-15', 'Bill to: Northwind Traders'], 0.1, 0.1),
    { rows: [['Description', 'Qty', 'Amount'], ['Paper A4', '10', '50.00'], ['Toner', '2', '70.00']], at: [0.1, 0.4, 0.9, 0.55] },
    ...lines(['Total: 120.00'], 0.6, 0.6),
  ]),
  page(2, lines(['Terms and conditions', 'Payment is due within 30 days of the invoice date.'], 0.1, 0.1)),
  page(3, lines(['Delivery note', 'Delivered to Northwind Traders on 2024-03-16.'], 0.1, 0.1)),
]);

export const SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total: { type: 'number' },
    vendor: { type: 'object', properties: { name: { type: 'string' } } },
    line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
  },
};

const PIPELINES = [
  { id: 'pl-invoice', name: 'Invoices', description: 'Supplier invoices with a total', keywords: ['invoice', 'total'] },
  { id: 'pl-resume', name: 'Resumes', description: 'Curricula vitae', keywords: ['experience', 'education'] },
];
const TOPICS = [{ name: 'invoice', description: 'the invoice itself' }, { name: 'terms', description: 'terms and conditions' }, { name: 'delivery' }];
const CELLS: FillableCell[] = [
  { index: 0, label: 'Full name', type: 'text', page: 1, currentText: '' },
  { index: 1, label: 'Postcode', type: 'text', page: 1, currentText: '', maxLength: 4 },
  { index: 2, label: 'Subscribe to the newsletter', type: 'checkbox', page: 1, currentText: '' },
];
const INSTRUCTIONS = 'Full name: Jane Doe\nPostcode: 123456\nSubscribe to the newsletter: yes\nFavourite colour: blue';
const IMAGE = { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), mime: 'image/png' };

const inUnitRange = (n: unknown) => typeof n === 'number' && n >= 0 && n <= 1;
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `mirror` has the shape of `values`: null where a value is null, `leaf` checks the rest. */
function expectMirrors(values: unknown, mirror: unknown, leaf: (m: unknown) => boolean, at = ''): void {
  if (values === null || values === undefined) { expect({ at, mirror }).toEqual({ at, mirror: null }); return; }
  if (Array.isArray(values)) {
    expect({ at, isArray: Array.isArray(mirror) && mirror.length === values.length }).toEqual({ at, isArray: true });
    values.forEach((v, i) => expectMirrors(v, (mirror as unknown[])[i], leaf, `${at}/${i}`));
  } else if (isPlain(values)) {
    expect({ at, isObject: isPlain(mirror) }).toEqual({ at, isObject: true });
    for (const [k, v] of Object.entries(values)) expectMirrors(v, (mirror as Record<string, unknown>)[k], leaf, `${at}/${k}`);
  } else expect({ at, leaf: mirror, ok: leaf(mirror) }).toEqual({ at, leaf: mirror, ok: true });
}

/** ajv's complaints about `values`, except a null where a field has no qualifying candidate. */
function schemaViolations(values: unknown): string[] {
  const validate = validatorFor(SCHEMA)!;
  if (validate(values)) return [];
  const at = (pointer: string) => pointer.split('/').slice(1).reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], values);
  return (validate.errors ?? []).filter((e) => at(e.instancePath) !== null).map((e) => `${e.instancePath} ${e.message}`);
}

function call(model: LanguageModel, method: Method): Promise<unknown> {
  switch (method) {
    case 'extractSchema': return model.extractSchema({ document: DOCUMENT, schema: SCHEMA, wantConfidence: true });
    case 'classify': return model.classify({ document: DOCUMENT, pipelines: PIPELINES });
    case 'split': return model.split({ document: DOCUMENT, topics: TOPICS });
    case 'mapFormInstructions': return model.mapFormInstructions({ instructions: INSTRUCTIONS, cells: CELLS });
  }
}

export function describeLanguageModelConformance(name: string, setUp: () => Promise<LanguageModelHarness>): void {
  describe(`LanguageModel conformance: ${name}`, () => {
    let h: LanguageModelHarness;
    beforeAll(async () => { h = await setUp(); });
    afterAll(async () => { await h?.close?.(); });

    it('names itself and offers the vision methods exactly when it declares vision', async () => {
      expect(h.model.id).toMatch(/\S/);
      expect(typeof h.model.supportsVision).toBe('boolean');
      if (h.model.supportsVision) {
        expect([typeof h.model.describeFigure, typeof h.model.readChart]).toEqual(['function', 'function']);
      } else {
        // without vision the methods are absent, or refuse with GENERAL_005
        if (h.model.describeFigure) await expect(h.model.describeFigure({ image: IMAGE })).rejects.toMatchObject({ code: 'GENERAL_005' });
        if (h.model.readChart) await expect(h.model.readChart({ image: IMAGE })).rejects.toMatchObject({ code: 'GENERAL_005' });
      }
    });

    it('extractSchema: values shaped by the schema; citations and confidence mirror them; only ids of the document', async () => {
      const known = documentIds(DOCUMENT);
      for (const wantConfidence of [false, true]) {
        const answer = await h.model.extractSchema({ document: DOCUMENT, schema: SCHEMA, wantConfidence });
        expect(isPlain(answer.values)).toBe(true);
        expect(schemaViolations(answer.values)).toEqual([]);
        expectMirrors(answer.values, answer.citations, (c) => c === null || (Array.isArray(c) && c.length > 0 && c.every((id) => known.has(id))));
        if (wantConfidence) expectMirrors(answer.values, answer.confidence, (c) => c === null || inUnitRange(c));
        for (const note of Object.values(answer.notes ?? {})) expect(typeof note).toBe('string');
      }
    });

    it('classify: one score per candidate in 0..1, best first; the choice is a candidate or null', async () => {
      const answer = await h.model.classify({ document: DOCUMENT, pipelines: PIPELINES });
      expect(answer.scores.map((s) => s.pipelineId).sort()).toEqual(PIPELINES.map((p) => p.id).sort());
      expect(answer.scores.every((s) => inUnitRange(s.score))).toBe(true);
      expect(answer.scores.map((s) => s.score)).toEqual([...answer.scores.map((s) => s.score)].sort((a, b) => b - a));
      expect([null, ...PIPELINES.map((p) => p.id)]).toContain(answer.pipelineId);
      expect(await h.model.classify({ document: DOCUMENT, pipelines: [] })).toEqual({ pipelineId: null, scores: [] });
    });

    it('split: groups of the given topics over pages of the document, ascending, none claimed twice', async () => {
      const answer = await h.model.split({ document: DOCUMENT, topics: TOPICS });
      const claimed: number[] = [];
      for (const g of answer.groups) {
        expect(TOPICS.map((t) => t.name)).toContain(g.topic);
        expect(g.pages.length).toBeGreaterThan(0);
        expect(g.pages).toEqual([...g.pages].sort((a, b) => a - b));
        expect(g.pages.every((n) => DOCUMENT.pages.some((p) => p.number === n))).toBe(true);
        expect(inUnitRange(g.confidence)).toBe(true);
        claimed.push(...g.pages);
      }
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(await h.model.split({ document: DOCUMENT, topics: [] })).toEqual({ groups: [] });
    });

    it('mapFormInstructions: assignments to cells of the form within their limits; the rest reported as unmatched', async () => {
      const answer = await h.model.mapFormInstructions({ instructions: INSTRUCTIONS, cells: CELLS });
      const indexes = answer.assignments.map((a) => a.cellIndex);
      expect(new Set(indexes).size).toBe(indexes.length);
      for (const a of answer.assignments) {
        const cell = CELLS.find((c) => c.index === a.cellIndex);
        expect(cell).toBeDefined();
        expect(typeof a.value).toBe('string');
        if (cell?.maxLength !== undefined) expect(a.value.length).toBeLessThanOrEqual(cell.maxLength);
        expect(inUnitRange(a.confidence)).toBe(true);
        expect(typeof a.instruction).toBe('string');
      }
      expect(answer.assignments.length).toBeGreaterThan(0);
      expect(answer.unmatched.every((u) => typeof u === 'string')).toBe(true);
    });

    it('vision: a description in words and a chart with one value per category in every series', async () => {
      if (!h.model.supportsVision) return; // nothing to check: the first test holds the methods to the flag
      expect(await h.model.describeFigure!({ image: IMAGE, caption: 'Figure 1: Revenue by region' })).toMatch(/\S/);
      const chart = await h.model.readChart!({ image: IMAGE, caption: 'Revenue by region' });
      expect(chart.series.length).toBeGreaterThan(0);
      for (const s of chart.series) expect(s.values.length).toBe(s.categories.length);
    });

    it('fails with spec codes', async () => {
      for (const f of h.failures) {
        for (const method of f.methods ?? METHODS) {
          const err = await call(f.model, method).then(() => undefined, (e: unknown) => e);
          expect({ what: f.what, method, isQuireError: isQuireError(err), code: isQuireError(err) ? err.code : String(err) })
            .toEqual({ what: f.what, method, isQuireError: true, code: f.code });
          expect(ERROR_CODES).toHaveProperty(f.code);
        }
      }
    });
  });
}
