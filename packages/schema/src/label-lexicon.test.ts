import { conceptLabelScore, fieldConcept, labelConcept } from './label-lexicon.js';

describe('label lexicon: what a printed label means, in many languages', () => {
  it.each([
    ['Factuurnummer', 'doc-number'], ['Rechnungsnr.', 'doc-number'], ['Rechnungs-Nr.', 'doc-number'], ['Nº de factura', 'doc-number'], ['Fattura n.', 'doc-number'],
    ['Fakturanummer', 'doc-number'], ['Numéro de facture', 'doc-number'], ['請求書番号', 'doc-number'], ['发票号码', 'doc-number'],
    ['Data wystawienia', 'doc-date'], ['Belegdatum', 'doc-date'], ['Liefer- und Rechnungsdatum', 'doc-date'], ['开票日期', 'doc-date'], ['請求日', 'doc-date'],
    ['Vervaldatum', 'due-date'], ['Fälligkeitsdatum', 'due-date'], ['Scadenza', 'due-date'], ['Fecha de vencimiento', 'due-date'], ['Eräpäivä', 'due-date'], ['Termin zapłaty', 'due-date'],
    ['Leistungsdatum', 'other-date'], ['Date de facture associée', 'other-date'],
    ['Kundennummer', 'other-number'], ['N° bon de livraison', 'other-number'], ['USt-IdNr', 'other-number'],
    ['Rechnungssumme brutto', 'total'], ['Totaalbedrag', 'total'], ['Razem do zapłaty', 'total'], ['Att betala', 'total'], ['Total incl. VAT', 'total'], ['合計', 'total'],
    ['Rechnungssumme netto', 'subtotal'], ['Total HT', 'subtotal'], ['Zwischensumme', 'subtotal'],
    ['zuzüglich 19% MwSt.', 'tax'], ['BTW 21%', 'tax'], ['Total TVA', 'tax'], ['消費税', 'tax'],
    ['Einzelpreis', 'unit-price'], ['Prezzo unitario', 'unit-price'], ['Gesamtpreis', 'line-amount'], ['Betrag', 'line-amount'], ['Menge', 'quantity'], ['Ilość', 'quantity'], ['Bezeichnung', 'description'],
    ['Valor unitário', 'unit-price'], ['À-pris', 'unit-price'], ['Stukprijs', 'unit-price'], ['Enhedspris', 'unit-price'], ['Ext. Price', 'line-amount'], ['Hours', 'quantity'],
    ['Beschrijving', 'description'], ['Designação', 'description'],
    // Czech, Slovak, Hungarian, Romanian, Turkish header labels
    ['Datum vystavení', 'doc-date'], ['Datum splatnosti', 'due-date'], ['Datum uskutečnění zdanitelného plnění', 'other-date'], ['Číslo faktury', 'doc-number'],
    ['Kiállítás dátuma', 'doc-date'], ['Teljesítés dátuma', 'other-date'], ['Számla sorszáma', 'doc-number'], ['Data emiterii', 'doc-date'], ['Data scadenței', 'due-date'],
    ['Fatura tarihi', 'doc-date'], ['Vade tarihi', 'due-date'],
    ['Celkem k úhradě', 'total'], ['Összesen', 'total'], ['Genel toplam', 'total'], ['Jednotková cena', 'unit-price'], ['Popis', 'description'],
  ])('%s → %s', (label, concept) => {
    expect(labelConcept(label)).toBe(concept);
  });

  it('leaves labels whose meaning depends on the paper undecided', () => {
    // "Net total" is before VAT on an invoice and what was paid on a till receipt; "Total Discount" is not understood
    expect(labelConcept('Net total')).toBeUndefined();
    expect(conceptLabelScore('total', 'Total Discount')).toBe(0);
    expect(conceptLabelScore('total', 'Total Sa clusive of GST)')).toBe(0);
  });

  it('reads schema fields the same way, whatever language they are named in', () => {
    expect(fieldConcept('invoice_number', '')).toBe('doc-number');
    expect(fieldConcept('Rechnungsnummer', '')).toBe('doc-number');
    expect(fieldConcept('date', 'Invoice date')).toBe('doc-date');
    expect(fieldConcept('due_date', '')).toBe('due-date');
    expect(fieldConcept('total', 'Total amount of the invoice')).toBe('total');
    expect(fieldConcept('unit_price', '')).toBe('unit-price');
  });

  it('rules out a rival meaning, and a label with a value in it', () => {
    expect(conceptLabelScore('doc-date', 'Vervaldatum')).toBe(-1);
    expect(conceptLabelScore('total', 'MwSt. 19%')).toBe(-1);
    expect(conceptLabelScore('doc-number', 'Invoice # RE-2019/507 issued')).toBe(0);
    expect(conceptLabelScore('doc-number', 'Factuurnummer')).toBeGreaterThan(0.9);
  });
});
