/** Tokenizer for Excel number-format codes: sections, literals, placeholders, date parts, conditions. */

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

