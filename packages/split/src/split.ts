import type { Document } from '@quire/core';
import { Bm25Index, NAME_BONUS, layoutTerms, nameCoverage, nameTokens, retrievalTokens, softmax, type SplitAnswer, type SplitRequest } from '@quire/models';
import { kindEvidence, kindLogit, kindOf } from '@quire/classify';
import { boundaryProbabilities, pageSignals } from './boundaries.js';

/**
 * The built-in splitter. Each page gets a topic distribution (BM25 of its text against each
 * topic's name and description, softmaxed); an HMM over pages whose switching probability follows
 * the boundary evidence (page-number resets, header changes, titles) makes contiguous groups
 * cheap and switches likely only where a new document starts. Viterbi gives the segmentation,
 * forward–backward the per-page posteriors that become each group's confidence. A run of one topic
 * is cut again where a new document clearly starts (two invoices in a row are two groups).
 */

const pageText = (doc: Document, i: number) => doc.pages[i].elements
  .map((el) => (el.kind === 'text' ? el.text : el.kind === 'table' ? el.cells.map((c) => c.text).join(' ') : `${el.caption ?? ''} ${el.text}`))
  .join('\n');

/** log P(page | topic) up to a constant: softmax of BM25 at a temperature set by the document's scale. */
function emissions(doc: Document, req: SplitRequest): number[][] {
  const index = new Bm25Index(req.topics.map((t) => {
    const name = retrievalTokens(t.name.replace(/[_-]+/g, ' '));
    return [...name, ...name, ...retrievalTokens(t.description ?? '')];
  }));
  const raw = doc.pages.map((page, i) => {
    const text = pageText(doc, i), layout = layoutTerms(page, 2);
    const query = [...retrievalTokens(text), ...layout];
    const words = new Set([...nameTokens(text), ...layout]);
    return index.scores(query).map((s, t) => s + NAME_BONUS * nameCoverage(req.topics[t].name, words));
  });
  const scale = Math.max(1, ...raw.map((r) => Math.max(...r))) / 4;
  // language-independent type cues (an invoice word in any language, a VAT number, form widgets) speak
  // for the topics of their kind as log-likelihood ratios, as in classify (kindLogit)
  const kinds = req.topics.map((t) => kindOf(t.name, t.description));
  const logits = raw.map((r, i) => {
    const ev = kindEvidence(doc.pages[i]);
    return r.map((s, t) => kindLogit(kinds[t], s / scale, ev));
  });
  // a floor keeps one page's vocabulary from vetoing its neighbours' topic outright
  return logits.map((r) => softmax(r).map((p) => Math.log(0.9 * p + 0.1 / r.length)));
}

function transitions(boundary: number, k: number): { stay: number; move: number } {
  if (k === 1) return { stay: 0, move: -Infinity };
  const pSwitch = Math.min(0.9, 0.02 + 0.9 * boundary);
  return { stay: Math.log(1 - pSwitch), move: Math.log(pSwitch / (k - 1)) };
}

function viterbi(em: number[][], boundary: number[]): number[] {
  const k = em[0].length;
  let score = em[0].slice();
  const back: number[][] = [];
  for (let p = 1; p < em.length; p++) {
    const { stay, move } = transitions(boundary[p], k);
    const next: number[] = [], ptr: number[] = [];
    for (let j = 0; j < k; j++) {
      let best = -Infinity, arg = 0;
      for (let i = 0; i < k; i++) {
        const s = score[i] + (i === j ? stay : move);
        if (s > best) { best = s; arg = i; }
      }
      next.push(best + em[p][j]); ptr.push(arg);
    }
    score = next; back.push(ptr);
  }
  const path = [score.indexOf(Math.max(...score))];
  for (let p = back.length - 1; p >= 0; p--) path.unshift(back[p][path[0]]);
  return path;
}

const logSumExp = (xs: number[]) => {
  const m = Math.max(...xs);
  return m === -Infinity ? m : m + Math.log(xs.reduce((s, x) => s + Math.exp(x - m), 0));
};

/** Posterior P(topic | all pages) per page (forward–backward in log space). */
function posteriors(em: number[][], boundary: number[]): number[][] {
  const n = em.length, k = em[0].length;
  const fwd: number[][] = [em[0].map((e) => e - Math.log(k))];
  for (let p = 1; p < n; p++) {
    const { stay, move } = transitions(boundary[p], k);
    fwd.push(em[p].map((e, j) => e + logSumExp(fwd[p - 1].map((f, i) => f + (i === j ? stay : move)))));
  }
  const bwd: number[][] = Array.from({ length: n }, () => new Array(k).fill(0));
  for (let p = n - 2; p >= 0; p--) {
    const { stay, move } = transitions(boundary[p + 1], k);
    bwd[p] = Array.from({ length: k }, (_, i) => logSumExp(em[p + 1].map((e, j) => (i === j ? stay : move) + e + bwd[p + 1][j])));
  }
  return fwd.map((f, p) => {
    const joint = f.map((x, j) => x + bwd[p][j]);
    const z = logSumExp(joint);
    return joint.map((x) => Math.exp(x - z));
  });
}

/** A same-topic run is cut where a new document is more likely than not. */
const NEW_DOCUMENT = 0.5;

export function splitBuiltin(req: SplitRequest): SplitAnswer {
  const doc = req.document;
  if (!req.topics.length || !doc.pages.length) return { groups: [] };
  const boundary = boundaryProbabilities(doc.pages.map(pageSignals));
  const em = emissions(doc, req);
  const path = viterbi(em, boundary);
  const post = posteriors(em, boundary);
  const groups: SplitAnswer['groups'] = [];
  let start = 0;
  for (let p = 1; p <= path.length; p++) {
    if (p < path.length && path[p] === path[start] && boundary[p] < NEW_DOCUMENT) continue;
    const idx = Array.from({ length: p - start }, (_, i) => start + i);
    const topicConf = idx.reduce((s, i) => s + post[i][path[start]], 0) / idx.length;
    // the group's edges are as sure as the boundary evidence at its first page and after its last
    const edges = Math.min(start === 0 ? 1 : Math.max(boundary[start], path[start] !== path[start - 1] ? 0.5 : 0), p < path.length ? Math.max(boundary[p], path[p] !== path[start] ? 0.5 : 0) : 1);
    const confidence = Math.round(topicConf * (0.6 + 0.4 * edges) * 1000) / 1000;
    groups.push({ topic: req.topics[path[start]].name, pages: idx.map((i) => doc.pages[i].number), confidence });
    start = p;
  }
  return { groups };
}
