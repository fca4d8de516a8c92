import { formatDateSection, type DateOptions } from './number-format-date.js';

/**
 * Excel number formats: turns a cell's stored value into the text Excel displays (en-US). Covers
 * the format language that real workbooks use: up to four sections (positive;negative;zero;text)
 * with conditions, colours, quoted and escaped literals, currency brackets ([$€-407]), digit
 * placeholders (0 # ?), thousands separators and scaling commas, percent, scientific notation,
 * fractions, dates and times (1900 and 1904 systems, [h] elapsed time, AM/PM), and `@` text.
 */

/** Built-in format ids (ECMA-376 18.8.30) as Excel en-US shows them (14 and 22 use the locale's m/d/yyyy). */
export const BUILTIN_NUM_FMTS: Readonly<Record<number, string>> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00',
  5: '"$"#,##0_);("$"#,##0)', 6: '"$"#,##0_);[Red]("$"#,##0)',
  7: '"$"#,##0.00_);("$"#,##0.00)', 8: '"$"#,##0.00_);[Red]("$"#,##0.00)',
  9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?', 13: '# ??/??',
  14: 'm/d/yyyy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM',
  20: 'h:mm', 21: 'h:mm:ss', 22: 'm/d/yyyy h:mm',
  37: '#,##0 ;(#,##0)', 38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;[Red](#,##0.00)',
  41: '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)', 42: '_("$"* #,##0_);_("$"* (#,##0);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* (#,##0.00);_(* "-"??_);_(@_)', 44: '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)',
  45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
};

export type Tok =
  | { t: 'lit'; v: string }
  | { t: 'digit'; v: '0' | '#' | '?' }
  | { t: 'dot' } | { t: 'comma' } | { t: 'pct' } | { t: 'slash' } | { t: 'at' } | { t: 'general' }
  | { t: 'exp'; sign: '+' | '-' }
  | { t: 'date'; v: string }
  | { t: 'ampm'; v: string }
  | { t: 'elapsed'; v: string };

export interface Section {
  tokens: Tok[];
  cond?: { op: string; val: number };
  isDate: boolean;
}

const cache = new Map<string, Section[]>();

/** Parses a format code into sections (cached: a workbook reuses a handful of codes for every cell). */
export function parseFormat(code: string): Section[] {
  let s = cache.get(code);
  if (!s) {
    s = splitSections(code).map(tokenizeSection);
    if (cache.size > 5000) cache.clear();
    cache.set(code, s);
  }
  return s;
}

function splitSections(code: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '"') {
      const j = code.indexOf('"', i + 1);
      const end = j < 0 ? code.length : j;
      cur += code.slice(i, end + 1);
      i = end;
    } else if (ch === '\\' || ch === '_' || ch === '*') {
      cur += code.slice(i, i + 2);
      i++;
    } else if (ch === ';') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const DATE_LETTERS = new Set(['y', 'm', 'd', 'h', 's', 'e']);

function tokenizeSection(src: string): Section {
  const tokens: Tok[] = [];
  let cond: Section['cond'];
  const lit = (v: string) => tokens.push({ t: 'lit', v });
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    const lower = ch.toLowerCase();
    if (ch === '"') {
      const j = src.indexOf('"', i + 1);
      const end = j < 0 ? src.length : j;
      lit(src.slice(i + 1, end));
      i = end;
    } else if (ch === '\\') { lit(src[i + 1] ?? ''); i++; }
    else if (ch === '_') { lit(' '); i++; }
    else if (ch === '*') { i++; }
    else if (ch === '[') {
      const j = src.indexOf(']', i);
      const inner = src.slice(i + 1, j < 0 ? src.length : j);
      i = j < 0 ? src.length : j;
      if (/^(h+|m+|s+)$/i.test(inner)) tokens.push({ t: 'elapsed', v: inner.toLowerCase() });
      else if (inner.startsWith('$')) lit(inner.slice(1).split('-')[0]);
      else {
        const m = /^(<=|>=|<>|<|>|=)\s*(-?[\d.]+)$/.exec(inner);
        if (m) cond = { op: m[1], val: Number(m[2]) };
      }
    } else if (src.slice(i, i + 7).toLowerCase() === 'general') { tokens.push({ t: 'general' }); i += 6; }
    else if (src.slice(i, i + 5).toUpperCase() === 'AM/PM') { tokens.push({ t: 'ampm', v: src.slice(i, i + 5) }); i += 4; }
    else if (src.slice(i, i + 3).toUpperCase() === 'A/P') { tokens.push({ t: 'ampm', v: src.slice(i, i + 3) }); i += 2; }
    else if ((ch === 'E' || ch === 'e') && (src[i + 1] === '+' || src[i + 1] === '-')) {
      tokens.push({ t: 'exp', sign: src[i + 1] as '+' | '-' });
      i++;
    } else if (DATE_LETTERS.has(lower)) {
      let j = i;
      while (j < src.length && src[j].toLowerCase() === lower) j++;
      tokens.push({ t: 'date', v: (lower === 'e' ? 'y' : lower).repeat(j - i) });
      i = j - 1;
    } else if (ch === '0' || ch === '#' || ch === '?') tokens.push({ t: 'digit', v: ch });
    else if (ch === '.') tokens.push({ t: 'dot' });
    else if (ch === ',') tokens.push({ t: 'comma' });
    else if (ch === '%') tokens.push({ t: 'pct' });
    else if (ch === '/') tokens.push({ t: 'slash' });
    else if (ch === '@') tokens.push({ t: 'at' });
    else lit(ch);
  }
  const isDate = tokens.some((t) => t.t === 'date' || t.t === 'ampm' || t.t === 'elapsed');
  return { tokens, cond, isDate };
}

/** True when the code shows a date or time (so a cached number is a serial date). */
export function isDateFormat(code: string): boolean {
  return parseFormat(code)[0]?.isDate ?? false;
}

/** Excel's "General": up to 11 characters, scientific outside 1e-9..1e11. */
export function formatGeneral(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e11 || a < 1e-9) {
    const [m, e] = v.toExponential(5).split('e');
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    const exp = Number(e);
    return `${mant}E${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (Number.isInteger(v)) return String(v);
  const intDigits = Math.max(1, Math.floor(Math.log10(a)) + 1);
  const decimals = Math.max(0, 10 - intDigits - (v < 0 ? 1 : 0));
  let s = v.toFixed(decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

const matches = (c: NonNullable<Section['cond']>, v: number) => {
  switch (c.op) {
    case '<': return v < c.val;
    case '>': return v > c.val;
    case '<=': return v <= c.val;
    case '>=': return v >= c.val;
    case '<>': return v !== c.val;
    default: return v === c.val;
  }
};

function pickSection(sections: Section[], v: number): { sec: Section; value: number } {
  if (sections.some((s) => s.cond)) {
    const hit = sections.find((s) => s.cond && matches(s.cond, v)) ?? sections.find((s, i) => !s.cond && i < 3);
    const sec = hit ?? sections[0];
    return { sec, value: sec === sections[0] ? v : Math.abs(v) };
  }
  if (sections.length === 1) return { sec: sections[0], value: v };
  if (v < 0) return { sec: sections[1], value: -v };
  if (v === 0 && sections.length >= 3) return { sec: sections[2], value: 0 };
  return { sec: sections[0], value: v };
}

export interface FormatOptions extends DateOptions {}

/** The displayed text of a numeric cell value under a format code. */
export function formatNumber(value: number, code: string, opts: FormatOptions = {}): string {
  if (!Number.isFinite(value)) return String(value);
  if (!code || code.toLowerCase() === 'general') return formatGeneral(value);
  const sections = parseFormat(code);
  const { sec, value: v } = pickSection(sections, value);
  if (sec.tokens.length === 0) return '';
  let out: string;
  if (sec.isDate) out = value < 0 ? formatGeneral(value) : formatDateSection(value, sec.tokens, opts);
  else out = formatNumericSection(v, sec.tokens);
  return out.trim();
}

/** The displayed text of a text cell: the 4th section (or an `@` first section) wraps the text. */
export function formatText(text: string, code: string): string {
  if (!code || !code.includes('@')) return text;
  const sections = parseFormat(code);
  const sec = sections.length >= 4 ? sections[3] : sections.find((s) => s.tokens.some((t) => t.t === 'at'));
  if (!sec) return text;
  return sec.tokens.map((t) => (t.t === 'at' ? text : t.t === 'lit' ? t.v : '')).join('').trim();
}

function formatNumericSection(value: number, tokens: Tok[]): string {
  if (tokens.some((t) => t.t === 'general')) {
    return tokens.map((t) => (t.t === 'general' ? formatGeneral(value) : t.t === 'lit' ? t.v : t.t === 'pct' ? '%' : '')).join('');
  }
  if (!tokens.some((t) => t.t === 'digit')) {
    // Literal-only section ("-" for zero in accounting formats); a lone sign comes from the value.
    const text = tokens.map((t) => (t.t === 'lit' ? t.v : t.t === 'pct' ? '%' : '')).join('');
    return value < 0 ? `-${text}` : text;
  }
  if (tokens.some((t) => t.t === 'slash')) return formatFraction(value, tokens);
  return formatDecimal(value, tokens);
}

function formatDecimal(value: number, tokens: Tok[]): string {
  let v = value;
  for (const t of tokens) if (t.t === 'pct') v *= 100;
  const neg = v < 0;
  v = Math.abs(v);
  const dotAt = tokens.findIndex((t) => t.t === 'dot');
  const expAt = tokens.findIndex((t) => t.t === 'exp');
  const intEnd = dotAt >= 0 ? dotAt : expAt >= 0 ? expAt : tokens.length;
  const fracEnd = expAt >= 0 ? expAt : tokens.length;
  const intIdx: number[] = [];
  for (let i = 0; i < intEnd; i++) if (tokens[i].t === 'digit') intIdx.push(i);
  const fracIdx: number[] = [];
  if (dotAt >= 0) for (let i = dotAt + 1; i < fracEnd; i++) if (tokens[i].t === 'digit') fracIdx.push(i);
  const lastInt = intIdx[intIdx.length - 1] ?? -1;
  const firstInt = intIdx[0] ?? -1;
  // Commas right after the last integer placeholder scale by 1000; commas between placeholders group.
  let grouping = false;
  const lastDigit = Math.max(lastInt, fracIdx[fracIdx.length - 1] ?? -1);
  for (let i = 0; i < fracEnd; i++) {
    if (tokens[i].t !== 'comma') continue;
    if (i > firstInt && i < lastInt) grouping = true;
    else if (i > lastDigit && firstInt >= 0) v /= 1000;
  }
  let exponent = 0;
  if (expAt >= 0 && v !== 0) {
    exponent = Math.floor(Math.log10(v));
    const nInt = Math.max(1, intIdx.length);
    if (nInt > 1 && intIdx.some((i) => (tokens[i] as { v: string }).v === '#')) exponent = Math.floor(exponent / nInt) * nInt;
    else exponent -= nInt - 1;
    v /= 10 ** exponent;
  }
  const fixed = toFixedSafe(v, fracIdx.length);
  let [intStr, fracStr = ''] = fixed.split('.');
  if (expAt >= 0 && intStr.length > Math.max(1, intIdx.length) && fracIdx.length + intIdx.length > 0) {
    // Rounding carried the mantissa to the next power of ten.
    v /= 10; exponent += 1;
    [intStr, fracStr = ''] = toFixedSafe(v, fracIdx.length).split('.');
  }
  const out: string[] = tokens.map((t) => (t.t === 'lit' ? t.v : t.t === 'pct' ? '%' : t.t === 'dot' ? '.' : ''));
  fillInteger(out, tokens, intIdx, intStr, grouping);
  fillFraction(out, tokens, fracIdx, fracStr);
  if (expAt >= 0) fillExponent(out, tokens, expAt, exponent);
  const text = out.join('');
  const isZero = /^[0.]*$/.test(intStr + fracStr);
  return neg && !isZero ? `-${text}` : text;
}

function toFixedSafe(v: number, digits: number): string {
  if (v >= 1e21) return BigInt(Math.round(v)).toString() + (digits > 0 ? `.${'0'.repeat(digits)}` : '');
  return v.toFixed(Math.min(digits, 100));
}

function fillInteger(out: string[], tokens: Tok[], intIdx: number[], intStr: string, grouping: boolean) {
  if (intIdx.length === 0) return;
  const minZeros = intIdx.filter((i) => (tokens[i] as { v: string }).v === '0').length;
  let digits = intStr === '0' && minZeros === 0 ? '' : intStr;
  const contiguous = intIdx.every((idx, k) => k === 0 || tokens.slice(intIdx[k - 1] + 1, idx).every((t) => t.t === 'comma'));
  if (contiguous) {
    digits = digits.padStart(minZeros, '0');
    if (grouping) digits = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const spaces = intIdx.filter((i) => (tokens[i] as { v: string }).v === '?').length;
    const pad = Math.max(0, Math.min(spaces, intIdx.length - digits.length));
    out[intIdx[0]] = ' '.repeat(pad) + digits;
    return;
  }
  // Literals between placeholders ("000-00-0000"): fill digits right to left, leftovers go first.
  let rest = digits;
  for (let k = intIdx.length - 1; k >= 0; k--) {
    const ph = (tokens[intIdx[k]] as { v: string }).v;
    if (rest.length > 0) {
      out[intIdx[k]] = k === 0 ? rest : rest.slice(-1);
      rest = k === 0 ? '' : rest.slice(0, -1);
    } else out[intIdx[k]] = ph === '0' ? '0' : ph === '?' ? ' ' : '';
  }
}

function fillFraction(out: string[], tokens: Tok[], fracIdx: number[], fracStr: string) {
  let keep = fracIdx.length;
  while (keep > 0 && fracStr[keep - 1] === '0' && (tokens[fracIdx[keep - 1]] as { v: string }).v !== '0') keep--;
  fracIdx.forEach((idx, k) => {
    const ph = (tokens[idx] as { v: string }).v;
    out[idx] = k < keep ? fracStr[k] : ph === '?' ? ' ' : '';
  });
}

function fillExponent(out: string[], tokens: Tok[], expAt: number, exponent: number) {
  const sign = (tokens[expAt] as { sign: string }).sign;
  const expDigits = tokens.slice(expAt + 1).filter((t) => t.t === 'digit');
  const minDigits = Math.max(1, expDigits.filter((t) => (t as { v: string }).v === '0').length);
  out[expAt] = `E${exponent < 0 ? '-' : sign === '+' ? '+' : ''}`;
  let first = true;
  for (let i = expAt + 1; i < tokens.length; i++) {
    if (tokens[i].t !== 'digit') continue;
    out[i] = first ? String(Math.abs(exponent)).padStart(minDigits, '0') : '';
    first = false;
  }
}

function formatFraction(value: number, tokens: Tok[]): string {
  const neg = value < 0;
  const v = Math.abs(value);
  const slashAt = tokens.findIndex((t) => t.t === 'slash');
  const denTokens = tokens.slice(slashAt + 1);
  const fixedDen = Number(denTokens.filter((t) => t.t === 'lit' && /^\d$/.test(t.v)).map((t) => (t as { v: string }).v).join(''));
  const denPlaces = denTokens.filter((t) => t.t === 'digit').length;
  // A whole-number part exists when digit placeholders are followed by a literal space before the numerator.
  const before = tokens.slice(0, slashAt);
  const spaceAt = before.map((t) => t.t === 'lit' && t.v.trim() === '').lastIndexOf(true);
  const hasWhole = spaceAt > 0 && before.slice(0, spaceAt).some((t) => t.t === 'digit');
  const whole = hasWhole ? Math.floor(v) : 0;
  const frac = v - whole;
  let num = 0, den = 1;
  if (fixedDen > 0) { den = fixedDen; num = Math.round(frac * den); }
  else {
    const maxDen = 10 ** Math.max(1, denPlaces) - 1;
    let best = Infinity;
    for (let d = 1; d <= maxDen; d++) {
      const n = Math.round(frac * d);
      const err = Math.abs(frac - n / d);
      if (err < best - 1e-12) { best = err; num = n; den = d; }
    }
  }
  let w = whole;
  if (hasWhole && num === den) { w += 1; num = 0; }
  const sign = neg ? '-' : '';
  if (hasWhole) return num === 0 ? `${sign}${w}` : `${sign}${w > 0 ? `${w} ` : ''}${num}/${den}`;
  return `${sign}${num}/${den}`;
}
