import { formatDateSection, type DateOptions } from './number-format-date.js';
import { formatGeneral, formatNumericSection } from './number-format-numeric.js';
import { parseFormat, type Section } from './number-format-tokens.js';

export { formatGeneral } from './number-format-numeric.js';
export { parseFormat, type Section, type Tok } from './number-format-tokens.js';

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

/** True when the code shows a date or time (so a cached number is a serial date). */
export function isDateFormat(code: string): boolean {
  return parseFormat(code)[0]?.isDate ?? false;
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

