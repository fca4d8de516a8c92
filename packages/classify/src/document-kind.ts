import type { Page } from '@quire/core';

/**
 * Document-type cues that do not depend on the language of the page: the word for "invoice" in the
 * languages business paper is written in, VAT/tax registration numbers, amounts printed with a
 * currency, form widgets and drawn entry boxes, a letter's greeting and complimentary close. Topic and pipeline descriptions are matched with word
 * statistics; these cues let a Dutch invoice match "invoice" without sharing an English word with it,
 * and a fillable page that prints almost nothing match "form".
 *
 * A topic or pipeline says which kind it is through its own name and description (same lexicon);
 * a page gives evidence in [0, 1] for each kind. Tables and prose are not kinds here: the page's
 * layout already speaks for them in the word statistics (layoutTerms), and counting them twice made
 * a report with prose and a text with a table of figures swap labels.
 */
export type DocumentKind = 'billing' | 'form' | 'letter';
export const DOCUMENT_KINDS: readonly DocumentKind[] = ['billing', 'form', 'letter'];

/** Letters before a match: a word must start there (compounds such as Rechnungsnummer still match). */
const START = '(?<!\\p{L})';

/** "Invoice" in European and Asian business languages; stems so compounds and plurals match. */
const INVOICE_WORD = new RegExp(`${START}(?:invoice|rechnung|factuur|facture|fattura|factura|faktura|fatura|faktúra|faktur|lasku|számla|τιμολόγιο|счет-фактур|счёт-фактур|rēķin|sąskait|arve|račun|hóa đơn|nota fiscal|bill to)|請求書|发票|發票|세금계산서|インボイス|ใบแจ้งหนี้|ใบกำกับภาษี`, 'iu');

/** A tax registration label followed by an identifier, or an EU VAT number by its country prefix. */
const TAX_ID = new RegExp(`${START}(?:VAT|USt|UID|MwSt|TVA|BTW|IVA|NIP|GSTIN|GST|TIN|ABN|P\\.\\s?IVA|CIF|NIF|MOMS|ALV|DPH|ΑΦΜ|ИНН|Steuer-?nr|Steuernummer)(?:[\\s.:/#-]|-?Id|-?Nr|-?No|No\\.?)*[A-Z]{0,3}\\s?\\d[\\d\\s.-]{5,16}\\d|${START}(?:AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK)\\s?(?:U\\d{8}|\\d{8,12}(?:B\\d{2})?)(?!\\d)|(?:税号|納税者番号|登録番号|统一社会信用代码)`, 'u');

const CURRENCY_CODES = 'EUR|USD|GBP|CHF|JPY|CNY|RMB|INR|PLN|SEK|NOK|DKK|CZK|HUF|AUD|CAD|SGD|HKD|MYR|TRY|RON|BRL|MXN|Rs\\.?|zł|kr|Kč|RM';
const AMOUNT = '\\d{1,3}(?:[.,\\s\']\\d{3})*(?:[.,]\\d{2})|\\d+(?:[.,]\\d{2})';
const CURRENCY_AMOUNT = new RegExp(`(?:[€$£¥₹₩]|${START}(?:${CURRENCY_CODES})(?!\\p{L}))\\s?(?:${AMOUNT})|(?:${AMOUNT})\\s?(?:[€$£¥₹₩円元]|${START}(?:${CURRENCY_CODES})(?!\\p{L}))`, 'gu');

/** "Total" and its neighbours in the same languages, followed by an amount on the same line. */
const TOTAL_WORD = new RegExp(`${START}(?:total|subtotal|summe|gesamt|zwischensumme|betrag|totaal|totale|importe|montant|suma|razem|summa|yhteensä|összesen|celkem|i alt)[^\\n\\d]{0,30}\\d|(?:合計|合计|总计|小計|小计)`, 'iu');

/**
 * A letter's salutation: a greeting word at the start of a line and a comma, colon or "!" before the
 * line ends ("Dear Mr Hargreaves,", "Sehr geehrte Frau Schneider,"; an address line "Madame Claire
 * Dubois" is none), in the languages above.
 */
const SALUTATION = new RegExp(`(?:^|\\n)\\s*(?:dear|sehr geehrte|liebe|cher|chère|chers|madame|monsieur|geachte|beste|estimad[oa]s?|querid[oa]s?|gentile|egregi[oa]|caro|cara|szanown|drog[ia]|kära|hej|hei|kedves|tisztelt|vážen|prezad[oa]|уважаем|dragi|poštovan)(?!\\p{L})[^\\n,:!]{0,60}[,:!]|拝啓|敬启|尊敬的`, 'iu');

/** A letter's complimentary close, in the same languages. */
const CLOSING = new RegExp(`${START}(?:yours sincerely|yours faithfully|yours truly|sincerely|kind regards|best regards|warm regards|with best wishes|mit freundlichen grüßen|freundliche grüße|viele grüße|herzliche grüße|hochachtungsvoll|cordialement|bien à vous|veuillez agréer|met vriendelijke groet|hoogachtend|atentamente|un saludo|cordiali saluti|distinti saluti|z poważaniem|pozdrawiam|med vänliga hälsningar|vänliga hälsningar|med venlig hilsen|med vennlig hilsen|ystävällisin terveisin|üdvözlettel|s pozdravem|atenciosamente|с уважением|srdačan pozdrav)(?!\\p{L})|敬具|此致`, 'iu');

/** Kind words in a topic's or pipeline's name and description. */
const KIND_WORDS: [DocumentKind, RegExp][] = [
  ['billing', new RegExp(`${INVOICE_WORD.source}|${START}(?:bill|bills|billing|receipt|receipts|purchase|quittung|reçu|ricevuta|recibo|paragon|kvitto)(?!\\p{L})`, 'iu')],
  ['form', new RegExp(`${START}(?:form|forms|formular|formulaire|formulier|modulo|formulario|formularz|blankett|application|questionnaire|fill|fillable)(?!\\p{L})|申請書|申请表|様式|表格`, 'iu')],
  ['letter', new RegExp(`${START}(?:letter|letters|correspondence|lettre|lettres|lettera|carta|cartas|brev)(?!\\p{L})|手紙|信函`, 'iu')],
];

/** The kind a topic or pipeline names (the first that its words name), or undefined. */
export function kindOf(name: string, description = '', keywords: readonly string[] = []): DocumentKind | undefined {
  const text = [name.replace(/[_-]+/g, ' '), description, ...keywords].join(' \n ');
  return KIND_WORDS.find(([, re]) => re.test(text))?.[0];
}

const BLANK = /_{4,}|\.{8,}|[☐☑☒□]/g;

/** Noisy-or: independent pieces of evidence each able to make the case alone. */
const anyOf = (ps: number[]) => 1 - ps.reduce((q, p) => q * (1 - p), 1);

export type KindEvidence = Record<DocumentKind, number>;

/** A line this short is a title or a label ("INVOICE", "Rechnungsnummer: RE-2024-0815"), not a sentence. */
const LABEL_LINE = 60;

/**
 * An invoice calls itself one in a title or a label; a letter or a report that mentions an invoice does
 * so in a sentence, which is weaker evidence.
 */
function invoiceWordEvidence(texts: readonly string[]): number {
  let inSentence = false;
  for (const t of texts) {
    for (const line of t.split('\n')) {
      if (!INVOICE_WORD.test(line)) continue;
      if (line.trim().length <= LABEL_LINE) return 0.7;
      inSentence = true;
    }
  }
  return inSentence ? 0.3 : 0;
}

/** Evidence in [0, 1] that a page is of each kind. */
export function kindEvidence(page: Page): KindEvidence {
  const lines: string[] = [];
  for (const el of page.elements) {
    if (el.kind === 'table') for (const c of el.cells) lines.push(c.text);
    else lines.push(el.kind === 'text' ? el.text : `${el.caption ?? ''} ${el.text}`);
  }
  const text = lines.join('\n');
  const amounts = (text.match(CURRENCY_AMOUNT) ?? []).length;
  const billing = anyOf([
    invoiceWordEvidence(lines),
    TAX_ID.test(text) ? 0.5 : 0,
    amounts >= 2 ? 0.25 : amounts === 1 ? 0.1 : 0,
    TOTAL_WORD.test(text) ? 0.15 : 0,
  ]);
  const fields = Number(page.extra?.form_fields ?? 0), boxes = Number(page.extra?.form_boxes ?? 0);
  const marks = page.selectionMarks?.length ?? 0;
  const blanks = (text.match(BLANK) ?? []).length;
  const form = anyOf([
    fields > 0 ? 0.9 : 0,
    boxes >= 3 ? 0.5 : 0,
    marks >= 3 ? 0.4 : 0,
    blanks >= 3 ? 0.4 : 0,
  ]);
  // a greeting and a complimentary close: how letters open and end, whatever their subject
  const letter = anyOf([SALUTATION.test(text) ? 0.5 : 0, CLOSING.test(text) ? 0.5 : 0]);
  return { billing, form, letter };
}

/** Evidence over a document's first pages: each kind's strongest page. */
export function documentKindEvidence(pages: readonly Page[]): KindEvidence {
  const out: KindEvidence = { billing: 0, form: 0, letter: 0 };
  for (const p of pages) {
    const e = kindEvidence(p);
    for (const k of DOCUMENT_KINDS) out[k] = Math.max(out[k], e[k]);
  }
  return out;
}
