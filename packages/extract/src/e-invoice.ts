import type { EmbeddedInvoice, EmbeddedInvoiceLine } from '@quire/core';
import { parseXmlTree, xAttr, xChild, xChildren, xFindAll, xPath, type XEl } from '@quire/format-ooxml';
import type { EmbeddedFile } from '@quire/format-pdf';

/*
 * The structured invoice of an e-invoice PDF: the XML a Factur-X / ZUGFeRD / XRechnung PDF attaches,
 * read into the common invoice fields (EmbeddedInvoice). Three syntaxes:
 * - UN/CEFACT Cross Industry Invoice (CII D16B; Factur-X, ZUGFeRD 2.x, XRechnung CII): rsm:CrossIndustryInvoice;
 * - ZUGFeRD 1.0 (CII D13B's predecessor): rsm:CrossIndustryDocument, the same parties and sums under older names;
 * - OASIS UBL 2.1 (XRechnung UBL, Peppol BIS): Invoice / CreditNote.
 * Elements are found by local name, so a writer's namespace prefixes do not matter. The XML is parsed
 * with the upload-safe parser (no DOCTYPE, no entities, bounded depth); the attachment's size was capped
 * when it was read from the PDF.
 */

const CII_ROOTS = new Set(['CrossIndustryInvoice', 'CrossIndustryDocument']);
const UBL_ROOTS = new Set(['Invoice', 'CreditNote']);
/** Attachment names the e-invoice standards prescribe (Factur-X, ZUGFeRD 1/2, XRechnung). */
const INVOICE_NAMES = /^(factur-x|zugferd-invoice|xrechnung|order-x)\.xml$/i;

/**
 * The first attachment that is an e-invoice XML, read; undefined when none is. An attachment named as
 * an e-invoice that does not parse is reported in `warnings` (the page is still read as printed).
 */
export function embeddedInvoice(files: readonly EmbeddedFile[], warnings: string[]): EmbeddedInvoice | undefined {
  // the names the standards prescribe first, then any other XML attachment
  const ordered = [...files].sort((a, b) => Number(INVOICE_NAMES.test(b.name)) - Number(INVOICE_NAMES.test(a.name)));
  for (const f of ordered) {
    if (!looksLikeXml(f)) continue;
    let root: XEl;
    try {
      root = parseXmlTree(decodeXml(f.bytes), f.name, 64);
    } catch (e) {
      if (INVOICE_NAMES.test(f.name)) warnings.push(`The embedded invoice "${f.name}" could not be read: ${(e as Error).message}`);
      continue;
    }
    const inv = CII_ROOTS.has(root.local) ? readCii(root, f.name) : UBL_ROOTS.has(root.local) && isUbl(root) ? readUbl(root, f.name) : undefined;
    if (inv) return inv;
    if (INVOICE_NAMES.test(f.name)) warnings.push(`The embedded file "${f.name}" is not an invoice XML this service reads (root element ${root.name})`);
  }
  return undefined;
}

function looksLikeXml(f: EmbeddedFile): boolean {
  if (f.mime && /xml/i.test(f.mime)) return true;
  if (/\.xml$/i.test(f.name)) return true;
  // the first non-blank byte after a byte-order mark
  let i = f.bytes[0] === 0xef && f.bytes[1] === 0xbb && f.bytes[2] === 0xbf ? 3 : 0;
  while (i < f.bytes.length && i < 64 && /\s/.test(String.fromCharCode(f.bytes[i]))) i++;
  return f.bytes[i] === 0x3c; // '<'
}

/** The XML's text in the encoding its declaration names (UTF-8 unless it says Latin-1 / Windows-1252). */
function decodeXml(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const enc = /^\s*<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(head)?.[1]?.toLowerCase();
  return new TextDecoder(enc && /^(iso-8859-1|latin1|windows-1252|cp1252)$/.test(enc) ? 'windows-1252' : 'utf-8').decode(bytes);
}

const isUbl = (root: XEl) => Object.entries(root.attrs).some(([k, v]) => k.startsWith('xmlns') && /oasis:names:specification:ubl:schema:xsd:(Invoice|CreditNote)-2/.test(v));

const textOf = (el: XEl | undefined): string | null => {
  const t = el?.text.replace(/\s+/g, ' ').trim();
  return t ? t : null;
};

const numberOf = (el: XEl | undefined): number | null => {
  const t = textOf(el);
  if (t === null) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

/** A CII date: udt:DateTimeString in format 102 (YYYYMMDD), else an ISO date written as such. */
function ciiDate(el: XEl | undefined): string | null {
  const s = xChild(el, 'DateTimeString') ?? el;
  const t = textOf(s)?.replace(/\s/g, '');
  if (!t) return null;
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  if (m) return validDate(m[1], m[2], m[3]);
  m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  return m ? validDate(m[1], m[2], m[3]) : null;
}

function validDate(y: string, mo: string, d: string): string | null {
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d) ? `${y}-${mo}-${d}` : null;
}

/** Among amounts that may repeat per currency (a tax total in the invoice and in the accounting currency), the invoice currency's. */
function amountIn(els: XEl[], currency: string | null): number | null {
  const own = els.find((e) => !currency || !xAttr(e, 'currencyID') || xAttr(e, 'currencyID') === currency);
  return numberOf(own ?? els[0]);
}

function readCii(root: XEl, file: string): EmbeddedInvoice {
  const header = xChild(root, 'ExchangedDocument') ?? xChild(root, 'HeaderExchangedDocument');
  const context = xChild(root, 'ExchangedDocumentContext') ?? xChild(root, 'SpecifiedExchangedDocumentContext');
  const tx = xChild(root, 'SupplyChainTradeTransaction') ?? xChild(root, 'SpecifiedSupplyChainTradeTransaction');
  const agreement = xChild(tx, 'ApplicableHeaderTradeAgreement') ?? xChild(tx, 'ApplicableSupplyChainTradeAgreement');
  const settlement = xChild(tx, 'ApplicableHeaderTradeSettlement') ?? xChild(tx, 'ApplicableSupplyChainTradeSettlement');
  const sums = xChild(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation') ?? xChild(settlement, 'SpecifiedTradeSettlementMonetarySummation');
  const currency = textOf(xChild(settlement, 'InvoiceCurrencyCode'));
  const due = xChildren(settlement, 'SpecifiedTradePaymentTerms').map((t) => ciiDate(xChild(t, 'DueDateDateTime'))).find(Boolean) ?? null;
  const lines: EmbeddedInvoiceLine[] = [];
  for (const item of xChildren(tx, 'IncludedSupplyChainTradeLineItem')) {
    const lineAgreement = xChild(item, 'SpecifiedLineTradeAgreement') ?? xChild(item, 'SpecifiedSupplyChainTradeAgreement');
    const delivery = xChild(item, 'SpecifiedLineTradeDelivery') ?? xChild(item, 'SpecifiedSupplyChainTradeDelivery');
    const lineSettlement = xChild(item, 'SpecifiedLineTradeSettlement') ?? xChild(item, 'SpecifiedSupplyChainTradeSettlement');
    const net = xChild(lineAgreement, 'NetPriceProductTradePrice');
    const line: EmbeddedInvoiceLine = {
      description: textOf(xPath(item, 'SpecifiedTradeProduct', 'Name')),
      quantity: numberOf(xChild(delivery, 'BilledQuantity')),
      // the net price as stated (BT-146), for its base quantity (BT-149) when one is given: the figure the page prints
      unitPrice: numberOf(xChild(net, 'ChargeAmount')),
      amount: numberOf(xFindAll(lineSettlement, 'LineTotalAmount')[0]),
    };
    // a line that only carries a note (ZUGFeRD 1.0 text lines) is no item
    if (line.description !== null || line.amount !== null) lines.push(line);
  }
  return {
    source: { file, syntax: root.local === 'CrossIndustryDocument' ? 'ZUGFeRD 1.0' : 'CII', profile: textOf(xPath(context, 'GuidelineSpecifiedDocumentContextParameter', 'ID')) },
    number: textOf(xChild(header, 'ID')),
    issueDate: ciiDate(xChild(header, 'IssueDateTime')),
    dueDate: due,
    seller: textOf(xPath(agreement, 'SellerTradeParty', 'Name')),
    buyer: textOf(xPath(agreement, 'BuyerTradeParty', 'Name')),
    currency,
    grandTotal: amountIn(xChildren(sums, 'GrandTotalAmount'), currency),
    duePayable: amountIn(xChildren(sums, 'DuePayableAmount'), currency),
    taxBasisTotal: amountIn(xChildren(sums, 'TaxBasisTotalAmount'), currency),
    taxTotal: amountIn(xChildren(sums, 'TaxTotalAmount'), currency),
    lines,
  };
}

/** A UBL party's name: its legal name (BT-27 / BT-44), else its trading name. */
const ublParty = (party: XEl | undefined): string | null =>
  textOf(xPath(party, 'Party', 'PartyLegalEntity', 'RegistrationName')) ?? textOf(xPath(party, 'Party', 'PartyName', 'Name'));

function readUbl(root: XEl, file: string): EmbeddedInvoice {
  const currency = textOf(xChild(root, 'DocumentCurrencyCode'));
  const totals = xChild(root, 'LegalMonetaryTotal');
  const isoDay = (el: XEl | undefined) => ciiDate(el);
  const due = isoDay(xChild(root, 'DueDate')) ?? xChildren(root, 'PaymentMeans').map((p) => isoDay(xChild(p, 'PaymentDueDate'))).find(Boolean) ?? null;
  const taxTotals = xChildren(root, 'TaxTotal').map((t) => xChild(t, 'TaxAmount')).filter((e): e is XEl => Boolean(e));
  const lines: EmbeddedInvoiceLine[] = [...xChildren(root, 'InvoiceLine'), ...xChildren(root, 'CreditNoteLine')].map((l) => ({
    description: textOf(xPath(l, 'Item', 'Name')),
    quantity: numberOf(xChild(l, 'InvoicedQuantity') ?? xChild(l, 'CreditedQuantity')),
    unitPrice: numberOf(xPath(l, 'Price', 'PriceAmount')),
    amount: numberOf(xChild(l, 'LineExtensionAmount')),
  }));
  return {
    source: { file, syntax: 'UBL', profile: textOf(xChild(root, 'CustomizationID')) },
    number: textOf(xChild(root, 'ID')),
    issueDate: isoDay(xChild(root, 'IssueDate')),
    dueDate: due,
    seller: ublParty(xChild(root, 'AccountingSupplierParty')),
    buyer: ublParty(xChild(root, 'AccountingCustomerParty')),
    currency,
    grandTotal: numberOf(xChild(totals, 'TaxInclusiveAmount')),
    duePayable: numberOf(xChild(totals, 'PayableAmount')),
    taxBasisTotal: numberOf(xChild(totals, 'TaxExclusiveAmount')),
    taxTotal: amountIn(taxTotals, currency),
    lines,
  };
}
