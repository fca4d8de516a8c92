import type { Document } from '@quire/core';
import { Bm25Index, NAME_BONUS, layoutTerms, nameCoverage, retrievalTokens, softmax, type ClassifyAnswer, type ClassifyRequest, type PipelineCandidate } from '@quire/models';

/**
 * The built-in classifier: BM25 of the document's first pages against each pipeline's name,
 * description and keywords. Scores are a softmax over the BM25 scores (how the pipelines compare)
 * scaled by the strength of the best match (how much evidence there is at all), so a document that
 * matches nothing gets low scores everywhere and no pipeline.
 */

/** Pages read (the spec's default page_range for classify is the first 5). */
export const CLASSIFY_PAGES = 5;
/** Below this BM25 score the best pipeline is a coincidence of common words: no pipeline. */
const MIN_EVIDENCE = 1.0;

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
  const best = Math.max(...raw);
  const strength = 1 - Math.exp(-best / 3);
  const probs = softmax(raw, Math.max(0.5, best / 4));
  const scores = req.pipelines
    .map((p, i) => ({ pipelineId: p.id, score: Math.round(probs[i] * strength * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score);
  return { pipelineId: best >= MIN_EVIDENCE ? scores[0].pipelineId : null, scores };
}
