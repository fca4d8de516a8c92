import { findAmounts, findCurrency } from './amounts.js';

/**
 * The currency a document is written in, as a bookkeeper tells it: the ISO codes and currency words
 * it prints ("EUR", "CHF", "Euro"), the symbols on its prices ("€", "zł", "Kč", "$"), and where a
 * mark does not say which currency it is — "kr" is Swedish, Norwegian, Danish or Icelandic, "$" is
 * the currency of several countries — the country the paper comes from: its IBANs, its VAT
 * numbers, its tax words (MVA, MWST), its phone numbers. With no mark at all, that country's
 * currency is the answer of last resort.
 */

/** Country → currency, for the countries whose paper names its tax, bank or phone by country. */
const CURRENCY_OF: Record<string, string> = {
  AT: 'EUR', BE: 'EUR', CY: 'EUR', DE: 'EUR', EE: 'EUR', EL: 'EUR', GR: 'EUR', ES: 'EUR', FI: 'EUR', FR: 'EUR', HR: 'EUR', IE: 'EUR', IT: 'EUR', LT: 'EUR',
  LU: 'EUR', LV: 'EUR', MT: 'EUR', NL: 'EUR', PT: 'EUR', SI: 'EUR', SK: 'EUR',
  PL: 'PLN', CZ: 'CZK', HU: 'HUF', RO: 'RON', SE: 'SEK', DK: 'DKK', NO: 'NOK', IS: 'ISK', CH: 'CHF', LI: 'CHF', GB: 'GBP',
  US: 'USD', CA: 'CAD', AU: 'AUD', NZ: 'NZD', SG: 'SGD', HK: 'HKD', IN: 'INR', MY: 'MYR', JP: 'JPY', CN: 'CNY', KR: 'KRW',
};

const PHONE_CODES: Record<string, string> = {
  '43': 'AT', '32': 'BE', '49': 'DE', '34': 'ES', '358': 'FI', '33': 'FR', '353': 'IE', '39': 'IT', '352': 'LU', '31': 'NL', '351': 'PT', '48': 'PL', '420': 'CZ',
  '36': 'HU', '40': 'RO', '46': 'SE', '45': 'DK', '47': 'NO', '354': 'IS', '41': 'CH', '44': 'GB', '61': 'AU', '64': 'NZ', '65': 'SG', '852': 'HK',
  '91': 'IN', '60': 'MY', '81': 'JP', '86': 'CN', '82': 'KR',
};

const US_ZIP = /\b(AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)\s\d{5}(?:-\d{4})?\b/;
/**
 * The document's own name in a language written (mostly) in one currency area, as a title or in the
 * labels that carry it ("Sammelrechnung", "Rechnungsnummer", "Numéro de facture", "Factuurdatum",
 * "Fecha de factura"); Swiss and Austrian German both count as German here.
 */
const DOC_TITLES: [RegExp, string][] = [
  [/^\s*rechnung\b|\p{L}rechnung\b|\brechnungs(nummer|nr|datum|betrag|empf\u00e4nger|anschrift|adresse)/iu, 'DE'], [/^\s*factuur\b|\bfactuur(nummer|datum|adres|bedrag)\b/i, 'NL'],
  [/^\s*facture\b|\b(num\u00e9ro|n\u00b0|date) de (la )?facture\b/iu, 'FR'], [/^\s*fattura\b|\b(numero|data) (della )?fattura\b/i, 'IT'],
  [/^\s*factura\b|\b(n\u00famero|fecha) de (la )?factura\b/iu, 'ES'], [/^\s*fatura\b/i, 'PT'],
  [/^\s*lasku\b/i, 'FI'], [/^\s*faktura\s+vat\b/i, 'PL'],
];

/**
 * A country's registration and tax words, printed where the paper names its issuer's numbers or its
 * totals: French SIRET, RCS, "TTC"; German Steuernummer, HRB, USt-IdNr.; Dutch KvK, BTW; Italian
 * Partita IVA; Spanish NIF/CIF. Weak evidence (a Belgian also writes BTW, a Swiss TVA), but each of
 * them points into one currency area or to its neighbours in it.
 */
const TAX_WORDS: [RegExp, string][] = [
  [/\b(SIRET|SIREN|RCS|TTC|N\u00b0 ?TVA|TVA intracom\w*)\b/u, 'FR'], [/\b(Steuer-?nummer|St\.-?Nr\.|USt\.?-?Id\w*|HRB|Amtsgericht|Umsatzsteuer|MwSt\.?)(?![\p{L}])/u, 'DE'],
  [/\b(KvK|BTW)\b/, 'NL'], [/\b(P\.\s?IVA|Partita IVA|Codice Fiscale)\b/i, 'IT'], [/\b(NIF|CIF)\b/, 'ES'],
];

/** Nordic crowns ("kr", "kr.", "Kr", "SKr"), which the country decides. */
const CROWN = /(?:\d[\d.,\s]*\s?(?:kr\.?|:-)(?![\p{L}])|(?<![\p{L}])kr\.?\s?\d)/iu;

/** Marks findCurrency does not read because they are words or letters around a figure. */
const MARKS: [RegExp, string][] = [
  [/\d\s?zł|\bzł\b|\bPLN\b|złotych/iu, 'PLN'], [/\d\s?Kč|\bKč\b/u, 'CZK'], [/\d\s?Ft\b/u, 'HUF'], [/\d\s?lei\b/iu, 'RON'],
  [/(?<![\p{L}])(?:S?Fr\.|SFr)\s?\d|\d\s?(?:S?Fr\.)(?!\p{L})/u, 'CHF'], [/\beuros?\b/iu, 'EUR'],
  // the currency written as a word ("Rupees One Thousand … Only", "in pounds sterling", "Amount (Rs.)", "US dollars")
  [/\brupees?\b/iu, 'INR'], [/(?<![\p{L}])Rs\.?(?![\p{L}])/u, 'INR'], [/\bpounds? sterling\b/iu, 'GBP'], [/\bU\.?S\.? dollars?\b/iu, 'USD'],
  [/\bringgit\b/iu, 'MYR'], [/\brenminbi\b/iu, 'CNY'], [/\bRMB\b/u, 'CNY'], [/\b(schweizer franken|francs? suisses?|swiss francs?)\b/iu, 'CHF'], [/\breais\b/iu, 'BRL'],
];

/** A country named on its own at the end of an address ("Deutschland", "FRANCE", "Royaume-Uni"), in its own language or English. */
const COUNTRY_NAMES: [RegExp, string][] = [
  [/^(deutschland|germany|allemagne)$/i, 'DE'], [/^(france|frankreich)$/i, 'FR'], [/^(nederland|netherlands|the netherlands|pays-bas)$/i, 'NL'],
  [/^(belgique|belgi\u00eb|belgien|belgium)$/i, 'BE'], [/^(\u00f6sterreich|austria|autriche)$/i, 'AT'], [/^(espa\u00f1a|spain|espagne|spanien)$/i, 'ES'],
  [/^(italia|italy|italie|italien)$/i, 'IT'], [/^portugal$/i, 'PT'], [/^(ireland|irlande|\u00e9ire)$/i, 'IE'], [/^(luxembourg|luxemburg)$/i, 'LU'],
  [/^(suisse|schweiz|switzerland|svizzera)$/i, 'CH'], [/^(united kingdom|royaume-uni|england|scotland|wales)$/i, 'GB'], [/^(sverige|sweden)$/i, 'SE'],
  [/^(norge|norway)$/i, 'NO'], [/^(danmark|denmark)$/i, 'DK'], [/^(polska|poland)$/i, 'PL'], [/^(suomi|finland)$/i, 'FI'], [/^india$/i, 'IN'],
  [/^(usa|u\.s\.a\.|united states( of america)?)$/i, 'US'], [/^canada$/i, 'CA'], [/^australia$/i, 'AU'], [/^(new zealand)$/i, 'NZ'], [/^singapore$/i, 'SG'], [/^malaysia$/i, 'MY'],
];
/** The states and union territories of India, as addresses print them. */
const IN_STATES = /\b(Andhra Pradesh|Arunachal Pradesh|Assam|Bihar|Chhattisgarh|Goa|Gujarat|Haryana|Himachal Pradesh|Jharkhand|Karnataka|Kerala|Madhya Pradesh|Maharashtra|Manipur|Meghalaya|Mizoram|Nagaland|Odisha|Orissa|Punjab|Rajasthan|Sikkim|Tamil Nadu|Telangana|Tripura|Uttar Pradesh|Uttarakhand|West Bengal|New Delhi|Puducherry)\b/i;
/** The country code of a web or mail domain ("www.holzbau.de", "compta@atelier.fr", "sales@example.co.uk"). */
const DOMAIN = /(?:www\.|@)[\w-]+(?:\.[\w-]+)*\.(de|fr|nl|be|at|es|it|pt|ie|lu|ch|uk|se|no|dk|pl|fi|in|au|nz|sg|my|ca)\b/gi;

/** The countries the paper names: IBANs and VAT numbers (strong), tax words and phone numbers (weak), with weights. */
export function countryEvidence(texts: readonly string[], addresses = true): Map<string, number> {
  const w = new Map<string, number>();
  const add = (c: string, n: number) => { if (CURRENCY_OF[c]) w.set(c, (w.get(c) ?? 0) + n); };
  for (const t of texts) {
    // "IBAN NL91 ABNA 0417 1643 00", "DE08 7009 0100 1234 5678 90"
    for (const m of t.matchAll(/\b([A-Z]{2})\d{2}\s?(?:[A-Z0-9]{4}\s?){2,7}[A-Z0-9]{1,4}\b/g)) add(m[1], 3);
    // "USt-IdNr. DE123456789", "BTW NL123456789B01", "TVA FR 11 123456782", "CHE-123.456.789 MWST", "ATU12345678"
    for (const m of t.matchAll(/\b(AT|BE|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|GB|NO)\s?U?\d[\d\s.]{7,13}(?:B\d{2}|MVA|01)?\b/g)) add(m[1], 2);
    if (/\bCHE[-\s]?\d{3}[.\s]?\d{3}[.\s]?\d{3}\b/.test(t)) add('CH', 3);
    if (/\bMVA\b|\bForetaksregisteret\b/.test(t)) add('NO', 1);
    if (/\bCVR\b/.test(t)) add('DK', 1);
    if (/\bNIP\b|\bREGON\b/.test(t)) add('PL', 1);
    if (/\bDI[ČC]\b|\bI[ČC]O\b/.test(t)) add('CZ', 1);
    if (/\bABN\b/.test(t)) add('AU', 1);
    // an Indian GSTIN (state code, PAN, entity, "Z", check): "29AABCU9603R1ZM"; India's split GST
    if (/\b\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]\b/.test(t)) add('IN', 3);
    if (/\b(IGST|CGST|SGST|UTGST|GSTIN)\b/.test(t)) add('IN', 1);
    // Indian paper: a PAN ("PAN: AABCU9603R"), a private limited company ("Pvt. Ltd."), a state of India, amounts in lakhs and crores
    if (/\bPAN\b\W{0,3}[A-Z]{5}\d{4}[A-Z]\b/.test(t)) add('IN', 2);
    if (/\b(Pvt\.?\s?Ltd|Private Limited)\b/i.test(t)) add('IN', 1);
    if (IN_STATES.test(t)) add('IN', 1);
    if (/\b(lakhs?|crores?|paise)\b/i.test(t)) add('IN', 1);
    if (/\bSdn\.?\s?Bhd\b|\bBerhad\b/i.test(t)) add('MY', 1);
    if (/\b(GST\/HST|HST)\b/.test(t)) add('CA', 1);
    for (const m of t.matchAll(/(?:\+|\b00)(\d{2,3})[\s(]/g)) { const c = PHONE_CODES[m[1]] ?? PHONE_CODES[m[1].slice(0, 2)]; if (c) add(c, 1); }
    // addresses: a US state and ZIP ("CA 94105"), a UK postcode ("LS1 4AB")
    if (US_ZIP.test(t)) add('US', 2);
    if (/\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b/.test(t)) add('GB', 1);
    // the document's own name in a language of one country's paper, the weakest evidence ("Rechnung", "Factuur", "Fattura")
    const title = DOC_TITLES.find(([re]) => re.test(t));
    if (title) add(title[1], 0.5);
    for (const [re, c] of TAX_WORDS) if (re.test(t)) add(c, 0.5);
    // the country line of an address (the line alone, or its last part after a postcode and place: "75002 Paris, France"),
    // and web and mail domains; the customer's country is printed as often as the issuer's, so these only
    // answer where nothing is printed at all, never which dollar or crown a printed sign is
    if (!addresses) continue;
    // any part of the line, with a postcode after it taken off ("Karnataka, India - 560066", "Deutschland 80331")
    const parts = t.split(/[,\u00b7|\u2013]\s*|\s-\s/).map((p) => p.trim().replace(/\.$/, '').replace(/[\s-]*\d[\d\s-]*$/, '').trim()).filter(Boolean);
    const country = COUNTRY_NAMES.find(([re]) => re.test(t.trim()) || parts.some((p) => re.test(p)));
    if (country) add(country[1], 1);
    for (const m of t.matchAll(DOMAIN)) add(m[1].toUpperCase() === 'UK' ? 'GB' : m[1].toUpperCase(), 0.5);
  }
  return w;
}

function likeliestCountry(texts: readonly string[], among?: (c: string) => boolean): string | undefined {
  return [...countryEvidence(texts, !among).entries()].filter(([c]) => !among || among(c)).sort((a, b) => b[1] - a[1])[0]?.[0];
}

export interface DocumentCurrency {
  code: string;
  /** mark: printed (code, word or symbol); country: a crown or a dollar sign placed by the country; default: only the country says. */
  how: 'mark' | 'country' | 'default';
  /** How many lines print each currency as a mark (code, word, or symbol on a price). */
  marks?: Map<string, number>;
}

/**
 * The currency a document names most: currency codes and words wherever they are, symbols only on a
 * price (with decimals, "$" in front) — an OCR'd "$000022185" or "53.50 $" is a misread letter, not
 * dollars; crowns and dollars placed by the country.
 */
export function documentCurrency(texts: readonly string[]): DocumentCurrency | undefined {
  const counts = new Map<string, number>();
  const add = (code: string) => counts.set(code, (counts.get(code) ?? 0) + 1);
  let crowns = 0, dollars = 0;
  for (const t of texts) {
    const c = findCurrency(t);
    if (c) {
      if (/^[A-Za-z]/.test(c.raw)) add(c.code);
      // dollars are written before the amount; "53.50 $" is a misread tax code (or French style)
      else if (findAmounts(t).some((a) => a.currency === c.code && a.hasDecimals && (c.code !== 'USD' || /^[-−(\s]*\$/.test(a.raw)))) {
        if (c.code === 'USD' && c.raw === '$') dollars++;
        add(c.code);
      }
      continue;
    }
    const mark = MARKS.find(([re]) => re.test(t));
    if (mark) add(mark[1]);
    else if (CROWN.test(t)) crowns++;
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  const nordic = (c: string) => ['SE', 'NO', 'DK', 'IS'].includes(c);
  if (crowns && (!best || crowns > best[1])) return { code: CURRENCY_OF[likeliestCountry(texts, nordic) ?? 'SE'], how: 'country' };
  if (best) {
    // "$" alone: the dollar of the country the paper comes from, where it names a dollar country
    if (best[0] === 'USD' && dollars === best[1]) {
      const country = likeliestCountry(texts, (c) => ['CA', 'AU', 'NZ', 'SG', 'HK'].includes(c));
      if (country) return { code: CURRENCY_OF[country], how: 'country' };
    }
    return { code: best[0], how: 'mark', marks: counts };
  }
  const country = likeliestCountry(texts);
  return country ? { code: CURRENCY_OF[country], how: 'default' } : undefined;
}
