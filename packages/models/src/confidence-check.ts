import type { Document } from '@quire/core';
import { monthNumber } from './dates.js';

/**
 * Cross-checks a model's per-field confidence (agentic_confidence) against the evidence it cited.
 * A model's self-reported confidence is not calibrated, and it says nothing about whether the cited
 * elements hold the value; these rules tie the number to what can be checked in the document:
 *
 * - a value whose cited elements do not contain it (text normalised; numbers and dates read in any
 *   common notation) is capped at UNSUPPORTED_CAP; one whose words are only partly there at PARTIAL_CAP;
 * - a value the verification pass changed (effort) is capped at CHANGED_CAP: the model disagreed with
 *   itself about it;
 * - a value the model gave no confidence for gets the evidence's figure (SUPPORTED_DEFAULT when its
 *   citations hold it, else the cap);
 * - a null value has no confidence (null).
 */
const UNSUPPORTED_CAP = 0.3;
const PARTIAL_CAP = 0.6;
const CHANGED_CAP = 0.7;
const SUPPORTED_DEFAULT = 0.6;

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text of every element and table cell by id. */
export function elementTexts(doc: Document): Map<string, string> {
  const out = new Map<string, string>();
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (el.kind === 'table') {
        if (el.id) out.set(el.id, el.cells.map((c) => c.text).join(' '));
        for (const c of el.cells) if (c.id) out.set(c.id, c.text);
      } else if (el.id) {
        out.set(el.id, el.kind === 'figure' ? `${el.caption ?? ''} ${el.text}` : el.text);
      }
    }
  }
  return out;
}

const words = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Every number the text shows, reading 1,234.50 / 1.234,50 / 1 234,50 / (12.00) / -12 alike (unsigned). */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/\d{1,3}(?:[ ,.'\u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?/g)) {
    const t = m[0].replace(/[ '\u00a0\u202f]/g, '');
    const seps = t.match(/[.,]/g) ?? [];
    const last = Math.max(t.lastIndexOf('.'), t.lastIndexOf(','));
    const digitsOnly = t.replace(/[.,]/g, '');
    if (last < 0) out.push(Number(t));
    // the last separator is a decimal point unless exactly three digits follow it (then it groups thousands)
    else if (t.length - last - 1 !== 3) out.push(Number(`${t.slice(0, last).replace(/[.,]/g, '')}.${t.slice(last + 1)}`));
    // "1.500" alone may be one and a half or fifteen hundred: both count
    else if (seps.length === 1) out.push(Number(t.replace(',', '.')), Number(digitsOnly));
    else out.push(Number(digitsOnly));
  }
  return out.filter(Number.isFinite);
}

/** Month words the shared table (dates.ts) does not read: Spanish, Italian, German short forms. */
const MORE_MONTH_WORDS: Record<string, number> = {
  ene: 1, enero: 1, abr: 4, abril: 4, ago: 8, agosto: 8, dic: 12, gen: 1, gennaio: 1, mag: 5, maggio: 5, giu: 6, giugno: 6, lug: 7, luglio: 7,
  ott: 10, ottobre: 10, mayo: 5, junio: 6, julio: 7, okt: 10, dez: 12, maerz: 3,
};
const ENGLISH = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A month word's number: the shared table, the words above, else an English month by its first three letters. */
const monthOf = (t: string): number =>
  monthNumber(t) || MORE_MONTH_WORDS[t] || (/^[a-z]{3,}$/.test(t) ? ENGLISH.indexOf(t.slice(0, 3)) + 1 : 0);

/** An ISO date (YYYY-MM-DD) is in the text when its year, month (number or name) and day all appear. */
function dateSupported(iso: string, text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const toks = words(text);
  // compact forms: 20240305, 05032024, 03052024
  if (toks.some((t) => t === `${m[1]}${m[2]}${m[3]}` || t === `${m[3]}${m[2]}${m[1]}` || t === `${m[2]}${m[3]}${m[1]}`)) return true;
  const nums = toks.filter((t) => /^\d{1,4}$/.test(t)).map(Number);
  const yearOk = nums.includes(y) || nums.includes(y % 100);
  const monthOk = nums.includes(mo) || toks.some((t) => monthOf(t) === mo);
  return yearOk && monthOk && nums.includes(d);
}

/** How well the cited text holds a leaf value: 1 (all of it), a fraction of its words, or 0. */
export function support(value: unknown, cited: string): number {
  if (typeof value === 'boolean') return 1; // a tick or a yes/no is not spelled out in the text
  if (typeof value === 'number') {
    const nums = numbersIn(cited);
    return nums.some((n) => Math.abs(n - value) < 0.005 || Math.abs(Math.abs(n) - Math.abs(value)) < 0.005) ? 1 : 0;
  }
  if (typeof value !== 'string') return 0;
  if (/^\d{4}-\d{2}-\d{2}/.test(value) && dateSupported(value, cited)) return 1;
  const want = words(value);
  if (!want.length) return 1;
  const flatValue = want.join(''), flatCited = words(cited).join('');
  if (flatCited.includes(flatValue)) return 1;
  // partly there: a longer text (a name, an address) whose words are mostly cited; a missing number,
  // though (a code, a house number, a postcode), means the citation holds something else
  const have = new Set(words(cited));
  const missing = want.filter((w) => !have.has(w));
  if (want.length < 3 || missing.some((w) => /\d/.test(w))) return 0;
  return (want.length - missing.length) / want.length;
}

/**
 * The checked confidence tree (mirrors `values`). `previous` is the first answer's values when a
 * verification pass replaced them; a leaf that differs there counts as changed.
 */
export function crossCheckConfidence(
  values: unknown, citations: unknown, confidence: unknown, doc: Document, opts: { previous?: unknown; hasPrevious?: boolean } = {},
): unknown {
  const texts = elementTexts(doc);
  const visit = (v: unknown, cite: unknown, conf: unknown, prev: unknown): unknown => {
    if (v === null || v === undefined) return null;
    if (Array.isArray(v)) return v.map((x, i) => visit(x, Array.isArray(cite) ? cite[i] : undefined, Array.isArray(conf) ? conf[i] : undefined, Array.isArray(prev) ? prev[i] : undefined));
    if (isPlain(v)) return Object.fromEntries(Object.keys(v).map((k) => [k, visit(v[k], isPlain(cite) ? cite[k] : undefined, isPlain(conf) ? conf[k] : undefined, isPlain(prev) ? prev[k] : undefined)]));
    const ids = Array.isArray(cite) ? cite.filter((x): x is string => typeof x === 'string') : [];
    const cited = ids.map((id) => texts.get(id) ?? '').join('\n');
    const s = ids.length ? support(v, cited) : 0;
    const cap = s >= 1 ? 1 : s >= 0.5 ? PARTIAL_CAP : UNSUPPORTED_CAP;
    const given = typeof conf === 'number' && Number.isFinite(conf) ? Math.min(1, Math.max(0, conf)) : Math.min(SUPPORTED_DEFAULT, cap);
    let c = Math.min(given, cap);
    if (opts.hasPrevious && JSON.stringify(prev ?? null) !== JSON.stringify(v)) c = Math.min(c, CHANGED_CAP);
    return Math.round(c * 1000) / 1000;
  };
  return visit(values, citations, confidence, opts.previous);
}
