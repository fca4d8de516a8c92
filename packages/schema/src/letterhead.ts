import { labelTokens, normalizeLabel } from '@quire/models';
import { pageLines, type DocIndex } from './doc-index.js';
import type { FieldSpec } from './field-spec.js';
import { findDates } from '@quire/models';
import { isCustomerLabel, isPaperPhrase, isStreetLine, nameBeforeAddress } from './parties.js';
import { readLabel } from './label-lexicon.js';
import { findAmounts } from './values/amounts.js';

/**
 * The letterhead: who issued a document and where they are is usually printed at the top of its
 * first page with no label at all — a name (often the largest text, or the line with a legal form
 * such as "Sdn Bhd", "Ltd", "GmbH"), then the street address, then phone and tax numbers. For a
 * field that asks for an organisation name or an address and finds no labelled value, these give
 * candidates, scored below any labelled match (the layout is a convention, not evidence).
 */

/** Words naming the organisation that issued or sells (in the field's name or description). */
const ORG_WORDS = new Set(['company', 'vendor', 'seller', 'merchant', 'issuer', 'supplier', 'store', 'shop', 'business', 'organisation', 'organization',
  'firm', 'retailer', 'restaurant', 'biller', 'payee', 'provider', 'issuer', 'brand', 'outlet', 'lessor', 'contractor', 'shipper']);
/** Words naming the other party: their name is not in the letterhead. */
const PARTY_WORDS = new Set(['customer', 'client', 'buyer', 'recipient', 'purchaser', 'consignee', 'tenant', 'patient', 'employee', 'applicant', 'bill', 'billed', 'ship', 'shipped', 'deliver', 'delivery']);
const ADDRESS_WORDS = new Set(['address', 'addr', 'street', 'location', 'premises', 'adresse', 'anschrift', 'direccion', 'indirizzo']);

export type LetterheadKind = 'organisation' | 'address';

/** Whether a string field asks for the issuer's name or address (the name decides; the description may add the organisation). */
export function letterheadKind(field: FieldSpec): LetterheadKind | undefined {
  if (field.kind !== 'string') return undefined;
  const name = labelTokens(field.name);
  const label = new Set(field.labels.flatMap((l) => labelTokens(l.text)));
  const described = labelTokens(field.description);
  if (name.some((t) => ADDRESS_WORDS.has(t)) || (name.length <= 1 && name[0] === 'location')) {
    return [...label].some((t) => PARTY_WORDS.has(t)) ? undefined : 'address';
  }
  if (/\b(sold|issued|supplied|provided|billed) by\b/.test(normalizeLabel(field.name))) return 'organisation';
  if ([...label].some((t) => PARTY_WORDS.has(t))) return undefined;
  if ([...label].some((t) => ORG_WORDS.has(t))) return 'organisation';
  // "name" or "from" described as "company that issued the receipt"; a description naming the other party does not count
  const generic = name.every((t) => ['name', 'from', 'by', 'title', 'legal', 'trading'].includes(t));
  if (generic && described.some((t) => ORG_WORDS.has(t)) && !described.slice(0, 4).some((t) => PARTY_WORDS.has(t))) return 'organisation';
  return undefined;
}

/** A value an organisation name cannot be: no word of two letters (a registration number, a date, an amount). */
export function notAName(value: unknown): boolean {
  if (typeof value !== 'string') return true;
  return !/\p{L}{2,}/u.test(value) || findDates(value).some((d) => d.raw.length >= value.trim().length * 0.6);
}

/** A value an address cannot be: a tax or registration number, a phone number, a web or mail address, no words. */
export function notAnAddress(value: unknown): boolean {
  if (typeof value !== 'string' || !/\p{L}{2,}/u.test(value)) return true;
  return REGISTRATION.test(normalizeLabel(value)) || WEB.test(value) || /^\s*(tel|telp|fax|phone|ph|hp|mobile)\b/i.test(value);
}

const STREET = /\b(jalan|jln|jl|lorong|lrg|taman|tmn|persiaran|lebuh|lebuhraya|road|rd|street|st|avenue|ave|boulevard|blvd|lane|drive|highway|hwy|plaza|floor|flr|lot|suite|ste|unit|block|blk|building|bldg|court|place|square|rue|allee|avenue|chemin|strasse|str|weg|platz|via|viale|piazza|calle|avenida|rua|cedex|po box|industrial|kawasan|perindustrian|bandar|kampung|kg|seksyen|mall|centre|center|tower|wisma|menara)\b/;
/** A postcode followed by a place name ("81100 JOHOR BAHRU", "50490, KUALA LUMPUR"), a US state and ZIP, a UK postcode. */
const POSTCODE = /(\b\d{4,6},?\s+\p{L}{2,})|(\b[A-Z]{2}\s+\d{5}(-\d{4})?\b)|(\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b)/u;
/** Five digits set against a place name: "81100JOHOR BAHRU", "50450 W.P. KUALA LUMPUR", "KUALA LUMPUR 50450" (the phone lines are stopped before). */
const LOOSE_POSTCODE = /(\b\d{5}\s*[,.-]?\s*\p{L})|(\p{L}{2,}[\s,.-]+\d{5}\s*[.,]?\s*$)/u;
const LOOKALIKE_DIGITS: Record<string, string> = { B: '8', S: '5', O: '0', D: '0', Q: '0', I: '1', l: '1', Z: '2', G: '6' };
/**
 * Whether a line of an address holds its postcode: as printed, set loosely, or misread by OCR with
 * letters for the digits they resemble ("B17S0 MASAI" for "81750 MASAI": five characters, at least
 * three of them digits, the rest look-alike letters, then a place name).
 */
function hasPostcode(t: string): boolean {
  if (POSTCODE.test(t) || LOOSE_POSTCODE.test(t)) return true;
  const read = lookalikesRead(t, 'address');
  return read !== t && POSTCODE.test(read);
}

/** "12, Jalan …", "No.53 55,57 & 59, …", "109, SS21/1A,", "K3-113, …" (a unit): a house number and a comma open an address. */
const HOUSE_NUMBER = /^(no\.?\s*)?[a-z]{0,2}\d+[a-z]?(\s*[-/&,.]\s*\d+[a-z]?)*\s*,/i;

const PHONE = /\b(tel|telp|fax|phone|ph|hp|mobile|telefon|telephone|tél|whatsapp)\b|\+?\d[\d ()-]{7,}\d/i;
const WEB = /@|www\.|https?:|\.(com|net|org|my|co|de|fr|uk|io)\b/i;
const REGISTRATION = /\b(gst|vat|sst|tax|tin|reg|regn|registration|roc|siret|siren|tva|ust|abn|acn|gstin|pan|cin|company no|co no|business no|ein|kvk|nif|cif)\b/i;
/** Words that name the document, not its issuer ("Amazon Web Services Invoice", "TAX INVOICE", "Invoice Summary"). */
const DOC_TYPE = /^(invoice|invoices|receipt|receipts|bill|statement|quotation|quote|facture|rechnung|factura|fattura|proforma)$/;
/** A document's name in any language the label lexicon knows ("FACTUUR", "FAKTURA", "請求書"). */
function namesDocument(w: string): boolean {
  const r = readLabel(w);
  return r.mods.has('document') && r.unknown === 0 && r.heads.size === 0;
}

/** A line that only names the document ("TAX INVOICE", "RECEIPT", "FACTURE"). */
const namesDocumentLine = (t: string) => nameOf(t) === '' && /\p{L}/u.test(t);

/** A place or state name alone on its line: a few words of letters ("SELANGOR.", "KUALA LUMPUR"). */
const isPlaceName = (t: string) => /^[\p{L} .,'-]{3,30}$/u.test(t.trim()) && t.trim().split(/\s+/).length <= 3 && !namesDocumentLine(t) && !readLabel(t).known;

/** A town, state and country after a postcode: a few words of letters ("KLANG SELANGOR D.E, MALAYSIA"). */
const isTownLine = (t: string) => /^[\p{L} .,'-]{3,50}$/u.test(t.trim()) && t.trim().split(/\s+/).length <= 5 && !namesDocumentLine(t) && !readLabel(t).known;

/** Words that qualify a document type ("Tax Invoice", "Cash Sales", "Official Receipt"); alone they may be part of a name. */
const DOC_QUALIFIER = /^(tax|cash|sales|retail|official|original|copy|duplicate|credit|debit|note|delivery|purchase|order|summary|page|simplified|pro|forma)$/;

interface Line { text: string; ids: string[]; height: number | null; top: number | null; title: boolean; order: number; at?: number }

/** The page's printed lines, a row that spans several layout blocks cut back into its blocks. */
function linesOf(ix: DocIndex, page: number): Line[] {
  const rows = pageLines(ix, page) ?? (ix.byPage.get(page) ?? []);
  const out: Line[] = [];
  const categoryOf = (id: string) => ix.byId.get(id)?.category;
  for (const r of rows) {
    const height = r.box ? r.box.y1 - r.box.y0 : null;
    const top = r.box ? r.box.y0 : null;
    const at = r.box ? r.page * 2 + (r.box.y0 + r.box.y1) / 2 : undefined;
    const ids = [...new Set((r.parts ?? []).map((p) => p.id))];
    // a row across blocks is cut where the page leaves a wide gap ("Lieferant   Käufer"); words set
    // close together stay one line though layout put them in two blocks ("ALAM) SDN BHD")
    if (ids.length > 1 && r.segments?.length) {
      for (const sg of r.segments) {
        const text = sg.text.replace(/\s+/g, ' ').trim();
        if (text) out.push({ text, ids: sg.ids, height: sg.box.y1 - sg.box.y0, top: sg.box.y0, title: sg.ids.some((id) => /Title|Header/.test(categoryOf(id) ?? '')), order: r.order, at });
      }
    } else if (ids.length > 1) {
      for (const id of ids) {
        const text = r.parts!.filter((p) => p.id === id).map((p) => r.text.slice(p.start, p.end)).join(' ').replace(/\s+/g, ' ').trim();
        if (text) out.push({ text, ids: [id], height, top, title: /Title|Header/.test(categoryOf(id) ?? ''), order: r.order, at });
      }
    } else {
      const id = ids[0] ?? r.id;
      out.push({ text: r.text.replace(/\s+/g, ' ').trim(), ids: [id], height, top, title: /Title|Header/.test(categoryOf(id) ?? r.category ?? ''), order: r.order, at });
    }
  }
  // a stray colon, dash or speck read as its own block is not a line of the letterhead
  return out.filter((l) => (l.text.match(/[\p{L}\d]/gu) ?? []).length >= 2);
}

/** Phone, web, tax or registration numbers, dates, labels, prose: the letterhead's furniture, not a name or an address. */
function isFurniture(t: string): boolean {
  if (PHONE.test(t) || WEB.test(t) || REGISTRATION.test(normalizeLabel(t))) return true;
  if (/:\s*\S|:$/.test(t) || /^#|\w_\w/.test(t.trim())) return true;
  // "Company No® 20965-Y" (OCR may garble the label): a number sign after words, then the number
  if (/\p{L}\s+(no|nr|n°)\b\W{0,2}\s*\d{3,}/iu.test(t)) return true;
  const letters = (t.match(/\p{L}/gu) ?? []).length, digits = (t.match(/\d/g) ?? []).length;
  if (letters < 2 || digits > letters) return true;
  if (findDates(t).length) return true;
  return t.split(/\s+/).length > 9 && !STREET.test(normalizeLabel(t)); // a sentence (an address printed on one line is not)
}

const isAddress = (t: string) => !PHONE.test(t) && !WEB.test(t) && !REGISTRATION.test(normalizeLabel(t)) && (STREET.test(normalizeLabel(t)) || POSTCODE.test(t) || HOUSE_NUMBER.test(t.trim()));

/**
 * A name with the document's title taken off its ends ("Amazon Web Services Invoice"); empty when the line
 * is only a document title ("TAX INVOICE", "Cash Sales"). Qualifiers go only with a document type, so
 * "ABC Retail" keeps its last word.
 */
function nameOf(t: string): string {
  const words = t.replace(/\s+/g, ' ').trim().split(' ');
  const kind = (w: string) => (DOC_TYPE.test(normalizeLabel(w)) || namesDocument(w) ? 'type' : DOC_QUALIFIER.test(normalizeLabel(w)) ? 'qualifier' : undefined);
  if (words.every((w) => kind(w))) return '';
  const trim = (from: 'start' | 'end') => {
    let n = 0;
    while (n < words.length && kind(from === 'start' ? words[n] : words[words.length - 1 - n])) n++;
    const run = from === 'start' ? words.slice(0, n) : words.slice(words.length - n);
    if (run.some((w) => kind(w) === 'type')) words.splice(from === 'start' ? 0 : words.length - n, n);
  };
  trim('start');
  trim('end');
  return words.join(' ').replace(/^[-–,.;:\s]+|[-–,;:\s]+$/g, '');
}

/** Legal forms (and the trade words Malaysian and other registries use as such) that end an organisation's name. */
const LEGAL = /\b(sdn\.? ?bhd|bhd|berhad|ltd|limited|llc|llp|inc|incorporated|corp|corporation|co|company|gmbh|ag|kg|ug|sarl|sas|sa|srl|spa|bv|nv|plc|pty|pte|oy|ab|as|enterprises?|trading|industries|group|holdings)\.?$/i;
/** Legal forms that mark a name wherever they stand (OCR may add letters after them). */
const LEGAL_ANYWHERE = /\b(sdn bhd|berhad|ltd|limited|llc|llp|gmbh|plc|pty|pvt|incorporated|corporation)\b/;
const isLegal = (t: string) => LEGAL.test(normalizeLabel(t)) || LEGAL_ANYWHERE.test(normalizeLabel(t));

/** Labels that introduce the other party, whose name and address follow them. */
const PARTY_LABEL = /^\s*(attn|attention|bill(ed)? to|ship(ped)? to|sold to|deliver(ed)? to|invoice to|customer|client|recipient|to)\s*(:|$)|(bill(ed)? to|ship(ped)? to|sold to|billing address|shipping address|delivery address|invoice to|attn)\s*:?\s*$/i;

/**
 * The recipient's lines ("Bill to" / "ATTN: …" and the name and address after it): the other party's
 * name and address are printed like the issuer's, often as high on the page.
 */
function recipientLines(lines: Line[]): Set<number> {
  const out = new Set<number>();
  lines.forEach((l, i) => {
    if (!PARTY_LABEL.test(l.text) && !isCustomerLabel(l.text)) return;
    let end = Math.min(lines.length - 1, i + 2);
    for (let k = i; k <= Math.min(lines.length - 1, i + 3); k++) {
      if (isAddress(lines[k].text) && /\b\d+\b/.test(lines[k].text)) { end = skipBlock(lines, k); break; }
    }
    for (let k = i; k <= end; k++) out.add(k);
  });
  return out;
}

/** The index of the last line of an address block starting at i (to skip the recipient's). */
function skipBlock(lines: Line[], i: number): number {
  let end = i;
  while (end + 1 < lines.length && end - i < 4 && (/,\s*$/.test(lines[end].text) || isAddress(lines[end + 1].text))) end++;
  return end;
}

/** A line that can be (part of) an organisation's name: no furniture, no street, not only the paper's own words ("CASH", "AMOUNT"). */
function isNameLine(name: string): boolean {
  if (isFurniture(name) || !/\p{L}{2,}/u.test(name) || isStreetLine(name) || isPaperPhrase(name)) return false;
  // a price ("Dachstuhl 1.250,00 €"): an item line, not a name
  if (/\d[.,]\d{2}(?!\d)|[$€£¥₹]/u.test(name)) return false;
  // a line opening with a number is a house number or a code — unless words alone follow ("99 SPEED MART")
  if (/^\d/.test(name) && !NUMBERED_NAME.test(name)) return false;
  if (!printedAsName(name)) return false;
  const r = readLabel(name);
  return !(r.known > 0 && r.unknown === 0);
}

/**
 * A name printed letter-spaced for show ("S P E E D   M A R T") reads as single letters: runs of them
 * are joined into words — on a line of mostly single letters only (an initial or two stay as printed).
 * The lines' spacing is already collapsed, so the run is one word ("SPEEDMART").
 */
export function unspaced(t: string): string {
  const tokens = t.trim().split(/\s+/);
  const single = (w: string | undefined) => w !== undefined && /^\p{L}$/u.test(w);
  if (tokens.filter((w) => single(w)).length < Math.max(4, 0.6 * tokens.length)) return t;
  return tokens.reduce((acc, w, i) => (i && !(single(w) && single(tokens[i - 1])) ? `${acc} ${w}` : acc + w), '');
}

/** "32 PUB & BISTRO", "7 ELEVEN STORES": a short number and then only words (a house number is followed by a comma or a street). */
const NUMBERED_NAME = /^\d{1,4}\s+\p{L}{2,}[^\d]*$/u;

/**
 * Names are printed in capitals or with capital initials; a line whose words are mostly lower case is
 * handwriting on the paper (a name scribbled on top of a receipt), a slogan, or OCR noise.
 */
function printedAsName(name: string): boolean {
  const words = name.split(/\s+/).filter((w) => /^\P{L}*\p{L}{2,}/u.test(w));
  const capitalised = words.filter((w) => /^\P{L}*\p{Lu}/u.test(w)).length;
  return words.length > 0 && capitalised * 2 >= words.length;
}

/**
 * A registration number printed after the name on its line: "AEON CO. (M) BHD (126926-H)",
 * "99 SPEED MART S/B (519537-X)". It is not part of the name.
 */
const TRAILING_REGISTRATION = /\s*[({[（［]\s*\p{L}{0,3}\d{4,}[\s-]*[\p{L}\d%]?\s*[)}\]）］]?\s*$/u;
const withoutRegistration = (name: string) => name.replace(TRAILING_REGISTRATION, '').trim();

export interface LetterheadCandidate { value: string; ids: string[]; score: number; order: number; at?: number }

/**
 * The most lines an address runs over: a unit, a floor, a building, a street, a district, the postcode and town,
 * the state (OCR may cut a printed line in two where its words are set apart).
 */
const MAX_ADDRESS_LINES = 8;

/** The issuer's address block: the first address-looking line near the top of page 1 and the lines that continue it. */
function addressBlock(printed: Line[], recipient: Set<number>): { start: number; end: number } | undefined {
  const lines = printed.map((l) => ({ ...l, text: commasMisread(l.text) }));
  for (let i = 0; i < lines.length; i++) {
    if (recipient.has(i) || !inZone(lines[i])) continue;
    // "No: 28, JALAN ASTANA 1C,": the colon after "No" is the house number's, not a label's
    const t = lines[i].text.replace(/^\s*no\s*:\s*(?=\d)/i, 'No ');
    // a house number or postcode line has more digits than letters, yet is no phone or tax number
    if (isFurniture(t) && !((POSTCODE.test(t) || HOUSE_NUMBER.test(t.trim())) && !PHONE.test(t) && !WEB.test(t) && !REGISTRATION.test(normalizeLabel(t)) && !/:/.test(t))) continue;
    // an address opens with a number (house number, postcode): a name with a street word in it
    // ("Book Ta.K (Taman Daya) Sdn Bhd") does not
    if (!isAddress(t) || !/\b\d+\b/.test(t) || isLegal(t)) continue;
    let end = i;
    const stops = (t: string) => PHONE.test(t) || WEB.test(t) || REGISTRATION.test(normalizeLabel(t)) || /:/.test(t) || findDates(t).length > 0 || namesDocumentLine(t);
    const postcoded = () => lines.slice(i, end + 1).some((l) => hasPostcode(l.text));
    while (end + 1 < lines.length && end - i < MAX_ADDRESS_LINES - 1) {
      const next = lines[end + 1].text, prev = lines[end].text;
      if (stops(next)) break;
      // a line goes on after a trailing comma, is itself address-like (street word, postcode), or
      // leads to the postcode line that ends an address ("SETIA ALAM, / SEKSYEN U13, 40170 SHAH ALAM")
      if (/,\s*$/.test(prev) || isAddress(next) || hasPostcode(next)) { end++; continue; }
      if (!postcoded() && lines.slice(end + 1, end + 3).some((l) => hasPostcode(l.text) && !stops(l.text))) { end++; continue; }
      // "81100 JOHOR BAHRU, / JOHOR.": the state after the postcode line; "BANDAR BUKIT RAJA, 41050 /
      // KLANG SELANGOR D.E, MALAYSIA": the town after a line that ends in its postcode
      if (postcoded() && hasPostcode(prev) && isPlaceName(next)) end++;
      else if (/\b\d{4,6}\s*[,.]?\s*$/.test(prev) && isTownLine(next)) end++;
      break;
    }
    end = runToFurniture(lines, i, end, stops);
    return { start: addressOpening(lines, recipient, i, stops), end };
  }
  return undefined;
}

const LETTER_FOR: Record<string, string> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B' };
const DIGIT_FOR: Record<string, string> = { O: '0', o: '0', I: '1', l: '1', S: '5', B: '8' };
/**
 * The street vocabulary's long words, for reading an OCR slip in one letter ("Perirdustrian"); shorter
 * ones have spelling variants a letter apart ("kampong", "kampung").
 */
const STREET_WORDS = STREET.source.replace(/^\\b\(|\)\\b$/g, '').split('|').filter((w) => /^[a-z]{8,}$/.test(w));

/**
 * OCR confuses letters and digits that look alike: "GEM8ILANG" (B), "28I1" (1), "AEON C0." (O), "8" (&). In a
 * word of letters, one look-alike digit between letters is the letter; in a number, a look-alike letter
 * between digits is the digit. In a name, a lone 0 in a word of letters is the letter O ("C0." for
 * "CO."; addresses keep it: "B0-12" is a unit). A long street word read with one letter wrong
 * ("Perindustrlan") is the word. Codes that mix both on purpose ("U13", "17-G", "SS21/1A") are left as printed.
 */
export function lookalikesRead(text: string, kind: 'name' | 'address'): string {
  // a postcode with look-alike letters before its place name: "B17S0 MASAI" (see hasPostcode); in a
  // name, a lone 8 between two words is the ampersand ("STATIONERY 8 BOOKS")
  const read = kind === 'address'
    ? text.replace(/\b[\dBSODQIlZG]{5}\b(?=[\s,.]+\p{L}{2,})/gu, (w) => ((w.match(/\d/g) ?? []).length >= 3 ? w.replace(/[^\d]/g, (c) => LOOKALIKE_DIGITS[c] ?? c) : w))
    : text.replace(/(?<=\p{L}{2,} )8(?= \p{L}{2,})/gu, '&');
  return read.replace(/[\p{L}\d]+/gu, (w) => {
    const letters = (w.match(/\p{L}/gu) ?? []).length, digits = (w.match(/\d/g) ?? []).length;
    if (!digits) {
      if (kind !== 'address' || w.length < 8) return w;
      const lower = w.toLowerCase();
      const word = STREET_WORDS.find((s) => s.length === lower.length && [...s].filter((c, i) => c !== lower[i]).length === 1);
      if (!word) return w;
      return [...word].map((c, i) => (w[i] === w[i].toLowerCase() ? c : c.toUpperCase())).join('');
    }
    if (letters >= 4 && digits === 1 && /\p{L}[0158]\p{L}/u.test(w)) return w.replace(/(?<=\p{L})[0158](?=\p{L})/u, (d) => LETTER_FOR[d]);
    if (digits >= 3 && letters === 1 && /\d[OoIlSB]\d/.test(w)) return w.replace(/(?<=\d)[OoIlSB](?=\d)/, (c) => DIGIT_FOR[c]);
    if (kind === 'name' && digits === 1 && letters >= 1 && /^\p{L}+0$|^0\p{L}+$/u.test(w) && w === w.toUpperCase()) return w.replace('0', 'O');
    return w;
  });
}

/** How often each word (letters and digits, upper-cased) is printed in the document's lines. */
function documentWords(ix: DocIndex): Map<string, number> {
  const out = new Map<string, number>();
  for (const u of ix.units) for (const w of u.text.toUpperCase().match(/[\p{L}\d]+/gu) ?? []) out.set(w, (out.get(w) ?? 0) + 1);
  return out;
}

/**
 * A letterhead repeats its words: the town is in the name and the address ("… (SETIA ALAM) SDN BHD",
 * "JALAN SETIA INDAH", "SETIA ALAM"), a street and its district share a name. OCR misreads one copy
 * ("SE11A", "GETIA") and not the others. A word of five characters or more, printed once, that differs
 * from a word of letters printed at least twice by one letter — or only in its look-alike digits, two at
 * most ("SE11A") — is that word. A word the document prints twice itself is left as printed.
 */
export function repeatedWordsRead(text: string, vocab: ReadonlyMap<string, number>): string {
  const common = [...vocab.entries()].filter(([w, n]) => n >= 2 && w.length >= 5 && /^\p{L}+$/u.test(w)).map(([w]) => w);
  if (!common.length) return text;
  return text.replace(/[\p{L}\d]{5,}/gu, (w) => {
    const up = w.toUpperCase();
    if ((vocab.get(up) ?? 0) >= 2 || (up.match(/\p{L}/gu) ?? []).length < 3) return w;
    const match = common.filter((c) => {
      if (c.length !== up.length || c === up) return false;
      let letters = 0, digits = 0;
      for (let k = 0; k < c.length; k++) if (c[k] !== up[k]) /\d/.test(up[k]) ? digits++ : letters++;
      return letters + digits > 0 && (letters === 0 ? digits <= 2 : letters === 1 && digits === 0);
    });
    if (match.length !== 1) return w;
    return w === w.toUpperCase() ? match[0] : [...match[0]].map((c, k) => (w[k] === w[k].toLowerCase() ? c.toLowerCase() : c)).join('');
  });
}

/**
 * OCR reads a comma in an address as a colon or semicolon ("NO.5: 55,57 & 59,JALAN SAGU 18",
 * "45600 BATANG BERJUNTAI:", "TAMAN SRI MUDA: 40400 SHAH ALAM"). A colon after a digit, ending the line, or
 * between a word that is no label and a postcode with its town, in a line that then reads as an address and
 * names no phone, web or tax number, is such a comma (a label's colon follows a label word).
 */
function commasMisread(t: string): string {
  if (!/[:;]/.test(t)) return t;
  const read = t.replace(/(\d)\s*[:;](?=\s*\S)/g, '$1,').replace(/([\p{L}\d.])\s*[:;]\s*$/u, '$1,')
    // "TAMAN SRI MUDA: 40400 SHAH ALAM": before a postcode and its town, after a word that is no label
    .replace(/(\p{L}+)\s*[:;]\s*(?=\d{5}\s*,?\s*\p{L}{2,})/gu, (m, w: string) => (readLabel(w).known ? m : `${w}, `));
  if (read === t || /[:;]/.test(read) || PHONE.test(read) || WEB.test(read) || REGISTRATION.test(normalizeLabel(read))) return t;
  return isAddress(read) ? read : t;
}

/**
 * The letterhead prints the address and then its phone, tax and registration lines: lines left between
 * the address as read and such a line (at most two, set with the address, no amounts, no name with a
 * legal form, no document title) are the rest of the address — a town or state line whose postcode OCR
 * garbled, a line that lost its trailing comma. Without a furniture line right after them, nothing is added.
 */
function runToFurniture(lines: Line[], i: number, end: number, stops: (t: string) => boolean): number {
  for (let k = end + 1; k <= end + 3 && k < lines.length && k - i < MAX_ADDRESS_LINES; k++) {
    if (k > end + 1 && stops(lines[k].text)) return k - 1;
    const t = lines[k].text;
    if (stops(t) || isLegal(t) || findAmounts(t).some((a) => /[.,]\d{2}$/.test(a.raw)) || !/\p{L}{2,}/u.test(t) || t.split(/\s+/).length > 8 || !setTogether(lines[k - 1], lines[k])) return end;
  }
  return end;
}

/**
 * Where an address found at line i opens: the lines just above it that read as its first parts — a
 * unit or floor ("S117, SECOND FLOOR,", "3RD FLR, AEON TAMAN MALURI SC"), a building or street ending in
 * a comma ("U13/BG BANDAR SETIA ALAM,") — up to the name above them. A line with a legal form is the
 * name; the topmost name-like line is never taken (the letterhead starts with the name).
 */
function addressOpening(lines: Line[], recipient: Set<number>, i: number, stops: (t: string) => boolean): number {
  let start = i;
  while (start > 0 && i - start < 3 && !recipient.has(start - 1)) {
    const t = lines[start - 1].text;
    if (stops(t) || isLegal(t) || !(isAddress(t) || /,\s*$/.test(t))) break;
    if (!lines.slice(0, start - 1).some((l, k) => !recipient.has(k) && isNameLine(withoutRegistration(nameOf(l.text))))) break;
    start--;
  }
  // "NAME / (001451637-M) / PUSAT NIAGA MAJU / 12 JALAN SATU": the registration number closes the name,
  // so the lines between it and the address as found (at most two) are the address's first lines
  for (let k = start - 1; k >= Math.max(1, start - 2); k--) {
    const t = lines[k].text;
    if (recipient.has(k) || stops(t) || isLegal(t) || !/\p{L}{2,}/u.test(t)) break;
    if (isRegistrationLine(lines[k - 1].text)) return k;
  }
  return start;
}

/** A registration number on its own line, labelled or bare ("(001451637-M)", "822737-X", "Co. Reg. 1203194-W"). */
const isRegistrationLine = (t: string) => REGISTRATION.test(normalizeLabel(t)) || !findDates(t).length && /^[\s([{（]*\p{L}{0,3}\s*\d[\d -]{4,}\s*-?\s*\p{L}{0,2}[\s)\]}）.]*$/u.test(t);

/** Lines in the top part of page 1 (the letterhead zone, and below it as far as an address may run on), at most 16 lines. */
function topLines(ix: DocIndex): Line[] {
  if (!ix.units.length) return [];
  const first = ix.units.reduce((m, u) => Math.min(m, u.page), Infinity);
  const lines = linesOf(ix, first);
  // an address that opens in the zone may run on below it (a short slip's letterhead fills its upper half)
  return lines.filter((l) => l.top === null || l.top < RUN_ON).slice(0, 16).flatMap(addressThenFurniture);
}

/** The letterhead zone, where a name or an address opens (a share of the page's height), and how far down an address opened there may run on. */
const ZONE = 0.4, RUN_ON = 0.6;
const inZone = (l: Line) => l.top === null || l.top < ZONE;

/** A phone, fax or tax label that opens the furniture printed on an address line's end. */
const FURNITURE_LABEL = /(?<=[\s,.;])[([]?\s*(?=(tel|telp|fax|phone|ph|hp|h\/p|mobile|gst|sst|vat|co\.? ?reg|reg|roc)\b)/gi;

/**
 * The last line of an address often goes on into the phone or tax number ("81100 JOHOR BAHRU, JOHOR. TEL:
 * 07-350 7405", "TAMAN SRI 47100 PUCHONG (GST ID: …)"): where the words before the first such label hold a
 * postcode, they are a line of the address and the rest another line (the furniture that ends it).
 */
function addressThenFurniture(l: Line): Line[] {
  for (const m of l.text.matchAll(FURNITURE_LABEL)) {
    const head = l.text.slice(0, m.index).replace(/[\s,;:]+$/, ''), tail = l.text.slice(m.index + m[0].length).trim();
    if (!head || !hasPostcode(head) || PHONE.test(head) || WEB.test(head) || REGISTRATION.test(normalizeLabel(head))) return [l];
    return [{ ...l, text: head }, { ...l, text: tail }];
  }
  return [l];
}

/**
 * The issuer's letterhead address on the first page, if there is one: where it ends (the bottom of its
 * last line, 0–1 down the page; a company named below it — after the tax numbers and the document's
 * title — is more likely the customer's: "SIMPLIFIED TAX INVOICE / GOGIANT ENGINEERING SDN BHD"), and
 * its lines that read as address or place ("JOHOR", "AEON TEBRAU CITY,"), normalised: a "name" that is
 * one of those lines is a place, however often it repeats.
 */
export function letterheadAddress(ix: DocIndex): { bottom: number | undefined; places: Set<string> } | undefined {
  const lines = topLines(ix);
  const block = lines.length ? addressBlock(lines, recipientLines(lines)) : undefined;
  if (!block) return undefined;
  const part = lines.slice(block.start, block.end + 1), last = part[part.length - 1];
  const places = part.filter((l) => isAddress(l.text) || isTownLine(l.text) || /,\s*$/.test(l.text));
  return { bottom: last.top !== null && last.height !== null ? last.top + last.height : undefined, places: new Set(places.map((l) => normalizeLabel(l.text))) };
}

/**
 * Letterhead candidates for an organisation-name or address field, best first. Scores stay under
 * 0.75 so that any labelled value (≥ 0.78 label match) outranks them.
 */
export function letterheadCandidates(kind: LetterheadKind, ix: DocIndex): LetterheadCandidate[] {
  const lines = topLines(ix);
  if (!lines.length) return [];
  const recipient = recipientLines(lines);
  const block = addressBlock(lines, recipient);
  if (kind === 'address') {
    if (!block) return [];
    const part = lines.slice(block.start, block.end + 1);
    const vocab = documentWords(ix);
    const value = part.map((l) => repeatedWordsRead(lookalikesRead(commasMisread(l.text), 'address'), vocab)).reduce((acc, t) => (acc ? (/[,.]$/.test(acc) ? `${acc} ${t}` : `${acc}, ${t}`) : t), '');
    // a postcode or a street word is stronger evidence than a house number alone
    const strong = part.some((l) => POSTCODE.test(l.text) || STREET.test(normalizeLabel(l.text)));
    return [{ value, ids: [...new Set(part.flatMap((l) => l.ids))], score: strong ? 0.62 : 0.5, order: part[0].order, at: part[0].at }];
  }
  // the name is above the address (or, without one, among the first lines)
  // (or on the address's first line, before it: "Northwind Supplies, Inc., 221 Harbor Road, Portland OR 97201")
  const first = block ? lines[block.start].text : '', cut = nameBeforeAddress(first);
  const opensWithName = cut !== first && !/\d/.test(cut) && isNameLine(cut);
  const zone = (block ? lines.slice(Math.max(0, block.start - 6), block.start + (opensWithName ? 1 : 0)) : lines.slice(0, 6)).filter(inZone);
  const heights = lines.map((l) => l.height).filter((h): h is number => h !== null).sort((a, b) => a - b);
  const median = heights.length ? heights[Math.floor(heights.length / 2)] : null;
  const named = zone.map((l) => ({ l, name: nameBeforeAddress(withoutRegistration(nameOf(unspaced(l.text)))) }))
    .filter(({ l, name }) => name && !recipient.has(lines.indexOf(l)) && isNameLine(name) && !isPaperPhrase(l.text));
  // a line that only says what kind of business it is describes the name above it ("THREE STOOGES / BISTRO &
  // CAFE"); it is no name of its own — unless the name above goes on into it ("HARDWARE & / ELECTRICAL")
  const described = named.filter((n, k) => !(k > 0 && isTradeLine(n.name) && lines.indexOf(named[k - 1].l) === lines.indexOf(n.l) - 1 && !CONNECTOR_END.test(named[k - 1].name)));
  const groups = nameGroups(described, lines);
  const nearest = groups.length ? groups[groups.length - 1] : undefined;
  const vocab = documentWords(ix);
  const out = groups.map((g) => {
    const first = g[0].l, name = repeatedWordsRead(lookalikesRead(g.map((n) => n.name).join(' '), 'name'), vocab);
    let score = 0.5;
    if (isLegal(g[g.length - 1].name)) score += 0.15;
    if (g.some((n) => n.l.title)) score += 0.05;
    if (median !== null && first.height !== null && first.height >= median * 1.2) score += 0.05;
    // the line right above the address is where the name is printed
    if (block && g === nearest) score += 0.12;
    return { value: name, ids: g.flatMap((n) => n.l.ids), score: Math.min(0.74, score), order: first.order, at: first.at };
  });
  return out.sort((a, b) => b.score - a.score || a.order - b.order);
}

/**
 * A long name wraps onto the next line: "AIK HUAT HARDWARE / ENTERPRISE (SETIA / ALAM) SDN BHD",
 * "HOME MASTER HARDWARE & / ELECTRICAL", "LIAN CHI PU TIAN VEGETARIAN / RESTAURANT SDN BHD". Consecutive
 * name lines set as one block are one name when the upper line is full (at least about as long as
 * the next) and the name visibly goes on: the upper line ends in a connector or an open bracket, the
 * lower line ends in a legal form (or opens a bracket that a legal form closes on the line after), or
 * the two are set solid, with no leading between them. A shorter line above is a brand or logo; a line
 * below, with leading, that does not go on is a tagline ("THREE STOOGES / BISTRO & CAFE").
 */
function nameGroups<T extends { l: Line; name: string }>(named: T[], lines: Line[]): T[][] {
  const groups: T[][] = [];
  for (const n of named) {
    const group = groups[groups.length - 1];
    const prev = group?.[group.length - 1];
    const next = (k: number) => named.find((m) => lines.indexOf(m.l) === lines.indexOf(n.l) + k);
    if (prev && group.length < 3 && lines.indexOf(n.l) === lines.indexOf(prev.l) + 1 && continuesName(prev, n, next(1))) group.push(n);
    else groups.push([n]);
  }
  return groups;
}

type Named = { l: Line; name: string };

/** A name line that ends in a connector goes on on the next line ("HOME MASTER HARDWARE &"). */
const CONNECTOR_END = /(&|\+|-|\band|\bof|\bthe|\bdan)\s*$/i;

/** Whether `lower` carries on the name begun on `upper` (`after` is the name line below `lower`, if any). */
function continuesName(upper: Named, lower: Named, after: Named | undefined): boolean {
  if (upper.name.length < 0.8 * lower.name.length || isLegal(upper.name) || !setTogether(upper.l, lower.l) || !sameSize(upper.l, lower.l)) return false;
  if (CONNECTOR_END.test(upper.name) || opensBracket(upper.name) || isLegal(lower.name)) return true;
  // "AIK HUAT HARDWARE / ENTERPRISE (SETIA / ALAM) SDN BHD": the line below goes on into a legal form
  if (after !== undefined && opensBracket(lower.name) && isLegal(after.name) && setTogether(lower.l, after.l)) return true;
  // set solid, with no leading between the lines, as a name printed large over two lines is — unless the
  // line below only says what kind of business it is ("THREE STOOGES / BISTRO & CAFE"): a descriptor, not the name
  return tight(upper.l, lower.l) && !isTradeLine(lower.name);
}

/** Words that say what kind of business a name is (a descriptor under a name: "BISTRO & CAFE", "BAKERY & CONFECTIONERY"). */
const TRADE = new Set(['bistro', 'cafe', 'café', 'coffee', 'restaurant', 'restoran', 'bar', 'pub', 'grill', 'kitchen', 'bakery', 'confectionery', 'catering',
  'hardware', 'electrical', 'stationery', 'books', 'bookstore', 'mart', 'minimart', 'supermarket', 'market', 'store', 'stores', 'shop', 'boutique', 'pharmacy',
  'florist', 'salon', 'spa', 'laundry', 'tailor', 'optical', 'clinic', 'food', 'foods', 'beverage', 'beverages', 'lounge', 'house', 'court', 'deli', 'steakhouse']);
const isTradeLine = (t: string) => {
  const words = normalizeLabel(t).split(' ').filter((w) => !['and', '&', 'n'].includes(w));
  return words.length > 0 && words.length <= 4 && words.every((w) => TRADE.has(w));
};

/** One name wraps in one size of type; a trading name set larger over the legal name is another line. */
function sameSize(a: Line, b: Line): boolean {
  if (a.height === null || b.height === null) return true;
  return Math.max(a.height, b.height) <= 1.3 * Math.min(a.height, b.height);
}

function tight(upper: Line, lower: Line): boolean {
  if (upper.height === null || lower.height === null || upper.top === null || lower.top === null) return false;
  return lower.top - (upper.top + upper.height) < 0.2 * Math.min(upper.height, lower.height);
}

const opensBracket = (t: string) => (t.match(/\(/g) ?? []).length > (t.match(/\)/g) ?? []).length;

/**
 * Two lines printed as one block: the lower one under the upper (not beside it: its top lower by a
 * good part of a line; OCR boxes padded for tall glyphs may overlap the line above), the gap between
 * them less than a line.
 */
function setTogether(upper: Line, lower: Line): boolean {
  if (upper.height === null || lower.height === null || upper.top === null || lower.top === null) return true;
  const gap = lower.top - (upper.top + upper.height);
  return lower.top >= upper.top + 0.3 * Math.min(upper.height, lower.height) && gap <= 0.8 * Math.min(upper.height, lower.height);
}
