import type { SplitAnswer, SplitTopic } from '@quire/models';

export interface TopicSplit {
  name: string;
  pages: number[];
  /** Page-weighted mean of its documents' confidence; 0 when the topic has no page. */
  confidence: number;
  /** The contiguous runs the segmenter saw as separate documents. */
  documents: { pages: number[]; confidence: number }[];
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * A segmenter answers one group per detected document (two invoices in a row are two groups); the
 * API answers one entry per requested topic, in request order, with those documents inside it.
 */
export function splitsByTopic(answer: SplitAnswer, topics: readonly SplitTopic[], allPages: readonly number[]): { splits: TopicSplit[]; unassigned: number[] } {
  const assigned = new Set<number>();
  const splits = topics.map((t): TopicSplit => {
    const documents = answer.groups
      .filter((g) => g.topic === t.name && g.pages.length)
      .map((g) => ({ pages: [...g.pages].sort((a, b) => a - b), confidence: round3(g.confidence) }))
      .sort((a, b) => a.pages[0] - b.pages[0]);
    const pages = [...new Set(documents.flatMap((d) => d.pages))].sort((a, b) => a - b);
    pages.forEach((p) => assigned.add(p));
    const weight = documents.reduce((s, d) => s + d.pages.length, 0);
    const confidence = weight ? round3(documents.reduce((s, d) => s + d.confidence * d.pages.length, 0) / weight) : 0;
    return { name: t.name, pages, confidence, documents };
  });
  return { splits, unassigned: allPages.filter((p) => !assigned.has(p)) };
}
