/**
 * Money and numbers as printed: "1,234.56", "1.234,56", "1 234,56", "(1,234.5)", "-12.00",
 * "€ 12,50", "12,50 €", "RM 9.00", "USD 4.11", percentages; currencies from symbols and ISO codes.
 */

export interface FoundAmount {
  value: number;
  raw: string;
  index: number;
  currency?: string;
  /** Printed with a decimal part (prices usually are; ids and years are not). */
  hasDecimals: boolean;
  percent: boolean;
}

const SYMBOLS: [RegExp, string][] = [
  [/€/, 'EUR'], [/£/, 'GBP'], [/¥|円/, 'JPY'], [/₹|\bRs\.?(?=\s?\d)/, 'INR'], [/\bRM(?=\s?\d|\b)/, 'MYR'],
  [/₩/, 'KRW'], [/₽/, 'RUB'], [/₺/, 'TRY'], [/₦/, 'NGN'], [/R\$/, 'BRL'], [/\bCHF\b/, 'CHF'], [/\bS\$/, 'SGD'],
  [/\bA\$/, 'AUD'], [/\bC\$/, 'CAD'], [/\$/, 'USD'],
];

const ISO_CURRENCIES = new Set([
  'USD', 'EUR', 'GBP', 'JPY', 'CNY', 'INR', 'MYR', 'SGD', 'AUD', 'CAD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK',
  'HUF', 'RUB', 'TRY', 'BRL', 'MXN', 'ZAR', 'NZD', 'HKD', 'KRW', 'IDR', 'THB', 'PHP', 'VND', 'AED', 'SAR', 'ILS', 'NGN',
]);

/** The currency a text names: an ISO code first (explicit), else a symbol. */
export function findCurrency(text: string): { code: string; raw: string; index: number } | undefined {
  for (const m of text.matchAll(/\b([A-Z]{3})\b/g)) if (ISO_CURRENCIES.has(m[1])) return { code: m[1], raw: m[1], index: m.index };
  for (const [re, code] of SYMBOLS) {
    const m = re.exec(text);
    if (m) return { code, raw: m[0], index: m.index };
  }
  return undefined;
}

/** "1.234,56" → 1234.56 and friends; undefined when the digits do not read as one number. */
export function parseNumberToken(tok: string): { value: number; hasDecimals: boolean } | undefined {
  let t = tok.replace(/[\s\u00a0\u202f']/g, '');
  if (!/^\d[\d.,]*$/.test(t) || /[.,]{2}/.test(t)) return undefined;
  const lastDot = t.lastIndexOf('.'), lastComma = t.lastIndexOf(',');
  let decimal: '.' | ',' | undefined;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? '.' : ',';
  else if (lastComma >= 0) {
    // one comma followed by 1, 2 (or 4+) digits is a decimal comma; groups of exactly 3 are thousands
    const groups = t.split(',');
    decimal = groups.length === 2 && groups[1].length !== 3 ? ',' : undefined;
  } else if (lastDot >= 0) {
    const groups = t.split('.');
    decimal = groups.length > 2 && groups.slice(1).every((g) => g.length === 3) ? undefined : '.';
  }
  const thousands = decimal === ',' ? '.' : ',';
  if (decimal) {
    const [intPart, frac] = [t.slice(0, t.lastIndexOf(decimal)), t.slice(t.lastIndexOf(decimal) + 1)];
    if (intPart.includes(decimal)) return undefined;
    const groups = intPart.split(thousands);
    if (groups.length > 1 && !groups.slice(1).every((g) => g.length === 3)) return undefined;
    t = groups.join('') + '.' + frac;
  } else {
    const groups = t.split(/[.,]/);
    if (groups.length > 1 && !groups.slice(1).every((g) => g.length === 3)) return undefined;
    t = groups.join('');
  }
  const value = Number(t);
  return Number.isFinite(value) ? { value, hasDecimals: decimal !== undefined } : undefined;
}

const CODES = [...ISO_CURRENCIES].join('|');
// "65. 20": OCR often reads a space after a decimal point; a point, one space and exactly two digits is one price
const NUMBER_RE = new RegExp(String.raw`(?<![\w.,\-/])(\(\s*)?([-+−]\s?)?((?:\b(?:${CODES})|[$€£¥₹₩₽₺₦]|RM|Rs\.?|R\$|S\$|A\$|C\$|CHF)\s?)?(\d{1,3}(?:[\u00a0\u202f ]\d{3})+(?:[.,]\d+)?(?!\d)|\d+\. \d{2}(?![\d.,A-Za-z])|\d[\d.,']*\d|\d)(\s?(?:[$€£¥₹]|(?:${CODES})(?![A-Za-z])))?(\s?%)?(\s*\))?`, 'g');

/** Every number in the text, with sign, currency and percent read from around it. */
export function findAmounts(text: string): FoundAmount[] {
  const out: FoundAmount[] = [];
  for (const m of text.matchAll(NUMBER_RE)) {
    const token = m[4];
    const parsed = parseNumberToken(token);
    if (!parsed) continue;
    const prefix = m[3]?.trim(), suffix = m[5]?.trim();
    const code = [prefix, suffix].map((c) => (c ? findCurrency(c)?.code : undefined)).find(Boolean);
    const negative = Boolean(m[2]) || Boolean(m[1] && m[7]);
    out.push({
      value: negative ? -parsed.value : parsed.value,
      raw: m[0].trim(),
      index: m.index,
      currency: code,
      hasDecimals: parsed.hasDecimals,
      percent: Boolean(m[6]),
    });
  }
  return out;
}
