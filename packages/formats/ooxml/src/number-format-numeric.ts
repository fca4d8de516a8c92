import type { Tok } from './number-format-tokens.js';

/** Numeric sections of a format code: decimals, grouping, scaling, percent, scientific, fractions. */

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

export function formatNumericSection(value: number, tokens: Tok[]): string {
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
