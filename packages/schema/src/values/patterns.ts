/** Typed patterns the extractor recognizes without a label: emails, URIs, phone numbers, booleans. */

const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const URI_RE = /\b(?:https?:\/\/[^\s<>"')]+|www\.[^\s<>"')]+|(?:[a-z0-9-]+\.)+(?:com|org|net|io|co|gov|edu|fr|de|uk|in|my|eu|info|biz)(?:\/[^\s<>"')]*)?)(?![@\w])/gi;
const PHONE_RE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d[\d\s.-]{5,16}\d/g;

export interface FoundText {
  value: string;
  raw: string;
  index: number;
}

export function findEmails(text: string): FoundText[] {
  return [...text.matchAll(EMAIL_RE)].map((m) => ({ value: m[0], raw: m[0], index: m.index }));
}

export function findUris(text: string): FoundText[] {
  const emails = findEmails(text);
  return [...text.matchAll(URI_RE)]
    .filter((m) => !emails.some((e) => m.index >= e.index && m.index < e.index + e.raw.length))
    .map((m) => ({ value: m[0].replace(/[.,;:]+$/, ''), raw: m[0], index: m.index }));
}

/** Phone numbers: 7 to 15 digits in the usual groupings, not a date or an amount with decimals. */
export function findPhones(text: string): FoundText[] {
  const out: FoundText[] = [];
  for (const m of text.matchAll(PHONE_RE)) {
    const raw = m[0].trim();
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    if (/^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}$/.test(raw)) continue;
    if (/[.,]\d{2}$/.test(raw) && !/[\s-]/.test(raw)) continue;
    out.push({ value: raw, raw, index: m.index });
  }
  return out;
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', 'checked', 'x', 'on', 'selected', 'oui', 'ja', '☑', '☒', '✓', '✔', '■']);
const FALSE_WORDS = new Set(['no', 'n', 'false', 'unchecked', 'off', 'none', 'non', 'nein', '☐', '□']);

/** "Yes", "checked", "☑" → true; "No", "☐" → false; anything else undefined. */
export function parseBoolean(text: string): boolean | undefined {
  const t = text.trim().toLowerCase().replace(/[.:]+$/, '');
  if (TRUE_WORDS.has(t)) return true;
  if (FALSE_WORDS.has(t)) return false;
  return undefined;
}
