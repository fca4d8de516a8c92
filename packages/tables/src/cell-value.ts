/**
 * Typed reading of a cell's text for dataframe use: numbers in accounting and locale notations,
 * percentages and currency amounts keep their raw text beside the parsed value.
 */
export type CellType = 'number' | 'percent' | 'currency' | 'string' | 'missing' | 'empty';

export interface CellValue {
  type: CellType;
  value: number | string | null;
  /** Currency symbol or code, or "%" for percentages. */
  unit?: string;
}

const MISSING = /^(?:[-‐‑‒–—―]+|n\/?a|n\.a\.|na|nil|none|\.\.+|…|x|\*)$/i;
const CURRENCY = /^(?:[$€£¥₹]|USD|EUR|GBP|JPY|CHF)$/;
/** Sign, currency, digits with thousands separators, decimals, optional trailing percent. */
const NUMERIC = /^([-+−]?)\s*([$€£¥₹]|USD|EUR|GBP|JPY|CHF)?\s*([-+−]?)\s*(\d[\d,.\s' ]*\d|\d)\s*(%|[$€£¥₹])?$/i;

/** Digits with separators to a number: "1,234.5" and "1.234,5" and "1 234,5" (a lone comma with three digits after is a thousands separator). */
function parseDigits(s: string): number | undefined {
  if (/[\s' ]/.test(s) && !/^\d{1,3}([\s' ]\d{3})+([.,]\d+)?$/.test(s)) return undefined;
  const t = s.replace(/[\s' ]/g, '');
  const lastDot = t.lastIndexOf('.'), lastComma = t.lastIndexOf(',');
  let norm: string;
  if (lastDot >= 0 && lastComma >= 0) {
    norm = lastDot > lastComma ? t.replace(/,/g, '') : t.replace(/\./g, '').replace(',', '.');
  } else if (lastComma >= 0) {
    const groups = t.split(',');
    const thousands = groups.length > 2 || (groups.length === 2 && groups[1].length === 3);
    norm = thousands ? t.replace(/,/g, '') : t.replace(',', '.');
  } else if ((t.match(/\./g) ?? []).length > 1) {
    norm = t.replace(/\./g, '');
  } else norm = t;
  if (!/^\d+(\.\d+)?$/.test(norm)) return undefined;
  return Number(norm);
}

export function parseCellValue(raw: string): CellValue {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text === '') return { type: 'empty', value: null };
  if (MISSING.test(text)) return { type: 'missing', value: null };
  let s = text;
  let negative = false;
  const paren = /^\((.*)\)$/.exec(s);
  if (paren) { negative = true; s = paren[1].trim(); }
  const m = NUMERIC.exec(s);
  if (!m) return { type: 'string', value: text };
  const [, sign1, cur, sign2, digits, suffix] = m;
  const n = parseDigits(digits);
  if (n === undefined) return { type: 'string', value: text };
  if (sign1 === '-' || sign1 === '−' || sign2 === '-' || sign2 === '−') negative = !negative;
  const value = negative ? -n : n;
  if (suffix === '%') return { type: 'percent', value, unit: '%' };
  const currency = cur ?? (suffix && CURRENCY.test(suffix) ? suffix : undefined);
  if (currency) return { type: 'currency', value, unit: currency.toUpperCase() };
  return { type: 'number', value };
}
