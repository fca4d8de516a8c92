/**
 * What a field is for and what a value looks like, so that a value only goes where it fits: a name
 * is not an address, an SSN goes only to an SSN-like field.
 */

export type Meaning =
  | 'ssn' | 'ein' | 'tin' | 'phone' | 'email' | 'zip' | 'date'
  | 'address' | 'city' | 'state' | 'cityStateZip'
  | 'name' | 'firstName' | 'middleName' | 'lastName';

/** Field meanings from label words, most specific first. */
const FIELD_WORDS: [RegExp, Meaning][] = [
  [/\bcity\b.*\bstate\b.*\bzip\b|\bcity\b.*\bzip\b|\btown\b.*\bpost(?:al)?\s*code\b/i, 'cityStateZip'],
  [/\bsocial\s+security\b|\bssn\b/i, 'ssn'],
  [/\bemployer\s+identification\b|\bein\b/i, 'ein'],
  [/\btaxpayer\s+identification\b|\btin\b/i, 'tin'],
  [/\be-?mail\b/i, 'email'],
  [/\b(?:tele)?phone\b|\btel\b|\bmobile\b|\bcell\b|\bfax\b/i, 'phone'],
  [/\bzip\b|\bpostal\s*code\b|\bpost\s*code\b/i, 'zip'],
  [/\bdate\b|\bdob\b|\bborn\b|\bbirth\s*day\b/i, 'date'],
  [/\bfirst\s+name\b|\bgiven\s+name\b|\bforename\b/i, 'firstName'],
  [/\bmiddle\s+(?:name|initial)\b|\bm\.?\s*i\.?$/i, 'middleName'],
  [/\blast\s+name\b|\bsurname\b|\bfamily\s+name\b/i, 'lastName'],
  [/\bcity\b|\btown\b/i, 'city'],
  [/\bstate\b|\bprovince\b/i, 'state'],
  [/\baddress\b|\bstreet\b|\bapt\b/i, 'address'],
  [/\bname\b/i, 'name'],
];

export function fieldMeaning(label: string): Meaning | undefined {
  for (const [re, m] of FIELD_WORDS) if (re.test(label)) return m;
  return undefined;
}

/** What a value looks like by its own shape (only shapes that cannot be mistaken). */
export function valueShape(value: string): Meaning | undefined {
  const v = value.trim();
  if (/^\d{3}-\d{2}-\d{4}$/.test(v)) return 'ssn';
  if (/^\d{2}-\d{7}$/.test(v)) return 'ein';
  if (/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(v)) return 'email';
  if (/^(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}$/.test(v)) return 'phone';
  if (/^\d+[a-z]?\s+\S.*\b(?:st|street|ave|avenue|rd|road|blvd|lane|ln|dr|drive|way|ct|court|pl|place)\b\.?/i.test(v)) return 'address';
  return undefined;
}

/** Field meanings a value of each shape may go into. */
const FITS: Partial<Record<Meaning, Meaning[]>> = {
  ssn: ['ssn', 'tin'],
  ein: ['ein', 'tin'],
  email: ['email'],
  phone: ['phone'],
  address: ['address', 'cityStateZip'],
};

/** Does a value of this shape fit a field of this meaning? Fields of no known meaning take anything but the strict ids. */
export function shapeFits(shape: Meaning | undefined, field: Meaning | undefined): boolean {
  if (!shape) return !(field === 'ssn' || field === 'ein' || field === 'email');
  const ok = FITS[shape];
  if (!ok) return true;
  return field === undefined ? shape !== 'ssn' && shape !== 'ein' : ok.includes(field);
}

const NAMEISH: Meaning[] = ['name', 'firstName', 'middleName', 'lastName'];
const PLACEISH: Meaning[] = ['address', 'city', 'state', 'zip', 'cityStateZip'];

/** Do the meanings of the words the writer used and of the field clash (a name told for an address field)? */
export function meaningsClash(said: Meaning | undefined, field: Meaning | undefined): boolean {
  if (!said || !field || said === field) return false;
  const group = (m: Meaning) => (NAMEISH.includes(m) ? 'name' : PLACEISH.includes(m) ? 'place' : ['ssn', 'ein', 'tin'].includes(m) ? 'id' : m);
  return group(said) !== group(field);
}

/** "123 Main St, Apt 4, Springfield, IL 62704" → street, city, state, ZIP (undefined when it does not read as one). */
export function splitAddress(value: string): { street: string; city: string; state: string; zip: string } | undefined {
  const m = /^(.+?),\s*([^,\d][^,]*?),?\s+([A-Za-z]{2}|[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\.?,?\s+(\d{5}(?:-\d{4})?)$/.exec(value.trim());
  return m ? { street: m[1].trim(), city: m[2].trim(), state: m[3].trim(), zip: m[4] } : undefined;
}

/** "John Allen Smith" → first, middle, last; "Smith, John A." → the same. */
export function splitPersonName(value: string): { first: string; middle?: string; last: string } | undefined {
  const v = value.trim().replace(/\s+/g, ' ');
  const comma = /^([^,]+),\s*(\S+)(?:\s+(.+))?$/.exec(v);
  if (comma) return { last: comma[1], first: comma[2], ...(comma[3] ? { middle: comma[3] } : {}) };
  const words = v.split(' ');
  if (words.length < 2 || words.length > 4 || words.some((w) => /\d/.test(w))) return undefined;
  return { first: words[0], last: words[words.length - 1], ...(words.length > 2 ? { middle: words.slice(1, -1).join(' ') } : {}) };
}
