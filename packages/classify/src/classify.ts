import type { Document } from '@quire/core';
import { documentKindEvidence, kindOf, type DocumentKind, type KindEvidence } from './document-kind.js';
import { Bm25Index, NAME_BONUS, layoutTerms, nameCoverage, nameTokens, retrievalTokens, softmax, type ClassifyAnswer, type ClassifyRequest, type PipelineCandidate } from '@quire/models';

/**
 * The built-in classifier: BM25 of the document's first pages against each pipeline's name,
 * description and keywords, plus language-independent kind cues (document-kind.ts: an invoice word in
 * any language, a VAT number, currency amounts, form widgets and drawn entry boxes, a letter's greeting
 * and complimentary close).
 *
 * Scores are probabilities from one softmax over the pipelines and a "none of these" alternative:
 * a pipeline's logit is its BM25 score in units of the temperature plus the log-likelihood ratio of its
 * kind's cue (cueLogOdds; a billing pipeline on a page without billing cues loses: UNSUPPORTED_WORDS,
 * BILLING_ABSENT); "none" has the logit of NONE_WORDS distinctive word matches. The temperature is
 * TAU distinctive word matches, a word's weight being the idf of a word only one pipeline has, so the
 * scale means the same whatever the number of pipelines. TAU is the one parameter fitted on data
 * (scripts/fit-classify-temperature.mjs: maximum likelihood of the right answer's probability on the
 * corpus packets' dev part); the stated confidence is the chosen pipeline's probability. A document
 * unlike every pipeline loses to "none" and gets a low confidence and no pipeline.
 */

/** Pages read (the spec's default page_range for classify is the first 5). */
export const CLASSIFY_PAGES = 5;
/** Temperature in distinctive word matches (fitted, see above): this many more matches are e times the odds. */
export const TAU = 1;
/** "None of these" scores as this many distinctive word matches: one coincidental word is a coin flip. */
const NONE_WORDS = 1;
/**
 * The most a page's layout words (layoutTerms) count for in BM25, in distinctive word matches. A layout
 * word that is a pipeline's name word ("table") still counts for name coverage outside this cap: putting
 * the name bonus under the cap too was tried and lowered validation classify accuracy (1.000 → 0.667).
 */
const LAYOUT_WORDS = 1.5;
/**
 * Log-likelihood ratio of a kind cue: kind evidence is a noisy-or of independent cues, so -ln(1 - evidence)
 * is the sum of each cue's -ln(1 - p) and independent cues add, as log-likelihood ratios do; this scales it
 * to nats. An invoice word in a title alone (0.7) is 2.4 nats, eleven to one; with a VAT number and
 * currency amounts (0.89) 4.4; AcroForm widgets (0.9) 4.6, a hundred to one; a greeting and a close (0.75) 2.8.
 */
const CUE_NATS = 2;
/** Kind evidence is capped below 1 (one cue cannot be certainty). */
const MAX_EVIDENCE = 0.99;
export const cueLogOdds = (evidence: number) => -CUE_NATS * Math.log(1 - Math.min(evidence, MAX_EVIDENCE));
/**
 * A billing pipeline on a page without billing cues. Invoices and receipts print an invoice word, a tax
 * number or currency amounts in whatever language, so a page with none of them that matched "amounts,
 * tax and total" by words alone (a statistical report, a financial statement) is a doubtful invoice:
 * - its words count UNSUPPORTED_WORDS as much: billing vocabulary is shared by every financial paper, and
 *   without a billing cue the words say "about money", not "an invoice" (they are not independent);
 * - the missing cues are a log-likelihood ratio of -BILLING_ABSENT (one in seven: invoices lack all of them
 *   rarely, other papers usually), less in proportion to the weak cues there are (a "Total" line).
 */
const UNSUPPORTED_WORDS = 0.5;
const BILLING_ABSENT = 2;
/** Billing evidence below this (no invoice word, no tax number, at most one currency amount) is no support. */
const BILLING_SUPPORT = 0.3;

export function documentText(doc: Document, maxPages = CLASSIFY_PAGES): string {
  const parts: string[] = [];
  if (doc.title) parts.push(doc.title);
  for (const page of doc.pages.slice(0, maxPages)) {
    for (const el of page.elements) {
      if (el.kind === 'text') parts.push(el.text);
      else if (el.kind === 'table') parts.push(el.cells.map((c) => c.text).join(' '));
      else parts.push([el.caption ?? '', el.text].join(' '));
    }
  }
  return parts.join('\n');
}

/** A pipeline as a BM25 document: its name and keywords count twice (they are chosen words). */
function pipelineTokens(p: PipelineCandidate): string[] {
  const name = retrievalTokens(p.name.replace(/[_-]+/g, ' '));
  const keywords = (p.keywords ?? []).flatMap(retrievalTokens);
  return [...name, ...name, ...retrievalTokens(p.description ?? ''), ...keywords, ...keywords];
}

/**
 * A pipeline's or topic's logit: its word evidence (BM25 over the temperature) plus its kind's cue as a
 * log-likelihood ratio; a billing kind on a page without billing cues keeps UNSUPPORTED_WORDS of its word
 * evidence and loses up to BILLING_ABSENT. Shared by classify and split.
 */
export function kindLogit(kind: DocumentKind | undefined, words: number, evidence: KindEvidence): number {
  const cue = kind ? cueLogOdds(evidence[kind]) : 0;
  if (kind === 'billing' && evidence.billing < BILLING_SUPPORT) return UNSUPPORTED_WORDS * words + cue - BILLING_ABSENT * (1 - evidence.billing / BILLING_SUPPORT);
  return words + cue;
}

/** The idf of a word only one of n pipelines has: the weight of one distinctive word match. */
export const distinctiveWordWeight = (n: number) => Math.log(1 + (n - 0.5) / 1.5);

export interface ClassifyOptions {
  /** Temperature in distinctive word matches (TAU unless a calibration fit tries others). */
  tau?: number;
}

export function classifyBuiltin(req: ClassifyRequest, opts: ClassifyOptions = {}): ClassifyAnswer {
  if (!req.pipelines.length) return { pipelineId: null, scores: [] };
  const index = new Bm25Index(req.pipelines.map(pipelineTokens));
  const pages = req.document.pages.slice(0, req.maxPages ?? CLASSIFY_PAGES);
  const text = documentText(req.document, req.maxPages ?? CLASSIFY_PAGES);
  const said = retrievalTokens(text);
  const layout = pages.flatMap((p) => layoutTerms(p));
  const query = [...said, ...layout];
  // the name words the page prints as nouns (nameTokens: "formed" does not name a form), and its layout's
  const words = new Set([...nameTokens(text), ...layout]);
  const weight = distinctiveWordWeight(req.pipelines.length);
  // the layout is one observation (the page looks like a table, prose or a form), however many of its
  // words a description shares: it speaks as at most LAYOUT_WORDS distinctive words
  const wordsOnly = index.scores(said);
  const raw = index.scores(query).map((s, i) => wordsOnly[i] + Math.min(s - wordsOnly[i], LAYOUT_WORDS * weight) + NAME_BONUS * nameCoverage(req.pipelines[i].name, words));
  const evidence = documentKindEvidence(pages);
  const temperature = (opts.tau ?? TAU) * weight;
  const logits = req.pipelines.map((p, i) => kindLogit(kindOf(p.name, p.description, p.keywords), raw[i] / temperature, evidence));
  const none = (NONE_WORDS * weight) / temperature;
  const probs = softmax([...logits, none]);
  const top = logits.indexOf(Math.max(...logits));
  const scores = req.pipelines
    .map((p, i) => ({ pipelineId: p.id, score: Math.round(probs[i] * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score);
  // routed when the best pipeline is likelier than "none of these"
  return { pipelineId: logits[top] > none ? req.pipelines[top].id : null, scores };
}
