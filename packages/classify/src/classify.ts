import type { Document } from '@quire/core';
import { documentKindEvidence, kindOf } from './document-kind.js';
import { Bm25Index, NAME_BONUS, layoutTerms, nameCoverage, retrievalTokens, softmax, type ClassifyAnswer, type ClassifyRequest, type PipelineCandidate } from '@quire/models';

/**
 * The built-in classifier: BM25 of the document's first pages against each pipeline's name,
 * description and keywords. Scores are a softmax over the BM25 scores (how the pipelines compare)
 * scaled by the strength of the best match (how much evidence there is at all), so a document that
 * matches nothing gets low scores everywhere and no pipeline.
 *
 * Language-independent kind cues (document-kind.ts: an invoice word in any language, a VAT number,
 * form widgets and drawn entry boxes) add to the pipelines of their kind. The stated confidence
 * is meant to read as a probability of being right: it is the top pipeline's share times the evidence
 * there is at all (words or cues), lowered when an invoice-like pipeline wins on a page with no billing
 * cue (a statistical report that shares "total" and "amount" with an invoice description).
 */

/** Pages read (the spec's default page_range for classify is the first 5). */
export const CLASSIFY_PAGES = 5;
/** Below this BM25 score the best pipeline is a coincidence of common words: no pipeline. */
const MIN_EVIDENCE = 1.0;
/** How loud a fully evidenced kind cue speaks, in softmax temperatures. */
const KIND_WEIGHT = 3;
/** A kind cue this strong routes a page that has no matching words (a fillable form that prints little). */
const CUE_ROUTES = 0.5;
/**
 * Confidence kept when a billing pipeline wins on a page without billing cues: invoices and receipts
 * print an invoice word, a tax number or several currency amounts with a total in whatever language, so
 * a page with none of them that matched "amounts, tax and total" by words alone (a statistical report)
 * is a doubtful invoice.
 */
const BILLING_UNSUPPORTED = 0.5;
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

export function classifyBuiltin(req: ClassifyRequest): ClassifyAnswer {
  if (!req.pipelines.length) return { pipelineId: null, scores: [] };
  const index = new Bm25Index(req.pipelines.map(pipelineTokens));
  const pages = req.document.pages.slice(0, req.maxPages ?? CLASSIFY_PAGES);
  const query = [...retrievalTokens(documentText(req.document, req.maxPages ?? CLASSIFY_PAGES)), ...pages.flatMap((p) => layoutTerms(p))];
  const words = new Set(query);
  const raw = index.scores(query).map((s, i) => s + NAME_BONUS * nameCoverage(req.pipelines[i].name, words));
  const evidence = documentKindEvidence(pages);
  const cues = req.pipelines.map((p) => { const k = kindOf(p.name, p.description, p.keywords); return k ? evidence[k] : 0; });
  const best = Math.max(...raw);
  const temperature = Math.max(0.5, best / 4);
  const probs = softmax(raw.map((r, i) => r + KIND_WEIGHT * temperature * cues[i]), temperature);
  const top = probs.indexOf(Math.max(...probs));
  const wordStrength = 1 - Math.exp(-best / 3);
  const strength = 1 - (1 - wordStrength) * (1 - cues[top]);
  const topKind = kindOf(req.pipelines[top].name, req.pipelines[top].description, req.pipelines[top].keywords);
  const contradicted = topKind === 'billing' && evidence.billing < BILLING_SUPPORT ? BILLING_UNSUPPORTED : 1;
  const scores = req.pipelines
    .map((p, i) => ({ pipelineId: p.id, score: Math.round(probs[i] * strength * contradicted * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score);
  const routed = best >= MIN_EVIDENCE || cues[top] >= CUE_ROUTES;
  return { pipelineId: routed ? req.pipelines[top].id : null, scores };
}
