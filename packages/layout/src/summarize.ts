import { meanConfidence, type FigureElement, type RawWord, type TableElement } from '@quire/core';
import type { BlockDraft } from './blocks.js';
import { captionKind, footnoteSymbol, isFormula, isRefSymbol, PRIVATE_USE_BULLETS, startsCaption } from './markers.js';
import { joinLines, joinWords } from './text.js';
import type { BlockSummary, Frag, PageGeom } from './types.js';

/** Reduces a block to its text and features; the words are dropped here. */
export function summarize(d: BlockDraft, geom: PageGeom): BlockSummary {
  const words: RawWord[] = [];
  for (const l of d.lines) for (const w of l.words) words.push(w);
  const texts = d.lines.map((l) => l.text);
  const out: BlockSummary = {
    kind: 'block', text: joinLines(texts), box: d.box, fontSize: d.fontSize, bold: d.bold, italic: d.italic,
    lineCount: d.lines.length, confidence: Math.round(meanConfidence(words) * 1000) / 1000,
  };
  if (d.list) {
    const first = d.lines[0].words;
    const raw = first[0].text;
    // the marker glued to the first word, as written or as the private-use glyph it was read from
    const glued = raw.length > d.list.marker.length && raw.startsWith(d.list.marker) ? d.list.marker.length
      : raw.length > 1 && PRIVATE_USE_BULLETS[raw[0]] === d.list.marker ? 1 : 0;
    const head = glued ? [{ ...first[0], text: raw.slice(glued) }, ...first.slice(1)] : first.slice(1);
    out.list = { marker: d.list.marker, ordered: d.list.ordered, x0: d.list.x0 };
    out.listText = joinLines([joinWords(head, geom.width, d.lines[0].rtl), ...texts.slice(1)]);
  }
  if (d.mark !== undefined) out.mark = d.mark;
  if (d.lines.length <= 3 && isFormula(words)) out.formula = true;
  const refs = superscripts(d.lines, geom);
  if (refs.length) out.refs = refs;
  if (d.lines[0].words.length >= 2) {
    const s = footnoteSymbol(d.lines[0].words[0].text);
    if (s) out.leadSymbol = s;
  }
  return out;
}

/** Small raised symbols after the first word: by size (≤ 80% of the line's) and by a baseline raised ≥ 0.2 em. */
function superscripts(lines: readonly Frag[], geom: PageGeom): string[] {
  const out: string[] = [];
  lines.forEach((line, li) => {
    if (line.words.length < 2) return;
    const m = line.fontSize;
    const bases = line.words.filter((w) => w.fontSize >= 0.9 * m).map((w) => w.box.y1).sort((a, b) => a - b);
    if (bases.length === 0) return;
    const baseline = bases[bases.length >> 1];
    line.words.forEach((w, wi) => {
      if (li === 0 && wi === 0) return;
      if (w.fontSize <= 0.8 * m && w.box.y1 < baseline - (0.2 * m) / geom.height && isRefSymbol(w.text)) out.push(w.text);
    });
  });
  return out;
}

/** Ties "Figure 3 …" / "Table 2 …" blocks to the nearest figure or table just above or below them (same kind preferred). */
export function linkCaptions(blocks: readonly BlockSummary[], targets: readonly (TableElement | FigureElement)[]): void {
  for (const b of blocks) {
    if (!startsCaption(b.text)) continue;
    const want = captionKind(b.text);
    let best: TableElement | FigureElement | undefined, bestScore = Infinity;
    for (const t of targets) {
      const tb = t.box!;
      if (Math.min(tb.x1, b.box.x1) - Math.max(tb.x0, b.box.x0) <= 0) continue;
      const d = b.box.y0 >= tb.y1 - 0.02 ? b.box.y0 - tb.y1 : tb.y0 - b.box.y1;
      if (d < -0.02 || d > 0.12) continue;
      const score = Math.max(0, d) + (t.kind === want ? 0 : 1);
      if (score < bestScore) { bestScore = score; best = t; }
    }
    if (best) b.captionOf = best;
  }
}
