import { findDates, normalizeLabel } from '@quire/models';
import type { Box } from '@quire/core';
import { pageLines, type DocIndex, type RowSegment } from './doc-index.js';
import { labelConcept, readLabel } from './label-lexicon.js';

/**
 * The two parties of an invoice, read the way a bookkeeper does. The issuer (vendor) is named by a
 * label ("From", "Lieferant", "Fournisseur", "Sprzedawca"), by the one-line sender address printed
 * above the recipient's window ("Kraxi GmbH · Flugzeugallee 17 · 12345 Papierfeld"), and by
 * repetition: its name stands in the letterhead, the footer and the bank details, usually with a
 * legal form. The customer is the block under "Bill to", "Rechnungsempfänger", "Factuuradres",
 * "Nabywca"…, or the address block under the sender line. A street line, a phone number, a
 * registration number or a label is never a party's name.
 */

export type PartyRole = 'vendor' | 'customer';

const fold = (s: string) => normalizeLabel(s.replace(/ł/g, 'l').replace(/[øØ]/g, 'o').replace(/ß/g, 'ss').toLowerCase());

const VENDOR_LABELS = new Set([
  'from', 'seller', 'vendor', 'supplier', 'issuer', 'sold by', 'billed by', 'issued by', 'provider', 'service provider', 'payee',
  'rechnungsersteller', 'aussteller', 'lieferant', 'verkaufer', 'leistungserbringer', 'absender', 'rechnungssteller',
  'fournisseur', 'vendeur', 'emetteur', 'prestataire', 'leverancier', 'verkoper', 'afzender', 'proveedor', 'emisor', 'vendedor',
  'fornitore', 'cedente', 'venditore', 'cedente prestatore', 'fornecedor', 'emitente', 'sprzedawca', 'wystawca', 'dostawca',
  'leverantor', 'saljare', 'selger', 'leverandor', 'saelger', 'myyja', 'laskuttaja', 'auftragnehmer', 'remit to', 'pay to', 'payable to', 'ship from', 'shipped from', 'dispatch from',
  'seller name', 'supplier name', 'vendor name', 'bill from', 'dodavatel', 'elado', 'szallito', 'furnizor', 'satici', 'prodavatel', 'expediteur', 'remitente', 'mittente', 'sprzedawcy', 'wystawcy', 'dostawcy', 'emittente', 'prestatore', '販売者', '発行元', '請求元', '销售方', '销货方', '开票方', '收款方',
]);
/** Payee labels that end a sentence ("Please make all cheques payable to", "Bitte überweisen Sie an"): who is paid issued the bill. */
const PAYEE_ENDINGS = ['payable to', 'remit to', 'pay to', 'made out to', 'a l ordre de', 'zahlbar an', 'uberweisen sie an'];
/** Labels of the customer's block, with how surely the block is the customer (a delivery address less so). */
const CUSTOMER_LABELS = new Map<string, number>([
  ...['bill to', 'billed to', 'invoice to', 'sold to', 'customer', 'client', 'buyer', 'recipient', 'purchaser', 'invoice address', 'billing address',
    'kunde', 'rechnungsempfanger', 'kaufer', 'auftraggeber', 'rechnungsadresse', 'leistungsempfanger', 'empfanger',
    'klant', 'factuuradres', 'afnemer', 'koper', 'acheteur', 'facture a', 'facturer a', 'adresse de facturation', 'destinataire',
    'cliente', 'destinatario', 'comprador', 'facturar a', 'committente', 'cessionario', 'cessionario committente', 'nabywca', 'odbiorca', 'kupujacy', 'platnik', 'nabywcy', 'odbiorcy', 'acquirente',
    'kund', 'kjoper', 'kopare', 'asiakas', 'fakturaadress', 'fakturaadresse', 'customer name', 'client name', 'buyer name', 'bill to party', 'billing to',
    'rechnungsanschrift', 'billing', 'addressed to', 'adresse a', 'geadresseerde', 'direccion de facturacion', 'adquiriente', 'adquirente', 'intestatario',
    'fatturare a', 'indirizzo di fatturazione', 'faktureringsadress', 'ostaja', 'laskutusosoite', 'odberatel', 'vevo', 'cumparator', 'beneficiar', 'alici'].map((l) => [l, 0.8] as [string, number]),
  // a role the paper's trade gives the customer (subscriber, debtor, orderer), or a bare "To"/"Attn": likely the customer's block
  ...['receiver', 'to', 'prepared for', 'payer', 'besteller', 'abnehmer', 'souscripteur', 'abonne', 'debiteur', 'receptor', 'adresat'].map((l) => [l, 0.75] as [string, number]),
  ...['購入者', '請求先', '请求先', '购买方', '购货方', '客户', '顧客', '宛先'].map((l) => [l, 0.8] as [string, number]),
  ...['attn', 'attention', 'shipping', 'enviar a', 'ship to', 'shipped to', 'deliver to', 'delivered to', 'delivery address', 'shipping address', 'ship to party', 'consignee', 'lieferadresse', 'lieferanschrift',
    'warenempfanger', 'leveringsadres', 'afleveradres', 'adresse de livraison', 'livre a', 'direccion de entrega', 'direccion de envio', 'indirizzo di consegna',
    'indirizzo di spedizione', 'leveransadress'].map((l) => [l, 0.7] as [string, number]),
]);

/** Words that say a block holds a party's particulars ("Datos del emisor", "Dane nabywcy", "Customer details", "Adresse du client"). */
const PARTY_DATA = new Set(['details', 'detail', 'data', 'coordonnees', 'dane', 'daten', 'angaben', 'gegevens', 'donnees', 'datos', 'dati', 'dados', 'information', 'informations',
  'info', 'informacion', 'informazioni', 'informacoes', 'address', 'adres', 'adresse', 'anschrift', 'direccion', 'indirizzo', 'endereco', 'adresa']);
/** The small words that link them to the role ("del", "du", "van de", "of the"). */
const PARTY_LINKS = new Set(['the', 'of', 'de', 'del', 'della', 'dello', 'do', 'da', 'des', 'du', 'van', 'der', 'het', 'le', 'la', 'el', 'il', 'o', 'a', 'dell']);
/** A document word then "to" ("Factuur aan", "Rechnung an", "Fatturato a", "Faktura till", "Fatura para"): whom it is addressed to. */
const DOC_WORDS = new Set(['invoice', 'invoiced', 'bill', 'billed', 'factuur', 'gefactureerd', 'rechnung', 'facture', 'facturee', 'factura', 'facturado', 'facturada',
  'fattura', 'fatturato', 'fatturata', 'fatura', 'faturado', 'faktura', 'fakturerad', 'fakturert', 'faktureres', 'faktureret', 'sold', 'issued']);
const TO_WORDS = new Set(['to', 'aan', 'an', 'a', 'para', 'till', 'til', 'for', 'pour', 'per', 'dla']);
const FROM_WORDS = new Set(['from', 'van', 'von', 'de', 'da', 'fra', 'fran', 'od', 'by', 'par']);
/** Salutations that open the addressee's block ("Spett.le", "Messrs", "M/s"). */
const ADDRESSEE = new Set(['spett le', 'spettabile', 'spett', 'messrs', 'm s', 'egregio', 'gentile', 'alla cortese attenzione di']);

/** Words for particulars that Germanic languages write joined to the role ("Kundenanschrift", "Lieferantendaten", "Klantgegevens"). */
const JOINED_DATA = /^(\p{L}{4,}?)(daten|anschrift|adresse|angaben|gegevens|adres)$/u;

/** The role a party label names, by its words: a known label, with filler words around it, or a document word and "to"/"from". */
function labelRole(head: string): { role: PartyRole; weight: number } | undefined {
  if (VENDOR_LABELS.has(head)) return { role: 'vendor', weight: 0.8 };
  const w = CUSTOMER_LABELS.get(head);
  if (w) return { role: 'customer', weight: w };
  // "kundenanschrift": the role's stem (its joining -n, -s, -en dropped) and a word for particulars
  const joined = JOINED_DATA.exec(head);
  if (joined) {
    for (const stem of [joined[1], joined[1].replace(/(en|n|s)$/, '')]) {
      if (VENDOR_LABELS.has(stem)) return { role: 'vendor', weight: 0.78 };
      if (CUSTOMER_LABELS.has(stem)) return { role: 'customer', weight: CUSTOMER_LABELS.get(stem)! - 0.02 };
    }
  }
  if (ADDRESSEE.has(head)) return { role: 'customer', weight: 0.75 };
  const all = head.split(' ').filter(Boolean);
  // "Please make cheques payable to", "Kindly remit to": a sentence ending in a payee label
  if (all.length > 2 && all.length <= 8 && PAYEE_ENDINGS.some((l) => head.endsWith(` ${l}`))) return { role: 'vendor', weight: 0.72 };
  if (all.length === 2 && DOC_WORDS.has(all[0]) && TO_WORDS.has(all[1])) return { role: 'customer', weight: 0.78 };
  if (all.length === 2 && DOC_WORDS.has(all[0]) && FROM_WORDS.has(all[1])) return { role: 'vendor', weight: 0.78 };
  // "LE CLIENT", "The Supplier" may be a name; the role word is a label with a word for particulars ("Datos del emisor")
  if (!all.some((x) => PARTY_DATA.has(x))) return undefined;
  const core = all.filter((x) => !PARTY_DATA.has(x) && !PARTY_LINKS.has(x)).join(' ');
  if (!core) return undefined;
  if (VENDOR_LABELS.has(core)) return { role: 'vendor', weight: 0.78 };
  if (CUSTOMER_LABELS.has(core)) return { role: 'customer', weight: CUSTOMER_LABELS.get(core)! - 0.02 };
  return undefined;
}

const LEGAL = /\b(gmbh|ag|kg|ug|ohg|e ?k|mbh|ltd|limited|llc|llp|inc|corp|corporation|plc|pty|pte|sdn bhd|bhd|bv|b v|nv|n v|vof|sarl|sas|sasu|sa|eurl|srl|s r l|spa|s p a|sl|s l|slu|lda|sp z o o|sp k|ab|as|a s|asa|oy|oyj|aps|a p s|kk|co ltd|有限公司|株式会社|合同会社)$|\b(gmbh|ltd|inc|sarl|s\.?a\.?r\.?l|b\.?v\.?|s\.?r\.?l|s\.?p\.?a|sp\. z o\.o\.)\b/;
// "Brackets (3 kg)": a unit after a number is no legal form
const isLegal = (t: string) => LEGAL.test(fold(t)) && !/\d\s*\p{L}{1,4}\)?\s*$/u.test(t.trim());

/** A street line: a street word ending a word ("Lieferantenstraße 20", "Keizersgracht 112"), a street and a house number, a postcode and a place. */
const STREET_WORD = /(strasse|str|weg|allee|gasse|platz|ring|damm|ufer|chaussee|laan|straat|gracht|plein|kade|dijk|singel|vej|gade|gatan|gata|vagen|veien|gate|tie|katu|ulica|ul|aleja|rue|avenue|av|chemin|boulevard|bd|blvd|impasse|quai|via|viale|piazza|corso|calle|avenida|plaza|paseo|rua|travessa|street|st|road|rd|lane|drive|way|court|square|jalan|jln|route|place|carrer|avda|avinguda|faubourg|fbg|cours|close|crescent|terrace|parkway|pkwy|largo|praca|strada|vicolo|markt|steig|pfad)$/;
/**
 * What opens an address line that prints no house number: an industrial estate, a locality, a building,
 * a post-office box ("Zone Industrielle des Vignes", "Lieu-dit La Croix", "Gewerbegebiet Nord", "Postfach 12 34").
 */
const ADDRESS_OPENER = /^(zone industrielle|zone artisanale|zone d activites?|zi|za|zac|lieu dit|hameau|residence|batiment|bat|gewerbegebiet|industriegebiet|gewerbepark|industriepark|localita|frazione|building|bldg|po box|p o box|postfach|postbus|apartado|casella postale|bp|cs)\b/;
export function isStreetLine(t: string): boolean {
  const words = fold(t).split(' ');
  if (ADDRESS_OPENER.test(fold(t))) return true;
  if (/^\d{4,6}\s+\p{L}/u.test(t.trim()) || /^\d{4}\s?[A-Z]{2}\s+\p{L}/u.test(t.trim()) || /^[A-Z]{1,2}-?\d{4,5}\s+\p{L}/u.test(t.trim())) return true;
  // "Ecke 12", "Rabattstr. 25", "27 rue Henri Rolland", "Hafenstraße 9a"
  const number = /^\d{1,4}[a-z]?$/;
  if (words.length >= 2 && words.length <= 5 && (number.test(words[words.length - 1]) || number.test(words[0]))) {
    if (words.some((w) => STREET_WORD.test(w))) return true;
    if (number.test(words[words.length - 1]) && words.length <= 3 && !isLegal(t)) return true;
  }
  return words.some((w) => STREET_WORD.test(w) && w.length > 6) && /\d/.test(t);
}

/** A salutation or form of address printed on its own line above the addressee's name ("Firma", "Herrn", "Madame"). */
const SALUTATION = /^(firma|fa|herr|herrn|frau|familie|monsieur|madame|mademoiselle|m|mme|mlle|mr|mrs|ms|miss|dear|de heer|mevrouw|dhr|mevr|sr|sra|senor|senora|don|dona|sig|sig ra|signor|signora|spett le)$/;

const FURNITURE = /@|www\.|https?:|\b(tel|telefon|telephone|phone|fax|mobile|gln|iln|ust|usst|vat|tva|btw|iva|siret|siren|rcs|iban|bic|swift|hrb|hra|kvk|nip|regon|ein|tax|steuer|reg|registration|page|seite|e mail|email|contact|kontakt|attn|attention|z hd|ansprechpartner|c o)\b/;
const PLACEHOLDER = /\b(name|nom|logo)\b/;

/**
 * The paper's own phrases, which no party is named by: a possessive ("Your invoice", "Votre facture",
 * "Ihre Rechnung", "Mon compte"), thanks ("Thank you for your business", "Merci de votre confiance"), a
 * button or menu of a page printed from the web ("Download PDF", "Print", "Jetzt bezahlen", "Télécharger"),
 * a section or copy title ("Récapitulatif", "Übersicht", "Original for Recipient").
 */
const POSSESSIVE = /^(your|my|our|votre|vos|mon|ma|mes|notre|nos|ihre?|unsere?|meine?|uw|onze|mijn|su|sus|mi|nuestra|nuestro|tu|la tua|il tuo|la vostra|il vostro)\s+(.+)$/;
/** What a possessive on paper refers to ("Ma Boulangerie", "My Muesli" are names; "Mon compte", "Your order" are not). */
const OWN_PAPER = /\b(account|compte|konto|area|espace|order|orders|commande|commandes|bestellung|bestelling|pedido|ordine|contract|contrat|vertrag|abonnement|subscription)\b/;
const THANKS = /^(thank|thanks|merci|vielen dank|danke|herzlichen dank|bedankt|dank u|gracias|grazie|obrigado|obrigada)\b/;
const BUTTON = /^(pay|download|view|print|continue|click|track|sign in|log in|log out|back to|telecharger|imprimer|payer|drucken|herunterladen|bezahlen|jetzt bezahlen|downloaden|afdrukken|betalen|bekijk|descargar|imprimir|pagar|scarica|stampa|paga)\b/;
const SECTION = /^(recapitulatif|zusammenfassung|ubersicht|overzicht|samenvatting|resumen|riepilogo|summary|overview|details?|detalle|dettaglio|espace client|customer area|kundenbereich)$|^(detail de|details of|detalle de|dettaglio (della|del)|(original|duplicate|triplicate) (for|copy)|copy for)\b/;
export function isPaperPhrase(t: string): boolean {
  const f = fold(t);
  const own = POSSESSIVE.exec(f);
  if (own && (OWN_PAPER.test(own[2]) || readLabel(own[2]).known > 0)) return true;
  if (THANKS.test(f) || SECTION.test(f)) return true;
  // a button's label is a verb alone or with what it acts on ("Print", "Download PDF", "Pay now"); a
  // company may be named "Print Express"
  const button = BUTTON.exec(f);
  if (!button || f.split(' ').length > 4 || isLegal(t)) return false;
  const rest = f.slice(button[0].length).trim();
  return !rest || /\b(now|here|this|page|pdf|copy|maintenant|jetzt|nu|ahora|ora)\b/.test(rest) || readLabel(rest).known > 0;
}

/** A line that can be a party's name: words, not a number, street, contact line, date, label or sentence. */
export function isNameLike(t: string): boolean {
  const text = t.trim();
  const letters = (text.match(/\p{L}/gu) ?? []).length, digits = (text.match(/\d/g) ?? []).length;
  if (letters < 2 || digits > letters / 2 || text.length > 60 || text.split(/\s+/).length > 7) return false;
  // "CUST-IE-001", "REFCLI0215": one token with digits is a code
  if (!/\s/.test(text) && /\d/.test(text)) return false;
  // a word of three letters at least ("5 kg" is a quantity), not a parenthesised remark
  if (!/\p{L}{3}/u.test(text) || /^[([#]/.test(text)) return false;
  // "Your order AB321": the paper's words and a code
  if (/\d/.test(text) && readLabel(text).known > 0) return false;
  const f = fold(text);
  if (FURNITURE.test(f) || PLACEHOLDER.test(f) || SALUTATION.test(f) || /:/.test(text) || findDates(text).length) return false;
  if (isStreetLine(text) || labelConcept(text) || labelRole(f) || isPaperPhrase(text)) return false;
  return true;
}

interface Seg extends RowSegment { row: number }

/** Page 1's printed rows, cut into their segments (the columns of each row). */
function rowsOfFirstPage(ix: DocIndex): Seg[][] {
  if (!ix.units.length) return [];
  const first = ix.units.reduce((m, u) => Math.min(m, u.page), Infinity);
  const rows = pageLines(ix, first) ?? [];
  return rows.map((r, i) => (r.segments?.length ? r.segments : r.box ? [{ text: r.text, box: r.box, ids: [r.id] }] : []).map((s) => ({ ...s, text: s.text.replace(/\s+/g, ' ').trim(), row: i })));
}

const overlapX = (a: Box, b: Box) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);

/** The first name-like segment under `seg` (in its column) within a few rows. */
function nameBelow(rows: Seg[][], seg: Seg, maxRows = 4): Seg | undefined {
  for (let r = seg.row + 1; r < Math.min(rows.length, seg.row + 1 + maxRows); r++) {
    const under = rows[r].filter((s) => overlapX(s.box, seg.box) > 0 || Math.abs(s.box.x0 - seg.box.x0) < 0.02);
    const hit = under.find((s) => isNameLike(s.text));
    if (hit) return hit;
  }
  return undefined;
}

export interface PartyCandidate { value: string; ids: string[]; score: number; at: number }

/** What separates the parts of a name-and-address line: a comma, a middle dot or bar, a spaced dash. */
const PART_SEPARATOR = /\s*(?:,|\s[·•|∙⋅–—]\s|\s-\s)\s*/g;

/** A part of a line that starts an address or the contact details: a street, a house number, a postcode and place, a phone or mail. */
function opensAddress(part: string): boolean {
  const p = part.trim();
  return isStreetLine(p) || /^\d/.test(p) || POSTCODE_LINE.test(p) || ADDRESS_OPENER.test(fold(p)) || FURNITURE.test(fold(p));
}

/**
 * A party's name printed with its address on one line ("Brightwater Studio Ltd, 12 High Street, Leeds LS1 4AB",
 * "Shree Traders Pvt. Ltd., 12 MG Road, Pune 411001", "Rahul Sharma, 4 Park Street, Kolkata"): the name is what
 * comes before the first part that opens the address; a legal form set off by a comma ("Amazon Web Services,
 * Inc.") is no address and stays with the name. The text as printed when no part opens an address.
 */
export function nameBeforeAddress(text: string): string {
  for (const m of text.matchAll(PART_SEPARATOR)) {
    const next = text.slice(m.index + m[0].length).split(PART_SEPARATOR)[0];
    if (!next || !opensAddress(next)) continue;
    const name = text.slice(0, m.index).trim();
    return /\p{L}{2}/u.test(name) ? name : text;
  }
  return text;
}

/** "Lieferant", "Bill to:", "CLIENT :", "Rechnungsempfänger (Name, Anschrift)": a party label, and any value after its colon. */
function partyLabel(text: string): { role: PartyRole; weight: number; inline?: string } | undefined {
  const m = /^([^:]{2,40}?)\s*:\s*(.*)$/.exec(text);
  const head = fold((m ? m[1] : text).replace(/\([^)]*\)/g, ' '));
  const inline = m?.[2]?.trim() || undefined;
  const r = labelRole(head);
  return r ? { ...r, inline } : undefined;
}

const PAYEE = /\b(titulaire|inhaber|kontoinhaber|account holder|account name|beneficiary|beneficiaire|begunstigde|rekeninghouder|ten name van|intestatario|intestato a|titular|beneficiario|payee|zahlungsempfanger|mottagare|kontohaver|posiadacz)\b/;

/** Bank details: an IBAN, BIC or SWIFT code, an account or sort code, a bank routing number. */
const BANK = /\b(IBAN|BIC|SWIFT|sort code|account (no|number)|Kontonummer|BLZ|RIB|routing)\b/i;

const SENDER_SEPARATOR = /\s[·•●|∙⋅]\s|\s-\s/;

/** "Kraxi GmbH · Flugzeugallee 17 · 12345 Papierfeld": a one-line sender address (three parts or more, one of them a street or place). */
function senderLine(s: Seg): string[] | undefined {
  if (!/[·•●|∙⋅]/.test(s.text)) return undefined;
  const parts = s.text.split(SENDER_SEPARATOR).map((p) => p.trim()).filter(Boolean);
  // a part may hold street and place together ("12 High Street, Leeds LS1 4AB")
  return parts.length >= 3 && parts.slice(1).some((p) => isStreetLine(p) || p.split(/,\s*/).some((q) => isStreetLine(q) || POSTCODE_LINE.test(q))) ? parts : undefined;
}

/** Where a legal mention turns from the name to its capital ("X SARL au capital de 10 000 €", "X GmbH mit einem Stammkapital von …"). */
const CAPITAL = /\s+(au capital (social )?de|with (a )?share capital|mit einem stammkapital|capitale sociale|con capital social|met een kapitaal)\b.*$/i;

/**
 * The issuer's legal mention, printed in the footer when the letterhead's name is a logo: its name with
 * a legal form, then its capital, registration, tax or bank numbers ("Atelier Moreau SARL au capital de
 * 10 000 € · SIRET … · RCS Lyon", "Holzbau Lechner GmbH | HRB 12345 | USt-IdNr. DE…"); or the account
 * holder of the bank details ("Kontoinhaber: Holzbau Lechner · IBAN DE…"), who is paid, so who issued it.
 */
function legalMention(s: Seg): string | undefined {
  const capital = CAPITAL.exec(s.text);
  const parts = s.text.replace(CAPITAL, capital ? ' · capital' : '').split(/\s[·•|∙⋅–—]\s|\s-\s|,\s/).map((p) => p.trim()).filter(Boolean);
  if (parts.length < 2) return undefined;
  const rest = fold(parts.slice(1).join(' '));
  if (!(FURNITURE.test(rest) || /\bcapital\b/.test(rest))) return undefined;
  const holder = /^([^:]{3,40}?)\s*:\s*(.+)$/.exec(parts[0]);
  if (holder && PAYEE.test(fold(holder[1])) && isNameLike(holder[2])) return holder[2];
  // "Sarl au capital de …": a legal form alone names no one
  const named = fold(parts[0]).replace(LEGAL, '').replace(/\s+/g, '');
  return isLegal(parts[0]) && isNameLike(parts[0]) && /\p{L}{3}/u.test(named) ? parts[0] : undefined;
}

/** A label that opens the customer's block, in any language the party lexicon knows ("Factuur aan", "Dane nabywcy"). */
export function isCustomerLabel(text: string): boolean {
  return partyLabel(text)?.role === 'customer';
}

/** A postcode and a place: "80331 München", "1015 CX Amsterdam", "00-950 Warszawa", "D02 XA00 Dublin", "LS1 4AB Leeds", "Salem OR 97301". */
const POSTCODE_LINE = /^(\d{4,5}|\d{4}\s?[A-Z]{2}|\d{2}-\d{3}|\d{3}\s\d{2}|[A-Z]{1,2}-\d{4,5}|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z\d]{2,3}|[A-Z]\d{2}\s[A-Z\d]{4})\s+\p{L}|\p{L}[\p{L} .'-]*,?\s+[A-Z]{2}\s+\d{5}(-\d{4})?$/u;

/**
 * The recipient's address in the window of an envelope, when no label names it and no sender line sits
 * over it: a letter folded for a windowed envelope prints it in the upper part of the page (from about
 * a tenth to a third down), in the left or the right half, as a name, maybe a contact, a street and a
 * postcode-and-place line, with no phone, mail or tax number (those are the issuer's). Its name is printed
 * nowhere else on the page (the issuer's recurs in the footer, the bank details). Something is printed
 * above it — the letterhead. Only one such block may qualify: two are a reading this cannot settle.
 */
function windowRecipient(rows: Seg[][]): Seg | undefined {
  const all = rows.map((r) => fold(r.map((s) => s.text).join(' ')));
  const found: Seg[] = [];
  for (const row of rows) {
    for (const name of row) {
      const b = name.box;
      if (b.y0 < 0.1 || b.y0 > 0.35 || !(b.x1 < 0.55 || b.x0 > 0.45) || !isNameLike(name.text) || readLabel(name.text).unknown === 0) continue;
      // the block under the name: aligned lines, no wider gap than a line, to its postcode line
      const block: Seg[] = [name];
      for (let r = name.row + 1; r < Math.min(rows.length, name.row + 5); r++) {
        const last = block[block.length - 1];
        const next = rows[r].find((s) => Math.abs(s.box.x0 - b.x0) < 0.02);
        if (!next || next.box.y0 - last.box.y1 > 1.2 * (last.box.y1 - last.box.y0)) break;
        block.push(next);
        if (POSTCODE_LINE.test(next.text.trim())) break;
      }
      const end = block[block.length - 1];
      if (block.length < 3 || !POSTCODE_LINE.test(end.text.trim()) || block.some((s) => FURNITURE.test(fold(s.text)))) continue;
      // the line above the name is not part of the block (a label or the sender line would have placed it)
      const above = rows[name.row - 1]?.find((s) => Math.abs(s.box.x0 - b.x0) < 0.02);
      if (above && name.box.y0 - above.box.y1 < 1.2 * (b.y1 - b.y0)) continue;
      if (!rows.slice(0, name.row).some((r) => r.length)) continue;
      const key = fold(name.text);
      const re = new RegExp(`(^|\\s)${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
      if (all.filter((t) => re.test(t)).length > 1) continue;
      found.push(name);
    }
  }
  return found.length === 1 ? found[0] : undefined;
}

export function partyCandidates(role: PartyRole, ix: DocIndex): PartyCandidate[] {
  const rows = rowsOfFirstPage(ix);
  const out: PartyCandidate[] = [];
  const at = (s: Seg) => s.box.y0;
  const customerRows = new Set<number>();
  for (const row of rows) {
    for (const seg of row) {
      const label = partyLabel(seg.text);
      // "Sold By: Shree Traders Pvt. Ltd., 12 MG Road, Pune": the name printed with its address after the label
      if (label?.inline) label.inline = nameBeforeAddress(label.inline);
      // "Customer: 2": the label's value is printed after it, and is no name
      if (label && !(label.inline && !isNameLike(label.inline))) {
        const value = label.inline && isNameLike(label.inline) ? { text: label.inline, ids: seg.ids, row: seg.row, box: seg.box } : nameBelow(rows, seg);
        if (label.role === 'customer' && value) for (let r = seg.row; r <= value.row + 3 && r < rows.length; r++) customerRows.add(r);
        if (value && label.role === role) out.push({ value: value.text, ids: value.ids, score: label.weight, at: at(seg) });
      }
      // "Account holder: X" in the bank details (an IBAN, BIC or account number within two rows): the payee, who
      // issued the bill — the same words on a utility bill's account box name the customer, so the bank decides
      const holder = role === 'vendor' ? /^([^:]{3,40}?)\s*:\s*(.+)$/.exec(seg.text) : null;
      if (holder && PAYEE.test(fold(holder[1])) && fold(holder[1]).split(' ').length <= 4 && isNameLike(holder[2].trim())
        && rows.slice(Math.max(0, seg.row - 2), seg.row + 3).some((r) => r.some((x) => BANK.test(x.text)))) {
        out.push({ value: holder[2].trim(), ids: seg.ids, score: 0.7, at: at(seg) });
      }
      const mention = role === 'vendor' && !customerRows.has(seg.row) ? legalMention(seg) : undefined;
      // the registered name may differ from the trade name the letterhead prints (which the paper goes by,
      // "LE FOURNISSEUR" over "FOURNISSEUR F SARL au capital de …"): under any letterhead name with some
      // evidence (above the address, repeated, a legal form: 0.6–0.74), over a bare guess (0.5) or none
      if (mention) out.push({ value: mention, ids: seg.ids, score: 0.58, at: at(seg) });
      const sender = senderLine(seg);
      if (sender) {
        const below = nameBelow(rows, { ...seg, box: { ...seg.box, x1: seg.box.x0 + 0.15 } }, 3);
        if (below) for (let r = below.row; r <= below.row + 4 && r < rows.length; r++) customerRows.add(r);
        if (role === 'vendor' && isNameLike(sender[0])) out.push({ value: sender[0], ids: seg.ids, score: 0.76, at: at(seg) });
        if (role === 'customer' && below) out.push({ value: below.text, ids: below.ids, score: 0.74, at: at(below) });
      }
    }
  }
  // neither a label nor a sender line placed the recipient: the address in the envelope's window
  if (!customerRows.size) {
    const window = windowRecipient(rows);
    if (window) {
      for (let r = window.row; r <= window.row + 4 && r < rows.length; r++) customerRows.add(r);
      if (role === 'customer') out.push({ value: window.text, ids: window.ids, score: 0.62, at: at(window) });
    }
  }
  if (role === 'customer') return out;
  // the issuer's name repeats (letterhead, footer, account holder) and often carries a legal form
  const all = rows.map((r) => fold(r.map((s) => s.text).join(' ')));
  const seen = new Set<string>();
  for (const row of rows) {
    for (const seg of row) {
      const name = seg.text.replace(/^(logo)\s+/i, '');
      const key = fold(name);
      if (seen.has(key) || customerRows.has(seg.row) || !isNameLike(name) || key.length < 3) continue;
      // words the lexicon knows ("INVOICE", "Rechnung", "Total") are the paper's, not a name
      if (readLabel(name).unknown === 0) continue;
      seen.add(key);
      const re = new RegExp(`(^|\\s)${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
      const count = all.filter((t) => re.test(t)).length;
      const legal = isLegal(name);
      // without a legal form, a repeated name must look like one (capitals) and stand in the letterhead or the footer, not in a table
      const zone = seg.box.y0 < 0.3 || seg.box.y0 > 0.8;
      const capitalised = name === name.toUpperCase() || name.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w)).length >= 2;
      if (!legal && (count < 2 || !zone || !capitalised || seg.ids.some((id) => id.startsWith('tbl-')))) continue;
      // the account holder of the bank details is the payee
      const payee = all.some((t) => re.test(t) && PAYEE.test(t));
      const score = 0.56 + (legal ? 0.08 : 0) + 0.05 * Math.min(2, count - 1) + (payee ? 0.08 : 0) + (seg.box.y0 < 0.25 ? 0.03 : 0);
      out.push({ value: name, ids: seg.ids, score: Math.min(0.74, score), at: at(seg) });
    }
  }
  return out;
}

/** Whether a string field asks for the customer (its name or description names the other party). */
export function customerField(name: string, labels: string[], description: string): boolean {
  const words = new Set(`${name} ${labels.join(' ')} ${description.split(/[.;]/)[0]}`.split(/[^\p{L}]+/u).map((w) => w.toLowerCase()));
  const nameWords = fold(name).split(' ');
  if (nameWords.some((w) => ['address', 'street', 'city', 'zip', 'postcode', 'country', 'email', 'phone', 'id', 'number', 'no', 'vat', 'tax'].includes(w))) return false;
  return ['customer', 'client', 'buyer', 'recipient', 'purchaser', 'billed', 'bill', 'consignee', 'kunde', 'klant', 'cliente', 'nabywca'].some((w) => words.has(w) && nameWords.concat(description ? fold(description).split(' ').slice(0, 3) : []).includes(w));
}
