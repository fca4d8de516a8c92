import { labelSimilarity } from '@quire/models';
import type { FieldKind, FieldSpec } from './field-spec.js';
import { findAmounts, findCurrency } from './values/amounts.js';
import { findDates, type DateContext } from '@quire/models';
import { findEmails, findPhones, findUris, parseBoolean } from './values/patterns.js';

/**
 * Turns the text printed where a value should be into a value of the field's kind, with how well
 * it fits (1: the whole text is exactly such a value; lower when the value is buried in other
 * text or was partly guessed). undefined when nothing of that kind is there.
 */

export interface TypedValue {
  value: unknown;
  fit: number;
  /** The printed text the value came from (what a citation must contain). */
  printed: string;
}

const cleanString = (s: string) => s.replace(/^[\s:=\-–—#|]+/, '').replace(/[\s,;|]+$/, '').trim();

/** How much of the text the matched part covers: a value alone on its line is stronger evidence. */
const coverage = (matched: string, text: string) => {
  const rest = text.replace(matched, '').replace(/[\s:.,;()\-–—#*]/g, '');
  return rest.length === 0 ? 1 : rest.length <= 4 ? 0.95 : 0.85;
};

function dateValue(kind: FieldKind, text: string, ctx: DateContext): TypedValue | undefined {
  const d = findDates(text, ctx)[0];
  if (!d) return undefined;
  // a date leading the value ("20-10-2015 near the mall") is what the label governs
  const cover = d.index === 0 ? Math.max(0.95, coverage(d.raw, text)) : coverage(d.raw, text.replace(/\d{1,2}:\d{2}(:\d{2})?\s*([ap]\.?m\.?)?/i, ''));
  const fit = d.certainty * Math.min(1, cover);
  if (kind === 'date-time') return { value: `${d.iso}T${d.time ?? '00:00:00'}`, fit: d.time ? fit : fit * 0.9, printed: d.raw };
  if (kind === 'date-text') return { value: cleanString(text), fit, printed: cleanString(text) };
  return { value: d.iso, fit, printed: d.raw };
}

function numberValue(field: FieldSpec, kind: FieldKind, text: string): TypedValue | undefined {
  // digits that belong to a date are not amounts
  const dates = findDates(text);
  const inDate = (i: number) => dates.some((d) => i >= d.index && i < d.index + d.raw.length);
  const all = findAmounts(text).filter((a) => !inDate(a.index));
  const wanted = kind === 'percent' ? all.filter((a) => a.percent) : all.filter((a) => !a.percent);
  // "15%" for a plain number field is the printed number, a little less certain; a total is never a rate
  if (!wanted.length && field.isTotal) return undefined;
  const pool = wanted.length ? wanted : all;
  if (!pool.length) return undefined;
  // the amount printed last on a line is the one the label governs ("Total (3 items): 45.00")
  const a = pool[pool.length - 1];
  if (kind === 'integer' && !Number.isInteger(a.value)) return undefined;
  const fit = coverage(a.raw, text) * (pool.length > 1 ? 0.85 : 1) * (wanted.length ? 1 : 0.9);
  return { value: a.value, fit, printed: a.raw.replace(/^\(|\)$/g, '') };
}

function patternValue(kind: FieldKind, text: string): TypedValue | undefined {
  const found = kind === 'email' ? findEmails(text) : kind === 'uri' ? findUris(text) : findPhones(text);
  const f = found[0];
  return f ? { value: f.value, fit: coverage(f.raw, text), printed: f.raw } : undefined;
}

function enumValue(field: FieldSpec, text: string): TypedValue | undefined {
  let best: TypedValue | undefined;
  for (const option of field.enumValues ?? []) {
    if (option === null) continue;
    const sim = labelSimilarity(String(option), text);
    if (sim >= 0.8 && (!best || sim > best.fit)) best = { value: option, fit: sim, printed: text };
  }
  return best;
}

export function typedValue(field: FieldSpec, text: string, ctx: DateContext, selected?: boolean): TypedValue | undefined {
  const t = cleanString(text);
  if (!t) return undefined;
  switch (field.kind) {
    case 'date': case 'date-time': case 'date-text': return dateValue(field.kind, t, ctx);
    case 'time': {
      const m = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\b/.exec(t);
      return m ? { value: `${m[1].padStart(2, '0')}:${m[2]}:${m[3] ?? '00'}`, fit: coverage(m[0], t), printed: m[0] } : undefined;
    }
    case 'number': case 'integer': case 'percent': return numberValue(field, field.kind, t);
    case 'boolean': {
      const b = parseBoolean(t) ?? (selected !== undefined && t.length < 40 ? selected : undefined);
      return b === undefined ? undefined : { value: b, fit: parseBoolean(t) !== undefined ? 1 : 0.8, printed: t };
    }
    case 'email': case 'uri': case 'phone': return patternValue(field.kind, t);
    case 'currency': {
      const c = findCurrency(t);
      return c ? { value: c.code, fit: coverage(c.raw, t) === 1 ? 1 : 0.9, printed: c.raw } : undefined;
    }
    case 'enum': return enumValue(field, t);
    case 'identifier': {
      // "n°562044387 du 02 Juillet", "#BLR_WFLD2015…", "No. INV-7": the first token with a digit
      const m = /(?:^|\s)(?:n[°º]|no\.?|nr\.?|#)?\s*([\p{L}\p{N}][\p{L}\p{N}_\-/.]*\d[\p{L}\p{N}_\-/.]*|\d[\p{L}\p{N}_\-/.]*)/u.exec(t);
      if (!m) return undefined;
      const token = m[1].replace(/[.\-/]+$/, '');
      return { value: token, fit: coverage(token, t), printed: token };
    }
    case 'string': {
      // a "value" that is itself a label ("Date:") or a lone symbol is not a value
      if (/:$/.test(text.trim()) || !/[\p{L}\p{N}]/u.test(t)) return undefined;
      return { value: t, fit: t.length <= 80 ? 1 : 0.7, printed: t };
    }
  }
}
