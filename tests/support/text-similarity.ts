import { parse } from 'parse5';

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
  const a = words(candidate), b = words(reference);
  if (a.length === 0 && b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of b) counts.set(w, (counts.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of a) {
    const c = counts.get(w) ?? 0;
    if (c > 0) { hit++; counts.set(w, c - 1); }
  }
  const p = hit / Math.max(1, a.length), r = hit / Math.max(1, b.length);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}
