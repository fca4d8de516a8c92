/**
 * Label matching shared by the built-in engines (schema fields, form instructions, classify):
 * normalization, synonyms and fuzzy similarity. Pure and deterministic.
 */

/** Lowercase, strip accents, turn punctuation into spaces, collapse whitespace. */
export function normalizeLabel(s: string): string {
  return s
    .normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[_\-./\\:;,#()[\]{}"'`*?!|°º№]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const STOP = new Set(['the', 'a', 'an', 'of', 'for', 'to', 'in', 'on', 'and', 'or', 'your', 'my', 'is', 'this', 'please', 'enter', 'no.']);

export function labelTokens(s: string): string[] {
  return normalizeLabel(s).split(' ').filter((t) => t && !STOP.has(t));
}

/**
 * Groups of labels that mean the same field. Each group's first entry is its canonical form.
 * Extend by adding groups; matching treats any two members of a group as identical.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['total', 'amount due', 'balance due', 'total due', 'grand total', 'total amount', 'amount payable', 'total payable', 'invoice total', 'total to pay',
    'total ttc', 'montant ttc', 'net a payer', 'total a payer', 'somme a payer', 'montant total', 'gesamtbetrag', 'endbetrag', 'importe total', 'total incl tax', 'total inclusive'],
  ['invoice number', 'invoice no', 'invoice num', 'invoice id', 'invoice #', 'inv no', 'bill number', 'bill no', 'invoice',
    'facture', 'facture n', 'numero de facture', 'n de facture', 'rechnung', 'rechnungsnummer', 'rechnung nr', 'factura', 'numero de factura', 'receipt no', 'receipt number'],
  ['date', 'invoice date', 'date of issue', 'issue date', 'issued on', 'bill date', 'dated', 'date de facture', 'date facture', 'rechnungsdatum', 'fecha', 'receipt date',
    'dt', 'bill dt', 'txn date', 'transaction date', 'trans date', 'business date', 'bizdate', 'date time'],
  ['due date', 'payment due', 'pay by', 'due by'],
  ['date of birth', 'dob', 'birth date', 'birthdate', 'born on'],
  ['name', 'full name', 'your name', 'applicant name', 'print name', 'printed name'],
  ['first name', 'given name', 'forename'],
  ['last name', 'surname', 'family name'],
  ['phone', 'phone number', 'telephone', 'tel', 'mobile', 'cell phone', 'contact number'],
  ['email', 'e mail', 'email address', 'mail'],
  ['address', 'street address', 'mailing address', 'postal address'],
  ['zip', 'zip code', 'postal code', 'postcode'],
  ['signature', 'sign', 'sign here', 'signed'],
  ['company', 'company name', 'business name', 'vendor', 'seller', 'supplier', 'merchant', 'issuer', 'from', 'sold by'],
  ['customer', 'bill to', 'billed to', 'client', 'buyer', 'sold to'],
  ['tax', 'vat', 'gst', 'sales tax', 'tax amount'],
  ['subtotal', 'sub total', 'net amount', 'net total'],
  ['quantity', 'qty', 'units', 'count'],
  ['unit price', 'price', 'rate', 'unit cost'],
  ['description', 'item', 'item description', 'product', 'details', 'particulars'],
  ['currency', 'curr'],
  ['marital status', 'married', 'single'],
  ['social security number', 'ssn', 'social security no'],
];

const canonical = new Map<string, string>();
for (const group of SYNONYM_GROUPS) for (const m of group) if (!canonical.has(normalizeLabel(m))) canonical.set(normalizeLabel(m), normalizeLabel(group[0]));

/** The canonical synonym of a label (itself when it belongs to no group). */
export const canonicalLabel = (s: string): string => canonical.get(normalizeLabel(s)) ?? normalizeLabel(s);

/** Levenshtein distance (two-row DP). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  let cur = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** 1 − normalized edit distance. */
function stringSimilarity(a: string, b: string): number {
  const m = Math.max(a.length, b.length);
  return m === 0 ? 1 : 1 - editDistance(a, b) / m;
}

/** Token-set similarity with fuzzy token matching (typos count as partial matches). */
function tokenSimilarity(a: string, b: string): number {
  const ta = labelTokens(a), tb = labelTokens(b);
  if (!ta.length || !tb.length) return 0;
  const score = (xs: string[], ys: string[]) =>
    xs.reduce((sum, x) => sum + Math.max(...ys.map((y) => (x === y ? 1 : stringSimilarity(x, y) >= 0.8 ? 0.8 : 0))), 0);
  return (score(ta, tb) + score(tb, ta)) / (ta.length + tb.length);
}

/**
 * How well two labels match, 0..1: 1 for equal or synonymous labels, otherwise the better of whole
 * string and token-set similarity (each canonicalized first).
 */
export function labelSimilarity(a: string, b: string): number {
  const na = normalizeLabel(a), nb = normalizeLabel(b);
  if (!na || !nb) return 0;
  if (na === nb) return 1;
  const ca = canonicalLabel(na), cb = canonicalLabel(nb);
  if (ca === cb) return 0.97;
  return Math.max(stringSimilarity(ca, cb), tokenSimilarity(ca, cb), tokenSimilarity(na, nb));
}

/** Words that qualify a label without changing what it names ("Total (RM)", "Total incl. VAT"). */
const QUALIFIERS = /\b(incl|including|inc|excl|excluding|with|w|in|rm|usd|eur|gbp|inr|myr|sgd|aud|cad|chf)\b.*$/;

/**
 * How well a printed label names a field, 0..1: labelSimilarity, plus credit for a label whose head
 * (its last words, after dropping parentheses and qualifiers) is the field's label — English puts
 * the head noun last, so "Grand Total" and "Round total (RM)" name a total but "Total Tax" does not.
 */
export function fieldLabelScore(field: string, printed: string): number {
  const base = labelSimilarity(field, printed);
  if (base >= 0.95) return base;
  const head = normalizeLabel(printed.replace(/\([^)]*\)/g, ' ')).replace(QUALIFIERS, '').trim();
  const f = canonicalLabel(field);
  const words = head.split(' ').filter(Boolean);
  const fLen = f.split(' ').length;
  if (words.length > fLen && words.length <= fLen + 3) {
    const tail = words.slice(-fLen).join(' ');
    if (tail === f || canonicalLabel(tail) === f) return Math.max(base, 0.86);
  }
  return Math.max(base, head && head !== normalizeLabel(printed) ? labelSimilarity(field, head) * 0.97 : 0);
}

/** True when some member of the label's synonym group (or the label itself) occurs as a phrase in `text`. */
export function mentionsLabel(text: string, label: string): boolean {
  const hay = ` ${normalizeLabel(text)} `;
  const c = canonicalLabel(label);
  const group = SYNONYM_GROUPS.find((g) => normalizeLabel(g[0]) === c);
  const forms = group ? group.map(normalizeLabel) : [normalizeLabel(label)];
  return forms.some((f) => f.length > 1 && hay.includes(` ${f} `));
}
