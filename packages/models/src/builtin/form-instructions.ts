import type { FillableCell, FormAssignment, FormInstructionsAnswer, FormInstructionsRequest } from '../language-model.js';
import { labelSimilarity, labelTokens, normalizeLabel } from '../text-match.js';
import { findDate, formatDate } from './date-format.js';
import { parseStatement, splitInstructions, type Statement } from './instruction-parse.js';

const MIN_SCORE = 0.72;

/**
 * The built-in (offline, deterministic) instruction mapper: parses the instructions into
 * statements, matches each to the cell whose label (or option) fits best, and formats the value for
 * that cell. Fragments that name nothing on the form are returned in `unmatched`.
 */
export function mapFormInstructionsBuiltin(req: FormInstructionsRequest): FormInstructionsAnswer {
  const assignments = new Map<number, FormAssignment>();
  const unmatched: string[] = [];
  for (const fragment of splitInstructions(req.instructions)) {
    const st = parseStatement(fragment);
    const a = resolve(st, req.cells);
    if (!a) { unmatched.push(fragment); continue; }
    const prev = assignments.get(a.cellIndex);
    if (!prev || prev.confidence <= a.confidence) assignments.set(a.cellIndex, a);
  }
  return { assignments: [...assignments.values()].sort((x, y) => x.cellIndex - y.cellIndex), unmatched };
}

/** How well a phrase from the instructions names a label: similarity, or containment ("name" in "1 Name (as shown …)"). */
export function labelScore(phrase: string, label: string): number {
  const sim = labelSimilarity(phrase, label);
  const a = labelTokens(phrase), b = labelTokens(label);
  if (!a.length || !b.length) return sim;
  const contained = a.every((t) => b.includes(t)) ? 0.74 + 0.2 * (a.length / b.length) : 0;
  const num = /^(?:question|q|item|line|box|field|no|number|part)\s*#?\s*(\d+[a-z]?)$/i.exec(phrase.trim());
  const numbered = num && new RegExp(`^\\s*(?:question\\s*|q\\s*)?${num[1]}\\b[.):]?`, 'i').test(label) ? 0.95 : 0;
  return Math.max(sim, contained, numbered);
}

function best<T>(items: T[], score: (t: T) => number): { item: T; score: number } | undefined {
  let top: { item: T; score: number } | undefined;
  for (const item of items) {
    const s = score(item);
    if (s >= MIN_SCORE && (!top || s > top.score + 1e-9)) top = { item, score: s };
  }
  return top;
}

function resolve(st: Statement, cells: FillableCell[]): FormAssignment | undefined {
  const make = (c: FillableCell, raw: string, score: number): FormAssignment => {
    const { value, note } = formatValue(c, raw);
    return { cellIndex: c.index, value, confidence: round(score), instruction: st.text, ...(note ? { note } : {}) };
  };
  switch (st.kind) {
    case 'sign': {
      const sig = cells.filter((c) => c.type === 'signature');
      const hit = best(sig.length ? sig : cells.filter((c) => c.type === 'text'), (c) => (c.type === 'signature' ? 0.9 + 0.1 * labelScore('signature', c.label) : labelScore('signature', c.label)));
      return hit && make(hit.item, st.value, hit.score);
    }
    case 'choose': return choose(st.option, st.target, st.on, cells, make);
    case 'fact': {
      const chosen = choose(st.value, undefined, !st.negated, cells, make);
      if (chosen) return chosen;
      const hit = best(cells.filter((c) => c.type === 'text'), (c) => Math.max(labelScore(st.value, c.label), optionScore(c, st.value)));
      return hit && !st.negated ? make(hit.item, st.value, hit.score) : undefined;
    }
    case 'value': {
      const hit = best(cells, (c) => labelScore(st.label, c.label));
      if (hit) return make(hit.item, st.value, hit.score);
      return choose(st.value, st.label, true, cells, make);
    }
    case 'loose': return loose(st.text, cells, make);
  }
}

type Make = (c: FillableCell, raw: string, score: number) => FormAssignment;

/** Selects an option: within the cell named by `target`, or any checkbox whose option or label fits. */
function choose(option: string, target: string | undefined, on: boolean, cells: FillableCell[], make: Make): FormAssignment | undefined {
  const boxes = cells.filter((c) => c.type === 'checkbox' || c.options?.length);
  let pool = boxes;
  if (target) {
    const t = best(boxes, (c) => labelScore(target, c.label));
    if (!t) return undefined;
    pool = [t.item];
  }
  const hit = best(pool.flatMap((c) => (c.options?.length ? c.options.map((o) => ({ c, o })) : [{ c, o: c.label }])), ({ o }) => labelScore(option, o) + (normalizeLabel(o) === normalizeLabel(option) ? 0.05 : 0));
  if (hit) {
    const { c, o } = hit.item;
    const multi = (c.options?.length ?? 0) > 1 || c.type === 'text';
    return make(c, multi ? (on ? o : 'false') : on ? 'true' : 'false', Math.min(1, hit.score));
  }
  if (target && pool.length === 1 && pool[0].type === 'checkbox' && /^(yes|true|no|false)$/i.test(option)) {
    return make(pool[0], /^(yes|true)$/i.test(option) === on ? 'true' : 'false', 0.8);
  }
  return undefined;
}

/** "date of birth 2 Feb 1990": the longest leading words that name a cell are the label, the rest the value. */
function loose(text: string, cells: FillableCell[], make: Make): FormAssignment | undefined {
  const words = text.split(/\s+/);
  let top: { c: FillableCell; value: string; score: number } | undefined;
  for (let k = Math.min(words.length - 1, 8); k >= 1; k--) {
    const label = words.slice(0, k).join(' '), value = words.slice(k).join(' ');
    const hit = best(cells, (c) => labelScore(label, c.label));
    if (hit && (!top || hit.score > top.score)) top = { c: hit.item, value, score: hit.score };
  }
  const d = findDate(text);
  if (d && d.index > 0) {
    const label = text.slice(0, d.index).trim();
    const hit = best(cells, (c) => labelScore(label, c.label));
    if (hit && (!top || hit.score >= top.score)) top = { c: hit.item, value: text.slice(d.index), score: hit.score };
  }
  return top && make(top.c, top.value.replace(/^(is|of|as|to|:)\s+/i, ''), top.score * 0.95);
}

const optionScore = (c: FillableCell, v: string) => Math.max(0, ...(c.options ?? []).map((o) => labelScore(v, o)));

/** Fits a value to its cell: checkbox words, dates in the form's pattern, option spelling, max length (comb separators dropped first). */
export function formatValue(c: FillableCell, raw: string): { value: string; note?: string } {
  let value = raw.trim();
  const notes: string[] = [];
  if (c.type === 'checkbox') {
    if (c.options && c.options.length > 1) {
      const o = best(c.options, (x) => labelScore(value, x));
      if (o) return { value: o.item };
    }
    if (/^(yes|y|true|checked|x|on|✓|✔)$/i.test(value)) return { value: 'true' };
    if (/^(no|n|false|unchecked|off|not .*)$/i.test(value)) return { value: 'false' };
    return { value };
  }
  const dateLike = c.datePattern || /\b(date|dob|born|birth)\b/i.test(c.label);
  if (dateLike && c.datePattern) {
    const d = findDate(value);
    if (d) {
      const formatted = formatDate(d.date, c.datePattern);
      if (formatted !== value) notes.push(`date written as ${c.datePattern}`);
      value = formatted;
    }
  }
  if (c.options?.length && !c.options.includes(value)) {
    const o = best(c.options, (x) => labelScore(value, x));
    if (o) value = o.item;
  }
  if (c.maxLength && value.length > c.maxLength) {
    // codes (ZIP, SSN, phone) lose their separators first; words are cut as they are
    const compact = /\d/.test(value) ? value.replace(/[\s\-/.()]/g, '') : value;
    if (compact.length <= c.maxLength) { value = compact; notes.push('separators removed to fit the field'); }
    else { value = compact.slice(0, c.maxLength); notes.push(`truncated to ${c.maxLength} characters`); }
  }
  return { value, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

const round = (n: number) => Math.round(n * 100) / 100;
