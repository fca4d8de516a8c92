import { normalizeLabel } from './text-match.js';

/**
 * Okapi BM25 over small corpora (pipelines, split topics), shared by classify and split. The
 * "documents" are the short topic descriptions and the query is a (long) page or document text, so
 * query term frequency is saturated too (the k3 term) to stop one repeated word from dominating.
 */

const STOP = new Set([
  'the', 'a', 'an', 'of', 'for', 'to', 'in', 'on', 'and', 'or', 'is', 'are', 'be', 'by', 'with', 'at', 'as',
  'this', 'that', 'it', 'its', 'from', 'we', 'you', 'your', 'our', 'any', 'all', 'not', 'no', 'if', 'per',
  'de', 'la', 'le', 'et', 'des', 'du', 'les', 'page', 'pages', 'document', 'documents',
]);

/** Light English stemming: enough to make "invoices" meet "invoice" and "reported" meet "report". */
export function stem(t: string): string {
  if (t.length > 5 && t.endsWith('ies')) return t.slice(0, -3) + 'y';
  if (t.length > 5 && t.endsWith('ing')) return t.slice(0, -3);
  if (t.length > 4 && t.endsWith('ed')) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us')) return t.slice(0, -1);
  return t;
}

/**
 * Common business-document words of French, German, Spanish and Italian mapped to the English word
 * a topic or pipeline description would use, so "Facture … Montant HT … TVA" meets "invoice, amount,
 * VAT". Keys are normalized (lower case, no accents) and unstemmed.
 */
const CROSS_LINGUAL: Record<string, string> = {
  facture: 'invoice', factures: 'invoice', rechnung: 'invoice', rechnungen: 'invoice', factura: 'invoice', facturas: 'invoice', fattura: 'invoice', fatture: 'invoice',
  montant: 'amount', betrag: 'amount', importe: 'amount', importo: 'amount',
  tva: 'vat', mwst: 'vat', iva: 'vat', ust: 'vat',
  paiement: 'payment', reglement: 'payment', zahlung: 'payment', pago: 'payment', pagamento: 'payment',
  echeance: 'due', faellig: 'due', vencimiento: 'due', scadenza: 'due',
  devis: 'quote', angebot: 'quote', presupuesto: 'quote', preventivo: 'quote',
  recu: 'receipt', quittung: 'receipt', recibo: 'receipt', ricevuta: 'receipt',
  contrat: 'contract', vertrag: 'contract', contrato: 'contract', contratto: 'contract',
  formulaire: 'form', formular: 'form', formulario: 'form',
  rapport: 'report', bericht: 'report', informe: 'report', relazione: 'report',
  tableau: 'table', tabelle: 'table', tabla: 'table', tabella: 'table',
  lettre: 'letter', lettera: 'letter',
  impot: 'tax', impots: 'tax', steuer: 'tax', impuesto: 'tax', imposta: 'tax',
};

/** Tokens for retrieval: normalized words of 2+ letters, no stopwords or bare numbers, stemmed. */
export function retrievalTokens(text: string): string[] {
  return normalizeLabel(text)
    .split(' ')
    .filter((t) => t.length >= 2 && !STOP.has(t) && !/^\d+$/.test(t))
    .map((t) => CROSS_LINGUAL[t] ?? t)
    .map(stem);
}

export interface Bm25Options {
  k1?: number;
  b?: number;
  k3?: number;
}

export class Bm25Index {
  private readonly tfs: Map<string, number>[];
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;
  private readonly k1: number;
  private readonly b: number;
  private readonly k3: number;

  constructor(docs: readonly string[][], opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? 1.2;
    this.b = opts.b ?? 0.75;
    this.k3 = opts.k3 ?? 1.5;
    this.tfs = docs.map((tokens) => {
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return tf;
    });
    this.lengths = docs.map((d) => d.length);
    this.avgLength = Math.max(1, this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length));
  }

  get size(): number {
    return this.tfs.length;
  }

  /** Never negative (the "+1" form), so a term shared by every topic still counts a little. */
  idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    return Math.log(1 + (this.tfs.length - n + 0.5) / (n + 0.5));
  }

  /** BM25 score of every indexed document for the query tokens. */
  scores(query: readonly string[]): number[] {
    const qtf = new Map<string, number>();
    for (const t of query) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    return this.tfs.map((tf, i) => {
      const norm = this.k1 * (1 - this.b + (this.b * this.lengths[i]) / this.avgLength);
      let s = 0;
      for (const [term, q] of qtf) {
        const f = tf.get(term);
        if (!f) continue;
        const qWeight = ((this.k3 + 1) * q) / (this.k3 + q);
        s += this.idf(term) * ((f * (this.k1 + 1)) / (f + norm)) * qWeight;
      }
      return s;
    });
  }
}

/** Scores → probabilities (a softmax with the given temperature); all zeros stay uniform. */
export function softmax(scores: readonly number[], temperature = 1): number[] {
  if (!scores.length) return [];
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp((s - max) / temperature));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** A plural's singular ("invoices", "policies"); verb endings stay ("formed" is not "form"). */
const singular = (t: string) => (t.length > 5 && t.endsWith('ies') ? t.slice(0, -3) + 'y' : t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us') ? t.slice(0, -1) : t);

/**
 * Tokens for nameCoverage: like retrievalTokens, but only plurals are reduced, so a page names a type when it
 * prints the type's noun ("form", "forms", "Formular"), not a verb that stems alike ("formed", "reported").
 */
export function nameTokens(text: string): string[] {
  return normalizeLabel(text)
    .split(' ')
    .filter((t) => t.length >= 2 && !STOP.has(t) && !/^\d+$/.test(t))
    .map((t) => CROSS_LINGUAL[t] ?? t)
    .map(singular);
}

/**
 * Share of a topic's name words found in the query (0..1), both as nameTokens. A page that says every word of the
 * topic's name ("tax" and "form" for tax_form) is strong evidence that breadth of matches on a long
 * description must not outvote.
 */
export function nameCoverage(name: string, query: ReadonlySet<string>): number {
  const words = [...new Set(nameTokens(name.replace(/[_-]+/g, ' ')))];
  return words.length ? words.filter((w) => query.has(w)).length / words.length : 0;
}

/** Added to a BM25 score per unit of name coverage. */
export const NAME_BONUS = 2;
