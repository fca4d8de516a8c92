import { canonicalLabel, fieldLabelScore, mentionsLabel, normalizeLabel, SYNONYM_GROUPS } from '@quire/models';
import { below, crossesElements, pageLines, rightOf, unitAt, type DocIndex, type RowPart, type Unit } from './doc-index.js';
import { isGenericField, type FieldSpec } from './field-spec.js';
import { headerRole } from './item-grid.js';
import { conceptLabelScore, readLabel } from './label-lexicon.js';
import { documentCurrency } from './values/currency.js';
import { letterheadAddress, letterheadCandidates, letterheadKind, notAName, notAnAddress } from './letterhead.js';
import { customerField, isNameLike, nameBeforeAddress, partyCandidates } from './parties.js';
import { typedValue, type TypedValue } from './typed-value.js';
import { findAmounts } from './values/amounts.js';
import { findDates, type DateContext } from '@quire/models';

/**
 * Candidate values for one scalar field, each with the evidence behind it: how well the printed
 * label names the field, how well the text fits the field's kind, and where the value sits
 * relative to its label (same line, right, below, next cell) — or no label at all (a lone pattern).
 */

export interface Candidate {
  value: unknown;
  printed: string;
  ids: string[];
  label: number;
  fit: number;
  proximity: number;
  score: number;
  order: number;
  /** Where the value is printed: page × 2 + vertical centre (undefined without geometry), for "printed last". */
  at?: number;
  how: 'inline' | 'inline-nosep' | 'right' | 'below' | 'cell-right' | 'cell-below' | 'pattern' | 'letterhead';
  /** A total after a rounding adjustment (it outranks the unrounded one). */
  rounded?: boolean;
  /** An amount the summary lines above it add up to (subtotal + tax + … ). */
  summed?: boolean;
  /** For a summed total: the amounts it was summed from and through (the subtotal, intermediate sums) — parts of it, not it. */
  components?: number[];
  /** Printed under a tax summary heading ("GST SUMMARY", "VAT analysis"): that table's totals are the net and the tax. */
  inTaxSummary?: boolean;
  /** What the customer handed over less the change given back is this amount (cash − change = total). */
  tendered?: boolean;
}

const LABEL_MIN = 0.78;
/** The top of a first page where a letterhead is printed (as a share of the page height). */
const LETTERHEAD_ZONE = 0.4;
/** An issuer's name or address needs a label that names it ("Vendor", "Company"), not one its description merely mentions (0.82). */
const ISSUER_LABEL_MIN = 0.85;

const PROXIMITY: Record<Candidate['how'], number> = {
  inline: 1, 'cell-right': 0.97, right: 0.95, below: 0.92, 'cell-below': 0.9, 'inline-nosep': 0.88, pattern: 0.5, letterhead: 1,
};

const KNOWN_LABELS = new Set(SYNONYM_GROUPS.flat().map(normalizeLabel));

export interface SearchContext {
  ix: DocIndex;
  dates: DateContext;
  /** Every field label in the schema: a "value" that is one of them is another field's label. */
  schemaLabels: string[];
}

export function labelScore(field: FieldSpec, text: string, ctx?: SearchContext): number {
  const t = text.replace(/[:#*]+\s*$/, '').trim();
  if (!t || t.length > 60 || /^\d/.test(t)) return 0;
  let best = 0;
  // the label's meaning in any language ("Factuurnummer", "Data wystawienia"); a rival meaning
  // ("Vervaldatum" for the invoice date, "MwSt" for the total) rules the label out
  if (field.concept) {
    const meant = conceptLabelScore(field.concept, t);
    if (meant < 0) return 0;
    best = meant;
  }
  for (const v of field.labels) best = Math.max(best, fieldLabelScore(v.text, t) * v.weight, leadingLabelScore(v.text, t) * v.weight);
  // the description may name the printed label ("the total amount due"), a weaker signal — unless
  // the label names another field of the schema ("issued the invoice" is not "Invoice Number")
  if (best < 0.82 && field.description && t.split(/\s+/).length <= 4 && mentionsLabel(field.description, t) && !namesOtherField(field, t, ctx)
    && !(field.isTotal && PARTIAL.test(normalizeLabel(t)))) best = 0.82;
  if (field.isTotal && best >= LABEL_MIN) best = totalQualified(best, t);
  // "Payment due date", "Date limite de paiement": a deadline answers only a field that asks for one
  if (isDateKind(field) && best >= LABEL_MIN && isDeadline(t) && !asksForDeadline(field)) return 0;
  return best;
}

/** "Total (excluding GST)" is a part of what was paid; "Total (inclusive of GST)", "Grand total" is all of it. */
const EXCLUDING = /\b(excl\w*|exclusive|before|without|ht|sub\s?total|pre[- ]?tax)\b/i;
const INCLUDING = /\b(incl\w*|inclusive|with|ttc|grand|rounded|payable|due|to pay|nett total)\b/i;

function totalQualified(score: number, printed: string): number {
  if (EXCLUDING.test(printed)) return Math.max(LABEL_MIN, score * 0.92);
  if (INCLUDING.test(printed)) return Math.min(1, score + 0.04);
  return score;
}

/** Words that turn a total into a part of it ("Total Qty", "Total excl. VAT", "Total Tax"). */
const PARTIAL = /\b(tax|taxes|vat|gst|sst|net|excl|ex|ht|before|sub|qty|quantity|items?|discount|savings?|weight|points|rounding|change|units?)\b/;

/** The field's label leading a short phrase: "Total for this invoice", "Total facture" (head first). */
function leadingLabelScore(field: string, printed: string): number {
  const f = canonicalLabel(field).split(' ');
  const p = normalizeLabel(printed).split(' ');
  if (p.length <= f.length || p.length > f.length + 4 || f.some((w, i) => p[i] !== w)) return 0;
  const rest = p.slice(f.length).join(' ');
  // "Total sales (inclusive of GST)": a tax word after "inclusive" is still the whole amount
  if (!/\d/.test(rest) && /\b(incl\w*|inclusive|including)\b/.test(rest) && !/\b(excl\w*|exclusive)\b/.test(rest)) return 0.84;
  // "Total Sa clusive of GST)": OCR lost the qualifier's first letters — whole or part, the tax word
  // is its object, not the head; such a total competes unqualified
  if (!/\d/.test(rest) && /\b(?!incl|excl)\w*clu(sive|ding|ded)\b/.test(rest)) return 0.84;
  return /\d/.test(rest) || PARTIAL.test(rest) || KNOWN_LABELS.has(rest) ? 0 : 0.84;
}

function namesOtherField(field: FieldSpec, label: string, ctx?: SearchContext): boolean {
  return (ctx?.schemaLabels ?? []).some((other) => normalizeLabel(other) !== normalizeLabel(field.name) && fieldLabelScore(other, label) >= 0.85);
}

function looksLikeLabel(text: string, ctx: SearchContext): boolean {
  const t = text.trim();
  // ends like a label, or is itself a "label: value" pair
  if (/:$/.test(t) || /^[\p{L}][^:]{0,40}:\s*\S/u.test(t)) return true;
  const n = normalizeLabel(t);
  if (KNOWN_LABELS.has(n) || canonicalLabel(n) !== n) return true;
  return ctx.schemaLabels.some((l) => normalizeLabel(l) === n);
}

/** The printed rows of every page: from the page words, or grouped from the lines where no words were given. */
function printedRows(ctx: SearchContext): Unit[] {
  if (ctx.ix.rows.length) return ctx.ix.rows;
  return [...new Set(ctx.ix.units.map((u) => u.page))].flatMap((p) => pageLines(ctx.ix, p) ?? []);
}

/** A label and value paired along a printed row across blocks: as good as "right of", a little less sure. */
const ROW_PROXIMITY = 0.96;

const positionOf = (u: Unit): number | undefined => (u.box ? u.page * 2 + (u.box.y0 + u.box.y1) / 2 : undefined);

/** The row parts the printed value lies in (the last occurrence: values follow their labels). */
function partsOf(u: Unit, printed: string): RowPart[] {
  if (!u.parts) return [];
  const at = u.text.lastIndexOf(printed);
  return at < 0 ? [] : u.parts.filter((p) => p.start < at + printed.length && p.end > at);
}

/** The elements a value cites: the unit's own id, or in a row the elements the printed value lies in. */
function citeIn(u: Unit, printed: string): string[] {
  const ids = partsOf(u, printed).map((p) => p.id);
  return ids.length ? [...new Set(ids)] : [u.id];
}

function make(field: FieldSpec, tv: TypedValue, u: Unit, label: number, how: Candidate['how'], ids = citeIn(u, tv.printed)): Candidate {
  const proximity = PROXIMITY[how] * (u.parts ? ROW_PROXIMITY : 1);
  // in a row, how well the value itself was read (a garbled label is scored by the label match)
  const held = partsOf(u, tv.printed);
  const read = held.length ? Math.min(...held.map((p) => p.confidence)) : u.confidence;
  const score = label * tv.fit * proximity * Math.sqrt(Math.max(0.05, read));
  return { value: tv.value, printed: tv.printed, ids, label, fit: tv.fit, proximity, score, order: u.order, at: positionOf(u), how };
}

/** "Invoice No: 123  Date: 2 Feb 2024": every colon splits a label (the words before) from a value. */
function inlinePairs(text: string): { label: string; value: string }[] {
  const colons = [...text.matchAll(/:(?!\/\/)/g)].map((m) => m.index).filter((i) => !/\d/.test(text[i - 1] ?? '') || !/\d/.test(text[i + 1] ?? ''));
  const pairs: { label: string; value: string }[] = [];
  let labelStart = 0;
  colons.forEach((c, k) => {
    const label = text.slice(labelStart, c).trim();
    let valueEnd = text.length, nextStart = text.length;
    if (k + 1 < colons.length) {
      const seg = text.slice(c + 1, colons[k + 1]);
      const gap = /(\s{2,}|\t|\|)(?=[^\s|][^\t|]*$)/.exec(seg);
      // the next label is after a wide gap, else its trailing capitalized words (at most three, and
      // fewer where three would take the whole value: "No: FAB123 Invoice Date: 03-02-2017")
      let cut = gap ? gap.index : -1;
      for (let n = 3; !gap && n >= 1 && cut <= 0; n--) cut = seg.search(new RegExp(`(?:\\s+[A-Z#][\\w#.]*){${n}}\\s*$`));
      valueEnd = nextStart = c + 1 + (cut > 0 ? cut : seg.length);
    }
    pairs.push({ label, value: text.slice(c + 1, valueEnd).trim() });
    labelStart = nextStart;
  });
  return pairs;
}

function inlineCandidates(field: FieldSpec, u: Unit, ctx: SearchContext, out: Candidate[]): void {
  for (const p of inlinePairs(u.text)) {
    const label = labelScore(field, p.label, ctx);
    if (label < LABEL_MIN || !p.value) continue;
    const tv = typedValue(field, p.value, ctx.dates, u.selected);
    if (tv) out.push(make(field, tv, u, label, 'inline'));
  }
  // no separator: "TOTAL 9.00", "Invoice Number 12345"
  // each word and where it starts, so the value keeps its spacing ("Total  1  278.61": two amounts, not 1 278.61)
  const tokens = [...u.text.matchAll(/\S+/g)];
  const words = tokens.map((m) => m[0]), starts = tokens.map((m) => m.index);
  if (u.text.includes(':') || words.length < 2) {
    if (words.length >= 2 && !out.some((c) => c.order === u.order && c.how === 'inline')) labelBeforeValue(field, u, ctx, out);
    return;
  }
  let best: Candidate | undefined;
  for (let k = 1; k <= Math.min(5, words.length - 1); k++) {
    const label = labelScore(field, words.slice(0, k).join(' '), ctx);
    if (label < LABEL_MIN) continue;
    const rest = u.text.slice(starts[k]).trim();
    if (field.kind === 'string' && !(/\d/.test(rest) || (label >= 0.95 && words.length - k <= 6))) continue;
    const tv = typedValue(field, rest, ctx.dates, u.selected);
    const governing = tv && withWordsBetween(field, words.slice(0, k).join(' '), rest, tv.printed, label);
    const c = tv && governing && make(field, tv, u, governing, 'inline-nosep');
    if (c && (!best || c.score > best.score)) best = c;
  }
  if (best) out.push(best);
  else labelBeforeValue(field, u, ctx, out);
}

/**
 * Words printed between a label and its amount or date can qualify the label: "Total Qty 2" is a
 * count, not the total; "Date limite de paiement le 05 Juillet" is a deadline, not the document's
 * date. Returns the label score to use — 0 when such a word turns the label into another one — and
 * ignores everything else between (currency marks, OCR'd dot leaders "TOTAL AMT.....RM 60.31").
 */
function withWordsBetween(field: FieldSpec, label: string, rest: string, printed: string, score: number): number {
  const isDate = isDateKind(field);
  if (!isDate && !['number', 'integer', 'percent'].includes(field.kind)) return score;
  const at = isDate ? findDates(rest)[0]?.index ?? -1 : rest.lastIndexOf(printed);
  if (at <= 0) return score;
  const between = normalizeLabel(rest.slice(0, at));
  if (!/\p{L}{2}/u.test(between)) return score;
  if (field.isTotal) {
    // "TOTAL INCLUDES GST 6%  9.00": the amount the tax is included in; whether it is that total or the
    // tax itself, the page's arithmetic decides (taxLines)
    if (INCLUDES_TAX.test(between) && !EXCLUDES_TAX.test(between)) return totalQualified(score, `${label} ${between}`);
    if (PARTIAL.test(between)) return 0;
    return totalQualified(score, `${label} ${between}`);
  }
  if (isDate && isDeadline(between) && !asksForDeadline(field)) return 0;
  return score;
}

const INCLUDES_TAX = /\b(incl\w*|inclusive|including|with)\b/;
const EXCLUDES_TAX = /\b(excl\w*|exclusive|excluding|without|before|ex|sub|qty|quantity|items?)\b/;

const isDateKind = (f: FieldSpec) => f.kind === 'date' || f.kind === 'date-time' || f.kind === 'date-text';
const asksForDeadline = (f: FieldSpec) => f.concept === 'due-date' || f.labels.some((l) => isDeadline(l.text));

/** A date that is a deadline, not the date of the document (English, French, German, Spanish, Italian). */
const DEADLINE = /\b(due|until|expir\w*|limite|echeance|avant|faellig|fallig|bis|vencimiento|scadenza|entro)\b/;
/** Deadline words in any language the lexicon knows, compounds included ("Vervaldatum", "Fälligkeitsdatum", "支払期限"). */
const isDeadline = (text: string) => DEADLINE.test(normalizeLabel(text)) || readLabel(text).mods.has('due');

/**
 * "Date © 09/01/2019 8:01:11 PM Cashier : 01", "Doc No 123 Date 25/12/2018": a date or amount
 * inside a longer line, governed by the one to three words just before it (OCR noise between the
 * label and the value — ".", "©", ":" — is skipped).
 */
function labelBeforeValue(field: FieldSpec, u: Unit, ctx: SearchContext, out: Candidate[]): void {
  const isDate = isDateKind(field);
  if (!isDate && field.kind !== 'number') return;
  const found = isDate ? findDates(u.text, ctx.dates).map((d) => ({ index: d.index, raw: d.raw })) : findAmounts(u.text).map((a) => ({ index: a.index, raw: a.raw }));
  for (const f of found) {
    const before = u.text.slice(0, f.index).replace(/[^\p{L}\p{N})]+$/u, '');
    const words = before.split(/\s+/).filter(Boolean);
    // "Net total: 496.00", "VAT total: 75.04": the words before the last one can make it another amount or date
    if (field.concept && conceptLabelScore(field.concept, words.slice(-3).join(' ')) < 0) continue;
    for (let k = 1; k <= Math.min(3, words.length); k++) {
      const label = labelScore(field, words.slice(-k).join(' '), ctx);
      if (label < LABEL_MIN) continue;
      // "Payment due date 06/07/2015": the words just before the label can make it a deadline
      if (isDate && isDeadline(words.slice(-k - 2, -k).join(' ')) && !asksForDeadline(field)) break;
      const tv = typedValue(field, u.text.slice(f.index), ctx.dates, u.selected);
      if (tv) out.push(make(field, tv, u, label, 'inline-nosep'));
      break;
    }
  }
}

function neighbourCandidates(field: FieldSpec, u: Unit, ctx: SearchContext, out: Candidate[]): void {
  const label = labelScore(field, u.text, ctx);
  if (label < LABEL_MIN) return;
  const tryUnit = (v: Unit | undefined, how: Candidate['how']) => {
    if (!v || looksLikeLabel(v.text, ctx)) return;
    const tv = typedValue(field, v.text, ctx.dates, v.selected);
    if (tv) out.push(make(field, tv, v, label, how));
  };
  if (u.cell) {
    tryUnit(rightOf(ctx.ix, u), 'cell-right');
    // "Total | 24.99 (net) | 5.00 (tax) | 29.99 (gross)": a total row's last amount is the grand total
    if (field.isTotal) tryUnit(lastInRow(ctx, u), 'cell-right');
    // a header cell governs the cell below only in form-like tables (one value per column)
    const bodyRows = u.cell.table.rows - u.cell.table.headerRows;
    if (bodyRows <= 1 || u.cell.table.rows <= 2) tryUnit(below(ctx.ix, u), 'cell-below');
  } else {
    tryUnit(rightOf(ctx.ix, u), 'right');
    tryUnit(below(ctx.ix, u), 'below');
  }
  // a selected checkbox label: the label itself carries the boolean
  if (field.kind === 'boolean' && u.selected !== undefined) {
    out.push(make(field, { value: u.selected, fit: 0.9, printed: u.text }, u, label, 'inline'));
  }
}

function lastInRow(ctx: SearchContext, u: Unit): Unit | undefined {
  const { table, row } = u.cell!;
  for (let c = table.cols - 1; c > u.cell!.col + 1; c--) {
    const hit = ctx.ix.byId.get(`${table.id}-r${row}c${c}`);
    if (hit) return hit;
  }
  return undefined;
}

function patternCandidates(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  if (!isGenericField(field) && !field.required) return;
  if (!['email', 'uri', 'phone', 'currency', 'date', 'date-time', 'date-text'].includes(field.kind)) return;
  const prior = isGenericField(field) ? 1 : 0.7;
  const deadlines = isDateKind(field) && !asksForDeadline(field) ? deadlineDates(ctx) : new Set<string>();
  const found: Candidate[] = [];
  const firstPage = Math.min(...ctx.ix.units.map((u) => u.page));
  const ownDate = isDateKind(field) && field.concept === 'doc-date';
  for (const u of ctx.ix.units) {
    if (deadlines.size && findDates(u.text, ctx.dates).some((d) => deadlines.has(d.iso))) continue;
    const tv = typedValue(field, u.text, ctx.dates);
    if (!tv) continue;
    // "Bestelldatum: 01.07.2015", "Livraison prévue le 02/07/2015": the words before it make it another date
    const d = ownDate ? findDates(u.text, ctx.dates)[0] : undefined;
    if (d && namesOtherDate(u.text.slice(0, d.index))) continue;
    const c = make(field, { ...tv, fit: tv.fit * prior }, u, 1, 'pattern');
    // a document's own date stands on a line of its own in the header ("Le lundi 21 novembre 2022");
    // one inside a sentence ("Loi 2008-776 du 4 août 2008 …") is what the text refers to
    if (isDateKind(field)) c.score *= u.text.length > 60 ? 0.6 : u.page === firstPage && u.box && u.box.y1 < 0.4 ? 1.15 : 1;
    found.push(c);
  }
  // the only date (email, …) a document prints is good evidence for a field that asks for just that
  const distinct = new Set(found.map((c) => JSON.stringify(c.value)));
  // (so is the one date left when the others are labelled as the order's, the delivery's: the document's
  // own by elimination, "Erstellt am: 05.07.2015" beside "Bestelldatum" and "Lieferdatum")
  if (distinct.size === 1 && isGenericField(field)) for (const c of found) c.score = Math.min(0.75, c.score * 1.6);
  out.push(...found);
}

/** Modifiers that make a date another one than the document's: an order's, a delivery's or service's, a payment's, a deadline. */
const OTHER_DATE_MODS = ['due', 'service', 'order', 'payment', 'customer', 'related'] as const;

/**
 * Whether the words printed just before a date (after any value before them) name another date than the
 * document's: "Order date", "Lieferdatum", "Commande du", "Livraison prévue le". A document word ("Invoice
 * date", "Facture du") or an issue word keeps it the document's.
 */
function namesOtherDate(before: string): boolean {
  const tokens = normalizeLabel(before).split(' ').filter(Boolean);
  let from = tokens.length;
  while (from > 0 && !/\d/.test(tokens[from - 1]) && tokens.length - from < 4) from--;
  const words = tokens.slice(from).join(' ');
  if (!words) return false;
  const r = readLabel(words);
  if (r.mods.has('document') || r.mods.has('issue')) return false;
  return OTHER_DATE_MODS.some((m) => r.mods.has(m));
}

/**
 * Labels printed in a row of column headers with their values under them ("Rechnungsnr.  Datum
 * Kundennr." over "2024-107  14.03.2024  K-4711"; "Nettobetrag  MwSt-Betrag  Endbetrag" over rows of
 * figures): each value is the one aligned under its label (left edges for text, right edges for
 * figures) in the rows below, down to the first row with nothing under the label.
 */
function stackedCandidates(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  // names are read from blocks and letterheads; a value under a header is a code, a date or an amount
  if (!['identifier', 'date', 'date-time', 'date-text', 'number', 'integer'].includes(field.kind)) return;
  const pages = [...new Set(ctx.ix.units.map((u) => u.page))];
  for (const page of pages) {
    const rows = (pageLines(ctx.ix, page) ?? []).filter((r) => r.segments && r.box);
    rows.forEach((row, i) => {
      const segs = row.segments!;
      if (segs.length < 2 || segs.some((sg) => /\d/.test(sg.text.replace(/[\d.,]+\s*%/g, '')))) return;
      // the header of an item table: its figures are the lines', not the document's
      if (segs.some((sg) => { const role = headerRole(sg.text); return role === 'description' || role === 'quantity' || role === 'unit-price'; })) return;
      // amounts under a header: only in a summary header of several amounts ("Nettobetrag  MwSt-Betrag  Endbetrag")
      if (field.kind === 'number' && segs.filter((sg) => readLabel(sg.text).heads.has('amount') || readLabel(sg.text).heads.has('tax')).length < 2) return;
      for (const seg of segs) {
        const label = labelScore(field, seg.text, ctx);
        if (label < LABEL_MIN) continue;
        // an amount column's header must name the field's own concept ("Endbetrag"), not merely resemble it ("Amount")
        if (field.kind === 'number' && field.concept && conceptLabelScore(field.concept, seg.text) <= 0) continue;
        const run: Candidate[] = [];
        for (let j = i + 1; j < Math.min(rows.length, i + 5); j++) {
          const under = rows[j].segments!.find((v) => {
            const overlap = Math.min(v.box.x1, seg.box.x1) - Math.max(v.box.x0, seg.box.x0);
            return overlap > 0 && Math.min(Math.abs(v.box.x0 - seg.box.x0), Math.abs(v.box.x1 - seg.box.x1)) < 0.05;
          });
          if (!under) break;
          const unit: Unit = { ...rows[j], id: under.ids[under.ids.length - 1], text: under.text, box: under.box, parts: undefined, segments: undefined };
          const tv = typedValue(field, under.text, ctx.dates);
          if (!tv) break;
          run.push(make(field, tv, unit, label, 'below', under.ids));
          if (!field.isTotal) break;
        }
        // a total column of several rows (one per tax rate) ends in their sum: that is the total
        // (a lone figure under a total's header is read by the neighbour search already)
        if (run.length === 1 && !field.isTotal) out.push(run[0]);
        else if (run.length > 1) {
          const last = run[run.length - 1].value as number;
          const sum = run.slice(0, -1).reduce((n, c) => n + (c.value as number), 0);
          if (Math.abs(sum - last) < 0.011) out.push({ ...run[run.length - 1], summed: true });
        }
      }
    });
  }
}

/**
 * A currency field: the document's currency, when no labelled value names one ("Währung: EUR"). It
 * answers where no line prints a code or symbol findCurrency reads ("12 000,00 kr", "1 230,00 zł", an
 * invoice with bare figures and a Dutch IBAN), and places a bare "$" or "kr" by the paper's country
 * over the printed sign's default reading.
 */
function documentCurrencyCandidate(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  if (out.some((c) => c.label >= LABEL_MIN && c.how !== 'pattern')) return;
  const doc = documentCurrency(ctx.ix.texts);
  if (!doc) return;
  if (doc.how === 'country') for (const c of out) if (c.printed === '$' || /^kr\.?$/i.test(c.printed)) c.value = doc.code;
  if (out.length && doc.how !== 'mark') return;
  // a currency printed on fewer lines than the document's ("Late fee €40" under prices in £) is weaker in proportion
  const most = doc.marks?.get(doc.code);
  if (most) for (const c of out) if (c.how === 'pattern' && c.value !== doc.code) c.score *= Math.min(1, (doc.marks!.get(String(c.value)) ?? 0) / most);
  if (out.some((c) => c.value === doc.code)) return;
  const first = ctx.ix.units[0];
  if (!first) return;
  // below a printed code or symbol's pattern match (0.7–1); the country alone just over the acceptance line (choose)
  out.push({ value: doc.code, printed: doc.code, ids: [], label: 0, fit: 1, proximity: 1, score: doc.how === 'default' ? 0.46 : 0.55, order: first.order, how: 'pattern' });
}

/** "# 1042", "No. A-17", "N° 562044387": a code whose only label is the number sign. */
const SELF_LABELLED = /^(?:#|no\.?|n[°º]|nr\.?|num(?:ber)?\.?)\s*:?\s*([\p{L}\p{N}][\p{L}\p{N}_\-/.]*)$/iu;
/** The number sign names only the last word of "invoice number": a weaker label than the full one. */
const SELF_LABEL = 0.8;

/**
 * A line that is only a number sign and a code ("# invoice_number_1" under a title OCR could not
 * read) answers a field whose name ends in number/no/id, when nothing labelled does; the first such
 * line printed (the document's own number comes before those of what it refers to) ranks first.
 */
function selfLabelledNumbers(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  if (field.kind !== 'identifier' || !/\b(number|no|num|nr|id)$/.test(normalizeLabel(field.name))) return;
  for (const u of ctx.ix.units) {
    const m = SELF_LABELLED.exec(u.text.trim());
    if (!m || !/\d/.test(m[1])) continue;
    const tv = typedValue(field, m[1], ctx.dates);
    if (tv) out.push(make(field, tv, u, SELF_LABEL, 'inline'));
  }
}

/** Dates the document prints as deadlines ("Date limite de paiement le 05 Juillet 2015", "Due: 3/4/2024"). */
function deadlineDates(ctx: SearchContext): Set<string> {
  const out = new Set<string>();
  for (const u of [...ctx.ix.units, ...ctx.ix.rows]) {
    for (const d of findDates(u.text, ctx.dates)) if (isDeadline(u.text.slice(Math.max(0, d.index - 40), d.index))) out.add(d.iso);
  }
  return out;
}

export function scalarCandidates(field: FieldSpec, ctx: SearchContext): Candidate[] {
  const out: Candidate[] = [];
  for (const u of ctx.ix.units) {
    inlineCandidates(field, u, ctx, out);
    neighbourCandidates(field, u, ctx, out);
  }
  // printed rows across blocks: a label and its value that layout put in different blocks (rows read
  // from the page words, else — a reader that gives lines without words — its lines grouped by position)
  for (const r of printedRows(ctx)) if (crossesElements(r)) inlineCandidates(field, r, ctx, out);
  stackedCandidates(field, ctx, out);
  if (!out.some((c) => c.label >= 0.9)) patternCandidates(field, ctx, out);
  if (!out.some((c) => c.label >= 0.9)) selfLabelledNumbers(field, ctx, out);
  if (field.kind === 'currency') documentCurrencyCandidate(field, ctx, out);
  if (field.isTotal || field.concept === 'tax') taxLines(field, ctx, out);
  if (field.isTotal) roundedTotals(field, ctx, out);
  if (field.isTotal) summedTotals(field, ctx, out);
  if (field.isTotal) netAfterTax(field, ctx, out);
  if (field.isTotal) markTaxSummary(ctx, out);
  if (field.isTotal) markTendered(field, ctx, out);
  const head = letterheadKind(field);
  const customer = !head && field.kind === 'string' && customerField(field.name, field.labels.map((l) => l.text), field.description);
  if (!head && !customer) return out;
  // a party's name printed with its address after it on one line: the name alone
  if (head === 'organisation' || customer) {
    for (const c of out) if (typeof c.value === 'string') { const name = nameBeforeAddress(c.value); if (name !== c.value) { c.value = name; c.printed = name; } }
  }
  // a name is not a registration number, a customer code or a date ("Company No: 1174703-K" labels a number, not the name)
  // a field's description mentioning a printed word ("the company that issued the receipt" and "RECEIPT",
  // "NAME : CASH" in the customer's block) is no label for the issuer; an address is no tax number ("ADDRESS : / GST NO.")
  const kept = head === 'address'
    ? out.filter((c) => !notAnAddress(c.value))
    : out.filter((c) => !notAName(c.value) && isNameLike(String(c.value)) && (head !== 'organisation' || c.label >= ISSUER_LABEL_MIN));
  if (!kept.some((c) => c.label >= LABEL_MIN)) {
    const layout = head ? letterheadCandidates(head, ctx.ix) : [];
    for (const h of layout) {
      if (head === 'organisation') h.value = nameBeforeAddress(h.value);
      kept.push({ value: h.value, printed: h.value, ids: h.ids, label: 0, fit: 1, proximity: PROXIMITY.letterhead, score: h.score, order: h.order, at: h.at, how: 'letterhead' });
    }
    // the parties as an invoice names them: labelled blocks, the sender line and the recipient under it, the repeated issuer name
    if (head !== 'address') {
      const order = ctx.ix.units.length + ctx.ix.rows.length;
      const address = customer ? undefined : letterheadAddress(ctx.ix);
      for (const p of partyCandidates(customer ? 'customer' : 'vendor', ctx.ix)) {
        if (address?.places.has(normalizeLabel(p.value))) continue;
        // a name printed below the issuer's letterhead address, still in the letterhead zone (after the tax
        // numbers and the title), is less likely the issuer; one in the footer (bank details) may well be
        const below = address?.bottom !== undefined && p.at > address.bottom && p.at < LETTERHEAD_ZONE;
        const score = below ? p.score - 0.05 : p.score;
        kept.push({ value: p.value, printed: p.value, ids: p.ids, label: 0, fit: 1, proximity: PROXIMITY.letterhead, score, order, at: p.at, how: 'letterhead' });
      }
    }
    // the party the page addresses (under "Bill to", under the sender line, in the window) did not issue it,
    // however high or large its name is printed
    if (head === 'organisation') {
      const billed = new Set(partyCandidates('customer', ctx.ix).map((p) => normalizeLabel(p.value)));
      return kept.filter((c) => c.label >= LABEL_MIN || !billed.has(normalizeLabel(String(c.value))));
    }
  } else if (head === 'organisation') rivalLetterhead(ctx, kept);
  return kept;
}

/** Legal forms and the like, which two different companies' names share. */
const LEGAL_WORDS = /^(gmbh|ltd|limited|inc|pvt|private|llc|llp|plc|corp|company|co|sarl|sas|srl|spa|bv|nv|ag|kg|pty|pte|sdn|bhd|the|and|und|et)$/;

/**
 * A labelled issuer ("Sold By:", "Seller:", "Lieferant") under a letterhead that names another company —
 * a marketplace's brand over the seller it sells for, a group over its branch — is what the label says,
 * but less surely: the letterhead's name (some evidence: a legal form, set large, above the address) is
 * kept as a runner-up below the labelled value, which lowers the choice's confidence and never changes it.
 */
function rivalLetterhead(ctx: SearchContext, kept: Candidate[]): void {
  const labelled = kept.filter((c) => c.label >= LABEL_MIN);
  const best = Math.max(...labelled.map((c) => c.score));
  const words = (v: unknown) => new Set(normalizeLabel(String(v)).split(' ').filter((w) => w.length >= 3 && !LEGAL_WORDS.test(w)));
  const named = labelled.map((c) => words(c.value));
  const top = letterheadCandidates('organisation', ctx.ix)[0];
  if (!top || top.score < 0.6) return;
  const value = nameBeforeAddress(top.value), own = words(value);
  if (!own.size || named.some((n) => [...own].some((w) => n.has(w)))) return;
  if (partyCandidates('customer', ctx.ix).some((p) => normalizeLabel(p.value) === normalizeLabel(value))) return;
  kept.push({ value, printed: value, ids: top.ids, label: 0, fit: 1, proximity: PROXIMITY.letterhead, score: Math.min(top.score, 0.85 * best), order: top.order, at: top.at, how: 'letterhead' });
}

/**
 * A line with a tax word and a rate ("Total includes 19% VAT 3.80", "Totaal incl. 21% BTW") holds the
 * tax when its amount is that rate of another amount on the page — of a total that includes it
 * (T × r / (100 + r)) or of a net amount (N × r / 100). Such an amount is not a total; for a field
 * asking for the tax it is the answer, checked by arithmetic.
 */
function taxLines(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  const amountsOn = new Map<number, number[]>();
  for (const u of ctx.ix.units) amountsOn.set(u.page, [...(amountsOn.get(u.page) ?? []), ...findAmounts(u.text).filter((a) => !a.percent).map((a) => a.value)]);
  const lineOf = (c: Candidate): string => {
    const u = unitAt(ctx.ix, c.order);
    if (!u) return '';
    if (u.parts || !u.box) return u.text;
    const cy = (u.box.y0 + u.box.y1) / 2;
    const row = (pageLines(ctx.ix, u.page) ?? []).find((r) => r.box && r.box.y0 <= cy && r.box.y1 >= cy && (r.parts ?? []).some((p) => p.id === u.id));
    return row?.text ?? u.text;
  };
  /** The rate a line prints with a tax word, and whether `x` is that rate of another amount on the page. */
  const taxOf = (line: string, page: number, x: number): boolean => {
    const rate = /(\d{1,2}(?:[.,]\d{1,2})?)\s*%/.exec(line);
    if (!rate || !readLabel(line.replace(/[\d.,]+/g, ' ')).heads.has('tax')) return false;
    const r = Number(rate[1].replace(',', '.'));
    return r > 0 && (amountsOn.get(page) ?? []).some((t) => t > x && (Math.abs((t * r) / (100 + r) - x) <= 0.011 || Math.abs((t * r) / 100 - x) <= 0.011));
  };
  if (field.isTotal) {
    for (let i = out.length - 1; i >= 0; i--) {
      const c = out[i];
      if (typeof c.value === 'number' && c.how !== 'pattern' && taxOf(lineOf(c), unitAt(ctx.ix, c.order)?.page ?? 1, c.value)) out.splice(i, 1);
    }
    return;
  }
  // the tax field: the amount such a line ends with
  const pages = [...new Set(ctx.ix.units.map((u) => u.page))];
  const printedRows = pages.flatMap((p) => pageLines(ctx.ix, p) ?? []).filter((r) => (r.parts ?? []).length > 1 || crossesElements(r));
  for (const u of [...ctx.ix.units, ...printedRows]) {
    const amounts = findAmounts(u.text).filter((a) => !a.percent);
    const a = amounts[amounts.length - 1];
    if (!a || !taxOf(u.text, u.page, a.value)) continue;
    const tv = typedValue(field, a.raw, ctx.dates);
    if (tv) out.push(make(field, { ...tv, printed: a.raw.replace(/^\(|\)$/g, '') }, u, 0.9, 'inline'));
  }
}

/** A subtotal that the lines below it add to: "Sub total", "Total (excluding GST)", "(Excluded GST) Sub Total", "Total HT", "Net amount". */
const SUBTOTAL = /\b(sub ?total|total\b.*\b(excl\w*|exclusive|before|ht|pre ?tax)|(excl\w*|exclusive) (of )?(gst|vat|tax|sst)\b.*\btotal|net (amount|total)|montant ht|zwischensumme|nettobetrag)\b/;
/** Lines that take away from the running sum when printed without a sign. */
const DEDUCTION = /\b(discount|less|savings?|rebate|voucher|remise|rabais|reduction|descuento|rabatt|deposit paid)\b/;

interface SummaryLine { unit: Unit; label: string; amount: { value: number; raw: string } }

/** The amount a printed line ends with (not a percentage, not part of a date) and the words before it. */
function summaryLine(u: Unit): SummaryLine | undefined {
  const label = u.text.replace(/[^\p{L}\s]+/gu, ' ').replace(/\s+/g, ' ').trim();
  if (ROUNDING.test(label)) {
    const adj = roundingAdjustment(u.text);
    return adj ? { unit: u, label: normalizeLabel(label), amount: { value: adj.value, raw: String(adj.value) } } : undefined;
  }
  const dates = findDates(u.text);
  const amounts = findAmounts(u.text).filter((a) => !a.percent && !dates.some((d) => a.index >= d.index && a.index < d.index + d.raw.length));
  const a = amounts[amounts.length - 1];
  if (!a) return undefined;
  return { unit: u, label: normalizeLabel(u.text.slice(0, a.index)), amount: { value: a.value, raw: a.raw.replace(/^\(|\)$/g, '') } };
}

/** Lines of payment, not of the bill: what was handed over and what came back. */
const PAYMENT = /\b(cash|tender\w*|paid|payment|change|card|visa|master\w*|amex|debit|credit|e ?wallet|balance due|refund)\b/;

/**
 * A page's printed lines as summary lines, top to bottom. A label whose amount OCR put on a row of its
 * own just below ("Total GST :" over "1.65", the amount set a little lower at the right edge) is read
 * as one line with that amount; the amount's own row is then no line of its own (undefined).
 */
function summaryLines(ctx: SearchContext, page: number): (SummaryLine | undefined)[] {
  const rows = pageLines(ctx.ix, page) ?? [];
  const out = rows.map(summaryLine);
  for (let i = 0; i + 1 < rows.length; i++) {
    const next = out[i + 1];
    if (out[i] || !next || !/\p{L}{2}/u.test(rows[i].text) || /\p{L}{2}/u.test(rows[i + 1].text.replace(/\b(RM|[A-Z]{3})\b/g, ''))) continue;
    out[i] = { unit: next.unit, label: normalizeLabel(rows[i].text), amount: next.amount };
    out[i + 1] = undefined;
    i++;
  }
  return out;
}

/**
 * The summary block of a receipt or invoice adds up: subtotal + charges + tax ± rounding − discount
 * is the total paid. From each subtotal line, the amounts printed on the lines below are summed;
 * a line whose amount equals the sum so far (after at least one component) is a total, whatever its
 * label reads — OCR often garbles the label of the one line that matters ("NL {UTAL  343.95" after
 * "SUB TOTAL 295.00 / SERVICE CHARGE 29.50 / GST 19.47 / ROUNDING -0.02"). Such a sum may itself be
 * summed on ("SUBTOTAL 79.60 / DISCOUNT -30.00 / TOTAL 49.60 / SERVICE 4.96 / GST 3.27 / ROUNDING -0.03 /
 * TOTAL 57.80"): the last sum of the chain is the total, the subtotal and the sums before it are its
 * components. A restated amount ("TOTAL 10.00" right under "SUBTOTAL 10.00") adds nothing, and the
 * payment lines (cash, card, change) end the bill. The check is arithmetic on printed amounts, so it
 * also vouches for a labelled total it agrees with.
 */
function summedTotals(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  const pages = [...new Set(ctx.ix.units.map((u) => u.page))];
  for (const page of pages) {
    const lines = summaryLines(ctx, page);
    lines.forEach((start, i) => {
      if (!start || !SUBTOTAL.test(start.label)) return;
      let sum = start.amount.value, parts = 0;
      const components = [start.amount.value];
      let found: SummaryLine | undefined;
      // a line that restates the sum with one character misread ("Total 112.46" under parts that add to 112.45)
      let misread: { line: SummaryLine; sum: number } | undefined;
      for (let j = i + 1; j < Math.min(lines.length, i + 10); j++) {
        const line = lines[j];
        if (!line) continue;
        if (PAYMENT.test(line.label)) {
          // two checks agree on the amount OCR misread: the parts add up to it and the customer paid it (cash − change)
          if (!found && misread && Math.abs((paidFrom(lines, j) ?? changeBelow(lines, j) ?? NaN) - misread.sum) < 0.005) {
            const tv = typedValue(field, misread.sum.toFixed(2), ctx.dates);
            if (tv) out.push({ ...make(field, { ...tv, printed: misread.line.amount.raw }, misread.line.unit, SUM_LABEL, 'below'), summed: true, tendered: true, components: [...components, misread.line.amount.value] });
          }
          break;
        }
        const v = line.amount.value;
        if (parts > 0 && !misread && oneCharacterOff(v, sum)) misread = { line, sum };
        if (Math.abs(v - sum) < 0.005 && v > 0) {
          if (parts > 0) {
            if (found) components.push(found.amount.value);
            found = line;
            parts = 0;
          }
          continue; // a sum, or the same amount restated: the running sum stands
        }
        if (SUBTOTAL.test(line.label)) break; // another summary block starts
        sum = Math.round((sum + (v > 0 && DEDUCTION.test(line.label) ? -v : v)) * 100) / 100;
        parts++;
      }
      if (!found) return;
      const tv = typedValue(field, found.amount.raw, ctx.dates);
      if (tv) out.push({ ...make(field, { ...tv, printed: found.amount.raw }, found.unit, SUM_LABEL, 'below'), summed: true, components });
    });
  }
}

/** Two amounts printed alike but for one character ("112.46", "112.45"): an OCR slip of one digit. */
function oneCharacterOff(a: number, b: number): boolean {
  const x = a.toFixed(2), y = b.toFixed(2);
  return x !== y && x.length === y.length && [...x].filter((c, k) => c !== y[k]).length === 1;
}

/** What the customer paid by the payment line at i: the amount handed over less the change printed within three lines below it. */
function paidFrom(lines: (SummaryLine | undefined)[], i: number): number | undefined {
  const given = lines[i];
  if (!given || !TENDERED.test(given.label) || CHANGE.test(given.label)) return undefined;
  for (let j = i + 1; j < Math.min(lines.length, i + 4); j++) {
    const back = lines[j];
    if (back && CHANGE.test(back.label)) return Math.round((given.amount.value - back.amount.value) * 100) / 100;
  }
  return undefined;
}

/** At a change line whose tendered line above it OCR garbled ("GASH  112.45 / Change  0.00"): that line's amount less the change. */
function changeBelow(lines: (SummaryLine | undefined)[], j: number): number | undefined {
  const back = lines[j], given = lines[j - 1];
  if (!back || !given || !CHANGE.test(back.label) || TENDERED.test(given.label)) return undefined;
  return Math.round((given.amount.value - back.amount.value) * 100) / 100;
}

/** The heading of a tax analysis table: "GST SUMMARY", "VAT analysis", "Tax code  %  Amount  Tax". */
const TAX_SUMMARY = /\b(gst|vat|tax|sst|mwst|btw|iva|tva)\b(\s+\w+)?\s+(summary|analysis|breakdown)\b|\b(summary|analysis|breakdown) of (gst|vat|tax)\b|^tax code\b/;

/**
 * Many receipts end with a tax analysis: a table of amounts by tax rate under a heading such as
 * "GST SUMMARY", whose last row is often labelled "TOTAL" — the net amount and the tax, not what was
 * paid. Candidates printed below such a heading are marked; the choice ranks them under any labelled
 * total printed above it.
 */
function markTaxSummary(ctx: SearchContext, out: Candidate[]): void {
  const headings = new Map<number, number>();
  for (const page of new Set(ctx.ix.units.map((u) => u.page))) {
    for (const r of pageLines(ctx.ix, page) ?? []) {
      const at = positionOf(r);
      if (at === undefined || !TAX_SUMMARY.test(normalizeLabel(r.text))) continue;
      headings.set(page, Math.min(headings.get(page) ?? Infinity, at));
    }
  }
  if (!headings.size) return;
  for (const c of out) {
    const page = c.at === undefined ? undefined : Math.floor(c.at / 2);
    const heading = page === undefined ? undefined : headings.get(page);
    if (heading !== undefined && c.at! > heading) c.inTaxSummary = true;
  }
}

const TENDERED = /\b(cash|tender\w*|paid|payment|amount received|received)\b/;
const CHANGE = /\b(change|balance)\b/;

/**
 * Cash − change = total: a receipt prints what the customer handed over and, just below, the change
 * given back. A total candidate equal to the difference is confirmed by arithmetic; where OCR garbled
 * the total's label, the amount printed a few lines above the payment that equals the difference is
 * the total.
 */
function markTendered(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  for (const page of new Set(ctx.ix.units.map((u) => u.page))) {
    const lines = summaryLines(ctx, page);
    lines.forEach((given, i) => {
      if (!given || !TENDERED.test(given.label) || CHANGE.test(given.label)) return;
      for (let j = i + 1; j < Math.min(lines.length, i + 4); j++) {
        const back = lines[j];
        if (!back || !CHANGE.test(back.label)) continue;
        const paid = Math.round((given.amount.value - back.amount.value) * 100) / 100;
        if (paid <= 0) return;
        let known = false;
        for (const c of out) if (typeof c.value === 'number' && Math.abs(c.value - paid) < 0.005 && c.how !== 'pattern') c.tendered = known = true;
        if (known) return;
        for (let k = i - 1; k >= Math.max(0, i - 8); k--) {
          const above = lines[k];
          if (!above || Math.abs(above.amount.value - paid) >= 0.005) continue;
          const tv = typedValue(field, above.amount.raw, ctx.dates);
          if (tv) out.push({ ...make(field, { ...tv, printed: above.amount.raw }, above.unit, SUM_LABEL, 'below'), tendered: true });
          break;
        }
        return;
      }
      paidInFull(field, ctx, lines, i, out);
    });
  }
}

/**
 * A till slip that prints no total: its amounts, then what was paid ("DEPT 05  RM 149.00 / DEPT 04  RM 21.00 /
 * CASH  RM 170.00"), no change. Where nothing is labelled a total and the amounts printed just above the
 * payment (two or more, read upwards) add up to it, the payment is the total — checked by arithmetic.
 */
function paidInFull(field: FieldSpec, ctx: SearchContext, lines: (SummaryLine | undefined)[], i: number, out: Candidate[]): void {
  const given = lines[i]!;
  if (given.amount.value <= 0 || out.some((c) => typeof c.value === 'number' && c.label >= LABEL_MIN && c.how !== 'pattern')) return;
  let sum = 0, n = 0;
  for (let k = i - 1; k >= Math.max(0, i - 12); k--) {
    const line = lines[k];
    if (!line) continue;
    if (TENDERED.test(line.label) || CHANGE.test(line.label)) return;
    sum = Math.round((sum + line.amount.value) * 100) / 100;
    n++;
    if (n >= 2 && Math.abs(sum - given.amount.value) < 0.005) {
      const tv = typedValue(field, given.amount.raw, ctx.dates);
      if (tv) out.push({ ...make(field, { ...tv, printed: given.amount.raw }, given.unit, SUM_LABEL, 'inline'), summed: true, tendered: true });
      return;
    }
    if (sum > given.amount.value) return;
  }
}

/** "Net Amt", "Nett Amount", "Net Total": net of what, the lines above it say. */
const NET = /^(net|nett)( (amt|amount|total|payable|sales|sale))?$/;
/** A summary line of tax or a charge added to the bill ("GST (6%)", "Svr Tax", "Service charge 10%"). */
const TAX_LINE = /\b(gst|vat|sst|tax|service charge|svc|svr)\b/;

/**
 * "Net" is the amount before tax on an invoice, but a receipt that prints "Net Amt" below its tax and
 * service-charge lines ("Gross Amt / Svr Tax / GST (6%) / Net Amt") means what is left to pay after
 * them: the total. A net line printed within three lines below such a tax line is a total candidate,
 * ranked under a printed "Total" (a label-like 0.85).
 */
function netAfterTax(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  for (const page of new Set(ctx.ix.units.map((u) => u.page))) {
    const lines = summaryLines(ctx, page);
    lines.forEach((line, i) => {
      if (!line || !NET.test(line.label.replace(/[^a-z ]+/g, ' ').replace(/\s+/g, ' ').trim()) || line.amount.value <= 0) return;
      const taxed = lines.slice(Math.max(0, i - 3), i).some((l) => l && TAX_LINE.test(l.label) && l.amount.value > 0 && l.amount.value < line.amount.value && !NET.test(l.label));
      if (!taxed) return;
      const tv = typedValue(field, line.amount.raw, ctx.dates);
      if (tv) out.push(make(field, { ...tv, printed: line.amount.raw }, line.unit, 0.85, 'inline'));
    });
  }
}

/** How much a sum that adds up counts as a label: about a printed "Total". */
const SUM_LABEL = 0.95;

/** "Rounding", "Round adj", "Rounding adjustment" — and a first word that OCR garbled after "roun" ("Roundlng", "Roundinq"). */
const ROUNDING = /^(roun\w*|arrondi)\b/i;

/**
 * "TOTAL 60.31 / Rounding adj -0.01 / 60.30": cash totals rounded to the coin. A rounding line with
 * a non-zero amount, printed after a labelled total, makes the total plus the adjustment — when that
 * amount is printed below the rounding line — the total paid.
 */
function roundedTotals(field: FieldSpec, ctx: SearchContext, out: Candidate[]): void {
  for (const r of [...ctx.ix.units, ...ctx.ix.rows]) {
    const label = r.text.replace(/[^\p{L}\s]+/gu, ' ').replace(/\s+/g, ' ').trim();
    if (!ROUNDING.test(label)) continue;
    const adj = roundingAdjustment(r.text) ?? roundingAdjustment(rightOf(ctx.ix, r)?.text ?? '');
    if (!adj || !adj.value || Math.abs(adj.value) >= 1) continue;
    // any labelled total on the page: the unrounded one is often printed again below (a tax summary)
    // (a total of nothing — "TOTAL : 0.00" in a tax table — is not rounded to the coin)
    const totals = out.filter((c) => typeof c.value === 'number' && c.value > 2 * Math.abs(adj.value) && c.how !== 'pattern' && samePage(ctx, c, r));
    for (const t of totals) {
      // the adjustment's sign is easily lost ("-0.01" read as "0.01"): the amount printed after it decides
      let want = 0, hit: Unit | undefined;
      for (const w of [(t.value as number) + adj.value, (t.value as number) - adj.value].map((x) => Math.round(x * 100) / 100)) {
        hit = [...ctx.ix.units, ...ctx.ix.rows].find((v) => v !== r && printedSoonAfter(r, v) && findAmounts(v.text).some((a) => Math.abs(a.value - w) < 0.005));
        if (hit) { want = w; break; }
      }
      if (!hit) continue;
      const tv = typedValue(field, String(want), ctx.dates);
      if (tv) out.push({ ...make(field, { ...tv, printed: findAmounts(hit.text).find((a) => Math.abs(a.value - want) < 0.005)!.raw }, hit, Math.min(1, t.label + 0.05), 'below'), rounded: true });
    }
  }
}

/**
 * The adjustment a rounding line prints: its amount, or — as OCR often drops the point of so small an
 * amount ("-0 01", "-001") — a lone "0" and two digits read as hundredths.
 */
function roundingAdjustment(text: string): { value: number } | undefined {
  const amounts = findAmounts(text);
  const exact = amounts.find((a) => a.hasDecimals);
  if (exact) return exact;
  const m = /(?<![\d.,])([-−]?)\s?0[\s.,]?(\d{2})(?![\d.,])/.exec(text);
  if (m) return { value: (m[1] ? -1 : 1) * Number(m[2]) / 100 };
  return amounts[0];
}

const samePage = (ctx: SearchContext, c: Candidate, r: Unit) => unitAt(ctx.ix, c.order)?.page === r.page;

/** A unit printed below the rounding line `r`, within a few of its lines (or a few units after it). */
function printedSoonAfter(r: Unit, v: Unit): boolean {
  if (v.page !== r.page) return false;
  if (v.box && r.box) {
    const cy = (v.box.y0 + v.box.y1) / 2;
    return cy > r.box.y1 - 0.25 * height(r.box) && cy < r.box.y1 + 6 * height(r.box);
  }
  return v.order > r.order && v.order <= r.order + 6;
}

const height = (b: { y0: number; y1: number }) => Math.max(1e-3, b.y1 - b.y0);
