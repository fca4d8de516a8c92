/**
 * Recursive character splitting, as retrieval libraries do it: cut the text at the coarsest
 * separator it contains (paragraphs), pack the parts greedily up to `size`, and cut a part that is
 * still too long at the next separator (lines, sentences, words), down to a hard cut. Works on
 * offsets, so each chunk can be traced back to the elements it overlaps.
 */

export interface Span { start: number; end: number }

const SEPARATORS = ['\n\n', '\n', '. ', ' '];

function split(text: string, start: number, end: number, size: number, level: number): Span[] {
  if (end - start <= size) return [{ start, end }];
  const sep = SEPARATORS[level];
  if (sep === undefined) {
    const out: Span[] = [];
    for (let s = start; s < end; s += size) out.push({ start: s, end: Math.min(end, s + size) });
    return out;
  }
  // each part keeps its separator at its end, so the parts cover [start, end) without gaps
  const parts: Span[] = [];
  let s = start;
  for (let i = text.indexOf(sep, s); i !== -1 && i + sep.length <= end; i = text.indexOf(sep, s)) {
    parts.push({ start: s, end: i + sep.length });
    s = i + sep.length;
  }
  if (s < end) parts.push({ start: s, end });
  if (parts.length === 1) return split(text, start, end, size, level + 1);
  const out: Span[] = [];
  let cur: Span | null = null;
  for (const p of parts) {
    if (p.end - p.start > size) {
      if (cur) out.push(cur);
      cur = null;
      out.push(...split(text, p.start, p.end, size, level + 1));
    } else if (cur && p.end - cur.start <= size) {
      cur.end = p.end;
    } else {
      if (cur) out.push(cur);
      cur = { ...p };
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Spans of at most `size` characters, trimmed of surrounding whitespace, empty ones dropped. */
export function recursiveSpans(text: string, size: number): Span[] {
  return split(text, 0, text.length, size, 0).flatMap(({ start, end }) => {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    return end > start ? [{ start, end }] : [];
  });
}
