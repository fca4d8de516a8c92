import { normalizeLabel } from '@quire/models';

/**
 * What a printed label means, in the languages of European and Asian business paper: a label is
 * read as heads (what kind of value: a number, a date, an amount, a tax) and modifiers (whose or
 * which: the invoice's, the due one, the customer's, net, gross). Compound words are split into
 * such parts ("Rechnungsnummer" = Rechnung·s·nummer, "Vervaldatum" = verval·datum, "发票号码" =
 * 发票·号码), so that "Factuurnummer", "Rechnungsnr.", "Nº de factura", "Fattura n." and
 * "請求書番号" all read as the invoice's number, and "Fälligkeitsdatum" as a deadline, not the
 * invoice's date. Schema property names and descriptions are read the same way, so a field and a
 * label meet at the concept whatever language either is written in.
 */

export type Head = 'number' | 'date' | 'amount' | 'tax' | 'description' | 'quantity' | 'price';
export type Modifier =
  | 'document' | 'issue' | 'due' | 'service' | 'order' | 'customer' | 'item' | 'taxid' | 'account'
  | 'net' | 'loose' | 'gross' | 'unit' | 'line' | 'payment' | 'related';

export type Concept =
  | 'doc-number' | 'other-number' | 'doc-date' | 'due-date' | 'other-date'
  | 'total' | 'subtotal' | 'tax' | 'description' | 'quantity' | 'unit-price' | 'line-amount';

const HEADS: Record<Head, string[]> = {
  // "Code article", "Code client": an article's or a customer's number
  number: ['number', 'numbers', 'code', 'no', 'nr', 'nro', 'num', 'nummer', 'numero', 'numer', 'nummber', 'n', '#', 'id', 'nb', 'idnr',
    '番号', '号码', '號碼', '编号', '編號', '번호', 'номер',
    // Czech and Slovak "číslo", Hungarian "szám"/"sorszám", Romanian "număr"
    'cislo', 'szam', 'szama', 'sorszam', 'sorszama', 'numar', 'numarul'],
  date: ['date', 'dated', 'datum', 'fecha', 'data', 'dato', 'paivays', 'paivamaara', 'paiva', 'datetime', 'dt',
    // Hungarian "Kiállítás dátuma", "Számla kelte"; Turkish "Fatura tarihi"
    'datuma', 'kelte', 'kelt', 'tarih', 'tarihi', '日付', '日期', '날짜', '일자', '日', 'дата'],
  amount: ['total', 'totals', 'totaal', 'totale', 'totalt', 'summe', 'summa', 'suma', 'sum', 'betrag', 'montant', 'importe', 'importo', 'bedrag',
    'belopp', 'beloeb', 'belob', 'belop', 'kwota', 'razem', 'gesamt', 'amount', 'amt', 'yhteensa', 'valor', 'ogolem', 'subtotal', 'zwischensumme',
    'endsumme', 'gesamtsumme', 'gesamtbetrag', 'endbetrag', 'gp', 'extended', 'celkem', 'celkom', 'osszesen', 'vegosszeg', 'toplam',
    // "te betalen", "zu zahlen", "à payer", "do zapłaty", "att betala": what is to be paid
    'wert', 'warenwert', 'wartosc', 'waarde', 'valore',
    'payable', 'balance', 'betalen', 'zahlen', 'payer', 'pagare', 'pagar', 'betala', 'betale', 'maksettava', '合計', '合计', '总计', '總計', '金额', '金額', '小計', '小计', '총액', '합계', 'итого', 'сумма'],
  tax: ['tax', 'taxes', 'taxe', 'vat', 'mwst', 'ust', 'umsatzsteuer', 'mehrwertsteuer', 'steuer', 'btw', 'iva', 'tva', 'moms', 'mva', 'alv', 'gst', 'sst',
    'hst', 'pst', 'podatek', 'dph', 'afa', 'kdv', 'igst', 'cgst', 'sgst', '税', '税额', '税額', '消費税', '增值税', '税金', '부가세', '세액', 'ндс'],
  description: ['description', 'descr', 'desc', 'beschreibung', 'bezeichnung', 'omschrijving', 'descrizione', 'descripcion', 'descricao', 'opis', 'beskrivning',
    'beskrivelse', 'kuvaus', 'designation', 'libelle', 'particulars', 'details', 'artikelbeschreibung', 'leistungsbeschreibung', 'nazwa', 'benennung',
    'artikel', 'article', 'articulo', 'articolo', 'item', 'items', 'product', 'produkt', 'producto', 'prodotto', 'produit', 'service', 'services', 'leistung',
    'concepto', 'prestation', 'towar', 'tuote', 'vare', 'vara', 'popis', 'megnevezes', 'denumire', 'aciklama',
    // "Beschrijving", "Designação", "Nazwa towaru lub usługi", "Denominazione", "Werkzaamheden", "Leistungen"
    'beschrijving', 'designacao', 'designacion', 'denominazione', 'denominacion', 'denominacao', 'towaru', 'uslugi', 'uslug', 'werkzaamheden',
    'diensten', 'dienst', 'dienstleistung', 'leistungen', 'prestations', 'servicio', 'servizio', 'servico', 'artigo', 'produto', 'goods', 'waren', '品名', '品目', '内容', '摘要', '項目', '项目', '名称', '商品', '품명', '품목'],
  quantity: ['quantity', 'qty', 'qte', 'quantite', 'menge', 'anzahl', 'aantal', 'cantidad', 'cant', 'quantita', 'qta', 'quantidade', 'qtd', 'ilosc',
    'antal', 'antall', 'maara', 'kpl', 'stk', 'units', 'pcs', 'unidades', 'uds', 'stueck', 'stuck', 'liczba', 'pocet', 'mnozstvi',
    // a time sheet's count: "Hours", "Stunden", "Uren", "Heures", "Horas", "Ore"
    'hours', 'hrs', 'stunden', 'std', 'uren', 'heures', 'horas', 'ore', 'timer', 'tunnit', '数量', '數量', '수량', 'кол'],
  price: ['price', 'preis', 'prijs', 'prix', 'precio', 'prezzo', 'preco', 'cena', 'pris', 'hinta', 'rate', 'cost', 'einzelpreis', 'stueckpreis',
    'ep', 'pu', 'apris', '単価', '单价', '單價', '价格', '價格', '단가'],
};

const MODIFIERS: Record<Modifier, string[]> = {
  document: ['invoice', 'inv', 'bill', 'receipt', 'facture', 'factura', 'fattura', 'fatura', 'factuur', 'faktura', 'fakturan', 'faktury', 'rechnung',
    'beleg', 'quittung', 'kvitto', 'kvittering', 'rachunek', 'rachunku', 'nota', 'document', 'doc', 'dokument', 'documento', 'lasku', 'laskun', 'bon',
    'ticket', 'recibo', 'ricevuta', 'statement', 'credit', 'gutschrift', 'doklad', 'dokladu', 'facturii', 'szamla', 'szamlaszam', '請求書', '請求', '发票', '發票', '領収書', '领收书', '收据', '收據', '청구서', '영수증', 'счет'],
  issue: ['issue', 'issued', 'issuing', 'emission', 'emissione', 'emision', 'emissao', 'ausstellung', 'ausstellungs', 'wystawienia', 'utstedelse',
    'utfardande', 'fakturerings', 'fakturering', 'invoicing', 'billing', 'erstellung', 'uitgifte', 'vystaveni', 'vystavenia', 'emiterii', 'emitere',
    'kiallitas', 'kiallitasi', 'duzenleme', 'duzenlenme', '発行', '开票', '開票', '发行', '발행'],
  due: ['due', 'faellig', 'fallig', 'faelligkeit', 'falligkeit', 'faelligkeits', 'falligkeits', 'verval', 'vervaldag', 'scadenza', 'vencimiento', 'vencimento',
    'echeance', 'limite', 'deadline', 'expiry', 'expiration', 'forfall', 'forfalls', 'forfallo', 'forfald', 'forfalds', 'era', 'termin',
    'until', 'zahlbar', 'payable', 'zahlungsziel', 'betaaldatum', 'uiterste', 'splatnosti', 'scadenta', 'scadentei', 'esedekesseg', 'esedekessegi', 'hatarido', 'vade', '期限', '支払期限', '到期', '截止', '납기', '만기'],
  service: ['leistung', 'leistungs', 'liefer', 'lieferung', 'delivery', 'shipping', 'ship', 'shipment', 'versand', 'period', 'zeitraum', 'levering',
    'consegna', 'entrega', 'livraison', 'sprzedazy', 'dostawy', 'wykonania', 'plneni', 'plnenia', 'dodani', 'dodania', 'teljesites', 'teljesitesi', 'livrarii', 'livrare', 'supply', 'service', 'prestation', 'leverans', 'toimitus', 'valuta', 'value',
    'start', 'end', 'from', 'to', 'birth', 'print', 'printed', '納品', '交货', '配送', '发货'],
  order: ['order', 'bestell', 'bestellung', 'auftrag', 'auftrags', 'purchase', 'po', 'commande', 'pedido', 'ordine', 'zamowienia', 'zamowienie', 'bestelling',
    'tilaus', 'ordre', 'reference', 'ref', 'referenz', 'referentie', 'contract', 'vertrag', 'project', 'projekt', 'tracking', 'transaction', 'txn', 'trans',
    'booking', '注文', '订单', '訂單', '주문'],
  customer: ['customer', 'client', 'kunde', 'kunden', 'klant', 'klanten', 'cliente', 'klient', 'klienta', 'kund', 'kundnummer', 'asiakas', 'buyer', 'debitor',
    'debtor', 'member', 'account', 'konto', 'user', 'patient', '顧客', '客户', '客戶', '고객'],
  item: ['article', 'artikel', 'item', 'product', 'produkt', 'sku', 'part', 'serial', 'batch', 'lot', 'ean', 'gtin', 'pos', 'position', 'line', 'page', 'seite', 'pagina'],
  taxid: ['vat', 'tax', 'ust', 'steuer', 'steuernummer', 'siren', 'siret', 'tva', 'btw', 'iva', 'nif', 'cif', 'nip', 'gst', 'gstin', 'pan', 'cin', 'abn',
    'ein', 'tin', 'idnr', 'registration', 'reg', 'company', 'kvk', 'handelsregister', 'hrb', 'registre', '税号', '登録'],
  account: ['iban', 'bic', 'swift', 'bank', 'konto', 'phone', 'tel', 'telefon', 'fax', 'mobile', 'routing', 'sort', 'card', 'karte', 'terminal', 'cashier',
    'kasse', 'table', 'tisch', 'store', 'shop', 'filiale'],
  // English "net"/"nett" is either side of the tax ("Net total" before VAT on an invoice, "NETT TOTAL" paid on a till receipt)
  loose: ['net', 'nett'],
  net: ['netto', 'sub', 'zwischensumme', 'subtotal', 'zwischen', 'ht', 'ex', 'excl', 'exkl', 'excluding', 'exclusive', 'before', 'imponibile', 'base', 'imponible',
    'neto', 'liquido', 'ohne', 'without', 'pre', 'untaxed', 'exkl', 'zonder', 'senza', 'sin', 'sem', 'bez', 'utan', 'zaklad', '税抜', '税抜き', '不含税', '小計', '小计'],
  gross: ['brutto', 'bruto', 'grand', 'ttc', 'incl', 'inkl', 'including', 'inclusive', 'final', 'end', 'payable', 'pay', 'zahlen', 'zahlender',
    'due', 'balance', 'gesamt', 'totaal', 'general', 'lordo',
    'complessivo', 'all', 'overall', 'te', 'zu', 'a', 'da', 'do', 'att', 'rounded', 'uhrade', 'uhradu', 'fizetendo', 'plata', '税込', '含税', '价税', '價稅', '应付', '應付', '请求', '請求'],
  unit: ['unit', 'einzel', 'stueck', 'stuck', 'per', 'each', 'ea', 'unitario', 'unitaire', 'unitaria', 'jednostkowa', 'jedn', 'eenheid', 'enhet', 'enhets',
    'yksikko', 'a', 'styck', 'stk', 'unita', 'unidad', 'stuk', 'enhed', 'styk', 'jednostkowy', 'unitari', 'jednotkova', 'jednotkovou', 'egyseg', 'egysegar', 'unitar', 'birim'],
  // "Ext. Price", "Extended": the price of the line (quantity × unit price)
  line: ['line', 'position', 'pos', 'zeile', 'row', 'item', 'ext', 'extended'],
  related: ['associee', 'associe', 'related', 'original', 'previous', 'referenced', 'corrected', 'bezug', 'bezugs', 'ursprungs', 'vorherige',
    'origine', 'rectificada', 'originale', 'oorspronkelijke', 'cancelled', 'storniert'],
  payment: ['payment', 'zahlung', 'zahlungs', 'betaling', 'paiement', 'pago', 'pagamento', 'platnosci', 'betalning', 'maksu', 'paid', 'bezahlt', 'cash',
    'change', 'tendered', 'card', 'rounding'],
};

/** Amount words that name the total by themselves ("Total", "Summe", "Razem", "合計"); "Amount", "Betrag" do not. */
const TOTAL_WORDS = new Set(['total', 'totals', 'totaal', 'totale', 'totalt', 'summe', 'summa', 'suma', 'razem', 'gesamt', 'yhteensa', 'ogolem', 'endsumme',
  'gesamtsumme', 'gesamtbetrag', 'endbetrag', 'celkem', 'celkom', 'osszesen', 'vegosszeg', 'toplam', 'payable', 'betalen', 'zahlen', 'payer', 'pagare', 'pagar', 'betala', 'betale', 'maksettava', 'balance',
  '合計', '合计', '总计', '總計', '총액', '합계', 'итого', 'compound']);

/** Words that carry no meaning of their own in a label ("Date de la facture", "Numero della fattura", "Ihre Auftragsnummer"). */
const FILLER = new Set(['the', 'of', 'de', 'du', 'des', 'la', 'le', 'les', 'del', 'della', 'di', 'da', 'do', 'van', 'der', 'die', 'das', 'des', 'und', 'and', 'et', 'y',
  'e', 'en', 'i', 'och', 'og', 'ja', 'your', 'our', 'ihre', 'unsere', 'votre', 'su', 'sua', 'uw', 'onze', 'in', 'im', 'en', 'a', 'al', 'au', 'for', 'fur', 'voor',
  'per', 'na', 'z', 'w', 'dla', 'with', 'mit', 'met', 'con', 'avec', 'com', 'is', 'ist', 'this', 'dieser', 'deze', 'eur', 'usd', 'gbp', 'chf', 'sek', 'nok', 'dkk',
  'pln', 'czk', 'jpy', 'cny', 'rmb', 'myr', 'rm', 'inr', 'sgd', 'aud', 'cad', 'hkd', 'krw', 'in',
  // "Taxe sur la valeur ajoutée", "Imposta sul valore aggiunto", "Value added tax": the tax word carries the meaning
  'sur', 'sul', 'sobre', 'ajoutee', 'added', 'aggiunto', 'anadido', 'agregado', 'acrescentado']);

/** Linking letters between the parts of a compound ("Rechnung·s·nummer", "Fälligkeit·s·datum"). */
const LINKS = ['', 's', 'es', 'n', 'en', 'e'];

interface Morpheme { head?: Head; mod?: Modifier }

const HEAD_OF = new Map<string, Head[]>();
const MOD_OF = new Map<string, Modifier[]>();
for (const [h, words] of Object.entries(HEADS) as [Head, string[]][]) for (const w of words) HEAD_OF.set(w, [...(HEAD_OF.get(w) ?? []), h]);
for (const [m, words] of Object.entries(MODIFIERS) as [Modifier, string[]][]) for (const w of words) MOD_OF.set(w, [...(MOD_OF.get(w) ?? []), m]);
const HEAD_WORDS = [...HEAD_OF.keys()].sort((a, b) => b.length - a.length);
// a part closing a compound has two letters at least, or is a Han character ("請求日": 請求·日)
const PART_WORDS = [...new Set([...HEAD_OF.keys(), ...MOD_OF.keys()])].filter((w) => w.length >= 2 || /\p{Script=Han}/u.test(w)).sort((a, b) => b.length - a.length);

/** Letters NFKD does not take apart (Polish ł, Nordic ø/æ, German ß). */
const fold = (s: string) => s.replace(/ł/g, 'l').replace(/Ł/g, 'L').replace(/[øØ]/g, 'o').replace(/[æÆ]/g, 'ae').replace(/ß/g, 'ss').replace(/đ/g, 'd');

const morphemesOfWord = (w: string): Morpheme[] => [
  ...(HEAD_OF.get(w) ?? []).map((head) => ({ head })),
  ...(MOD_OF.get(w) ?? []).map((mod) => ({ mod })),
];

/** A word as known parts: itself, or a compound of known parts (two or three, with linking letters). */
function splitWord(w: string, depth = 0): Morpheme[][] | undefined {
  const whole = morphemesOfWord(w);
  if (whole.length) return [whole];
  if (depth >= 2 || w.length < (/\p{Script=Han}/u.test(w) ? 2 : 4)) return undefined;
  // the head of a compound is its last part: try the longest known part at the end first
  for (const tail of PART_WORDS) {
    if (!w.endsWith(tail) || w.length - tail.length < 2) continue;
    // CJK parts and abbreviations ("nr", "no") close a compound only after a known part
    const rest = w.slice(0, w.length - tail.length);
    for (const link of LINKS) {
      if (link && !rest.endsWith(link)) continue;
      const stem = rest.slice(0, rest.length - link.length);
      if (stem.length < 2) continue;
      const front = splitWord(stem, depth + 1);
      if (front) return [...front, morphemesOfWord(tail)];
    }
  }
  return undefined;
}

export interface LabelReading {
  heads: Set<Head>;
  mods: Set<Modifier>;
  /** Content words of the label that are no known part. */
  unknown: number;
  /** Known content words. */
  known: number;
  /** A rate is printed in the label ("MwSt. 19%", "incl. 6% GST"). */
  percent: boolean;
  /** The words read as an amount head ("total", "betrag"), to tell a total from some amount. */
  amountWords: Set<string>;
  /** The last head printed (English and German put the head last; "Numéro de facture" first — both work: heads are few). */
  lastHead?: Head;
}

/** The parts of a label. */
export function readLabel(text: string): LabelReading {
  // lower case first: "MwSt" is one word, not camel case
  // "à-pris" (Swedish: the price apiece) is one word, "apris"
  const norm = normalizeLabel(fold(text).toLowerCase().replace(/(^|\s)[àa]-(?=\p{L})/gu, '$1a').replace(/[№#]/g, ' number ').replace(/n[°º]/g, ' number ').replace(/[\d.,]+\s*%|%/g, ' '));
  const out: LabelReading = { heads: new Set(), mods: new Set(), unknown: 0, known: 0, amountWords: new Set(), percent: /\d\s*%/.test(text) };
  for (const w of norm.split(' ').filter(Boolean)) {
    if (/^\d+$/.test(w)) continue; // "19 % MwSt", "Total (3 items)": numbers are not words of the label
    const parts = splitWord(w) ?? (w.length > 3 && w.endsWith('s') ? splitWord(w.slice(0, -1)) : undefined);
    if (!parts) {
      if (!FILLER.has(w)) out.unknown++;
      continue;
    }
    out.known++;
    for (const alternatives of parts) {
      // a part that is both a head and a modifier ("item", "service"): a head when it closes the word
      const head = alternatives.find((m) => m.head)?.head;
      const mod = alternatives.find((m) => m.mod)?.mod;
      if (head && (parts.length === 1 || alternatives === parts[parts.length - 1])) {
        out.heads.add(head); out.lastHead = head;
        if (head === 'amount') out.amountWords.add(parts.length === 1 ? w : 'compound');
        if (mod && parts.length === 1) out.mods.add(mod);
      }
      else if (mod) out.mods.add(mod);
      else if (head) out.heads.add(head);
    }
  }
  return out;
}

/**
 * The concept a label names, undefined when it names none (or too little of it is known words).
 * Modifiers decide between concepts of one head: a number of the invoice or of the customer, the
 * invoice's date or a deadline, the gross total or the net one.
 */
export function conceptOf(r: LabelReading): Concept | undefined {
  if (r.unknown > Math.max(1, r.known)) return undefined;
  const m = r.mods;
  if (r.heads.has('tax')) {
    // "USt-IdNr", "VAT number": a registration number
    if (r.heads.has('number')) return 'other-number';
    // "Total incl. MwSt. 19%": the tax in the total or the total itself — the arithmetic of the page decides (candidates)
    if (r.percent && (r.heads.has('amount') || m.has('gross'))) return undefined;
    // "Gesamtbetrag inkl. MwSt", "Total incl. VAT": the total; "Total excl. VAT": the net amount
    if (r.heads.has('amount') && m.has('gross')) return 'total';
    if (r.heads.has('amount') && m.has('net')) return 'subtotal';
    // "Steuerbetrag", "Total TVA", "zzgl. 19 % MwSt": a tax amount
    return 'tax';
  }
  // "Date de facture associée", "N° de facture d'origine": another invoice's date or number
  if (m.has('related') && (r.heads.has('date') || r.heads.has('number'))) return r.heads.has('date') ? 'other-date' : 'other-number';
  if (r.heads.has('date')) {
    if (m.has('due')) return 'due-date';
    if (m.has('document') || m.has('issue')) return 'doc-date';
    if (m.has('service') || m.has('order') || m.has('customer') || m.has('payment')) return 'other-date';
    return 'doc-date';
  }
  if (r.heads.has('number')) {
    if (m.has('customer') || m.has('order') || m.has('service') || m.has('item') || m.has('taxid') || m.has('account')) {
      // "Bon de livraison n°", "Kundennummer", "Order no.": another document's or party's number
      return m.has('document') && !m.has('customer') && !m.has('order') && !m.has('service') ? 'doc-number' : 'other-number';
    }
    if (m.has('document')) return 'doc-number';
    return undefined;
  }
  // "Gesamtpreis", "Total price": a line's amount; "Einzelpreis", "Preis", "Unit price": per unit
  // "Scadenza", "Termin zapłaty", "Due": a deadline word alone labels the due date
  if (!r.heads.size && m.has('due') && !m.has('gross')) return 'due-date';
  if (r.heads.has('price')) return r.heads.has('amount') || (m.has('gross') || m.has('line')) && !m.has('unit') ? 'line-amount' : 'unit-price';
  if (r.heads.has('quantity')) return 'quantity';
  if (r.heads.has('amount')) {
    if (m.has('net') && !m.has('gross')) return 'subtotal';
    if (m.has('loose') && !m.has('gross')) return undefined;
    // "Total items", "Total Qty": a count
    if (r.heads.has('description') || r.heads.has('quantity')) return undefined;
    if (m.has('payment') || m.has('customer') || m.has('order')) return undefined;
    if (m.has('line')) return 'line-amount';
    // "Valor unitário", "Betrag pro Stück": an amount per unit is the unit price
    if (m.has('unit')) return 'unit-price';
    // "Amount", "Betrag", "Importe" alone: some amount — a line's, in an item table — not the total
    if (!m.size && [...r.amountWords].every((w) => !TOTAL_WORDS.has(w))) return 'line-amount';
    return 'total';
  }
  if (r.heads.has('description')) return 'description';
  return undefined;
}

export const labelConcept = (text: string): Concept | undefined => conceptOf(readLabel(text));

/** Concepts that answer the same question and so exclude each other (the invoice's date is not its due date). */
const RIVALS: Record<Concept, Concept[]> = {
  'doc-number': ['other-number'], 'other-number': ['doc-number'],
  'doc-date': ['due-date', 'other-date'], 'due-date': ['doc-date', 'other-date'], 'other-date': [],
  total: ['tax', 'subtotal'], subtotal: ['tax', 'total'], tax: ['total', 'subtotal'],
  description: [], quantity: ['unit-price', 'line-amount'], 'unit-price': ['quantity', 'line-amount'], 'line-amount': ['quantity', 'unit-price'],
};

export const rivals = (a: Concept, b: Concept) => RIVALS[a].includes(b);

/**
 * The concept a schema field asks for, from its name and (when the name says less) its
 * description's first words: "invoice_number", "Rechnungsnummer", "date" described as "Invoice
 * date", "total" described as "Total amount of the invoice".
 */
export function fieldConcept(name: string, description: string): Concept | undefined {
  const byName = readLabel(name);
  const named = conceptOf(byName);
  const desc = description.split(/[.;:,(]/)[0].split(/\s+/).slice(0, 6).join(' ');
  if (!desc) return named;
  const both = readLabel(`${name} ${desc}`);
  // the description refines the name's head ("date" + "due date"), never changes it
  const refined = conceptOf({ ...byName, mods: new Set([...byName.mods, ...both.mods]), unknown: 0 });
  if (named && refined && RIVALS[named].includes(refined) && byName.heads.size) return byName.mods.size ? named : refined;
  return named ?? (byName.heads.size ? refined : undefined);
}

/** How strongly a label names a concept: an explicit compound ("Rechnungsnummer") more than a bare head ("Datum"). */
export function conceptLabelScore(concept: Concept, text: string): number {
  // a label has no digits of its own ("Invoice # RE-2019/507 issued" is a label and a value)
  if (/\d/.test(text.replace(/[\d.,]+\s*%/g, ''))) return 0;
  const r = readLabel(text);
  const c = conceptOf(r);
  if (!c) return 0;
  // a rival rules the label out only when every word of it is understood ("Total Sa clusive of GST)":
  // OCR ate the qualifier, and the tax word may be its object)
  if (c !== concept) return rivals(concept, c) && r.unknown === 0 ? -1 : 0;
  // "some other number/date" is what a label is not; two such labels need not name the same thing
  if (concept === 'other-number' || concept === 'other-date') return 0;
  const explicit = r.mods.size > 0;
  // a bare head among words not understood ("Total Discount", "Total Savings") may be qualified by them
  if (!explicit && r.unknown > 0) return 0;
  const noise = Math.min(0.1, 0.05 * r.unknown);
  switch (concept) {
    case 'doc-number': return (explicit ? 0.95 : 0.8) - noise;
    case 'doc-date': return (explicit ? 0.95 : 0.9) - noise;
    case 'total': return (explicit ? 0.93 : 0.88) - noise;
    default: return (explicit ? 0.93 : 0.88) - noise;
  }
}
