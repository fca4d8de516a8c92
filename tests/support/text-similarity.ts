import { parse } from 'parse5';
import { bagScores } from '../../scripts/lib/text-metrics.mjs';

/** Words of a markdown or plain text, lowercased, markup and punctuation removed. */
export function words(text: string): string[] {
  return text
    .replace(/<[^>]+>/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Visible text of an HTML string (for expected .html ground truth). */
export function htmlText(html: string): string {
  const out: string[] = [];
  const walk = (n: { nodeName: string; value?: string; childNodes?: unknown[] }) => {
    if (n.nodeName === '#text') out.push(n.value ?? '');
    if (n.nodeName === 'script' || n.nodeName === 'style' || n.nodeName === 'head') return;
    for (const c of (n.childNodes ?? []) as typeof n[]) walk(c);
    out.push(' ');
  };
  walk(parse(html) as unknown as { nodeName: string });
  return out.join('');
}

/** Bag-of-words F1 between a candidate and a reference text (1 = same words with the same counts). */
export function wordF1(candidate: string, reference: string): number {
  return bagScores(words(candidate), words(reference)).f1;
}
