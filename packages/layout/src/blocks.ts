import type { Box } from '@quire/core';
import { unionBox, checkInterrupt } from '@quire/core';
import { bandsOf, leftToRight, makeFrag } from './lines.js';
import { footnoteSymbol, parseListMarker, startsCaption } from './markers.js';
import type { Frag, ListInfo, PageGeom } from './types.js';

export interface BlockDraft {
  lines: Frag[];
  box: Box;
  fontSize: number;
  bold: boolean;
  italic: boolean;
  list?: ListInfo & { textX0: number };
  mark?: number;
  centred: boolean;
  /** Left edge of the lines after the first (first-line indents differ). */
  left: number;
  gaps: number[];
}

const xOverlap = (a: Box, b: Box) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);

/**
 * Paragraph grouping, top to bottom: a line continues the block directly above it when it is close
 * (gap within the block's usual line spacing), in the same font size and weight, aligned with the block
 * (left edges, a first-line indent, centred lines, or a list item's hanging indent), does not start a list
 * item, caption or choice label, and is the only fragment of its row under that block (two fragments
 * under one block means the page splits into columns there).
 */
export function buildBlocks(input: readonly Frag[], geom: PageGeom): BlockDraft[] {
  const blocks: BlockDraft[] = [];
  let active: BlockDraft[] = [];
  for (const rawBand of bandsOf(input.filter((f) => !f.vertical))) {
    checkInterrupt();
    const band = glueMarkers(rawBand, geom);
    const bandTop = Math.min(...band.map((f) => f.box.y0));
    active = active.filter((b) => (bandTop - last(b).box.y1) * geom.height < 3 * b.fontSize);
    const claims = new Map<BlockDraft, number>();
    for (const f of band) for (const b of active) if (xOverlap(b.box, f.box) > 0) claims.set(b, (claims.get(b) ?? 0) + 1);
    for (const f of band) {
      let best: BlockDraft | undefined, bestGap = Infinity;
      for (const b of active) {
        if (claims.get(b) !== 1 || xOverlap(b.box, f.box) <= 0 || !canJoin(b, f, geom)) continue;
        const gap = f.box.y0 - last(b).box.y1;
        if (gap < bestGap) { bestGap = gap; best = b; }
      }
      if (best) append(best, f, geom);
      else {
        const b = startBlock(f);
        blocks.push(b);
        active.push(b);
      }
    }
  }
  for (const f of input) if (f.vertical) blocks.push(startBlock(f));
  return blocks;
}

const last = (b: BlockDraft) => b.lines[b.lines.length - 1];

/** A lone list marker separated from its text by a tab-like gap is glued back to the text on its right. */
function glueMarkers(band: Frag[], geom: PageGeom): Frag[] {
  const out: Frag[] = [];
  for (let i = 0; i < band.length; i++) {
    const f = band[i], next = band[i + 1];
    const marker = next && f.words.length === 1 && f.mark === undefined && next.mark === undefined ? parseListMarker(f.words[0].text, true) : undefined;
    // a bullet glyph alone says nothing by itself: it marks the text on its right, even across a wide
    // hanging indent; numbers and dashes stay within a tab's reach (they can be a table's own column)
    const reach = marker && !marker.ordered && !/^[-–—*]$/.test(marker.marker) ? 8 : 4;
    if (next && marker && (next.box.x0 - f.box.x1) * geom.width < reach * f.fontSize) {
      out.push(makeFrag([...leftToRight(f), ...leftToRight(next)], geom));
      i++;
    } else out.push(f);
  }
  return out;
}

function startBlock(f: Frag): BlockDraft {
  // a marker needs an item: "- - - - x" rules and dash leaders are not lists
  const m = f.words.length >= 2 && /[\p{L}\p{N}]/u.test(f.text.slice(f.words[0].text.length)) ? parseListMarker(f.words[0].text, false) : undefined;
  return {
    lines: [f], box: { ...f.box }, fontSize: f.fontSize, bold: f.bold, italic: f.italic, mark: f.mark, centred: false,
    left: f.box.x0, gaps: [],
    list: m ? { marker: m.marker, ordered: m.ordered, x0: f.box.x0, textX0: f.words[1].box.x0 } : undefined,
  };
}

function canJoin(b: BlockDraft, f: Frag, geom: PageGeom): boolean {
  const prev = last(b);
  const em = b.fontSize;
  const gapPt = (f.box.y0 - prev.box.y1) * geom.height;
  if (gapPt < -0.4 * em || gapPt > 0.8 * em) return false;
  if (b.gaps.length) {
    const typical = b.gaps[b.gaps.length >> 1];
    if (gapPt > Math.max(typical * 1.5, typical + 0.25 * em)) return false;
  }
  if (f.mark !== undefined || Math.abs(f.fontSize - b.fontSize) > 0.12 * b.fontSize || f.bold !== b.bold) return false;
  if ((f.words.length >= 2 && parseListMarker(f.words[0].text, false)) || startsCaption(f.text)) return false;
  // consecutive footnotes ("1 See …", "2 Ibid.") are one block each
  if (f.words.length >= 2 && footnoteSymbol(f.words[0].text) && b.lines[0].words.length >= 2 && footnoteSymbol(b.lines[0].words[0].text)) return false;
  const emX = em / geom.width;
  const first = b.lines[0];
  const centreDiff = Math.abs((f.box.x0 + f.box.x1) / 2 - (b.box.x0 + b.box.x1) / 2);
  if (b.list) return Math.abs(f.box.x0 - b.list.textX0) <= 1.2 * emX || Math.abs(f.box.x0 - b.list.x0) <= 0.5 * emX;
  if (b.lines.length === 1) return (f.box.x0 <= first.box.x0 + 0.5 * emX && f.box.x0 >= first.box.x0 - 4 * emX) || symmetric(f.box, first.box, emX);
  if (b.centred) return centreDiff < emX;
  return Math.abs(f.box.x0 - b.left) <= 0.8 * emX;
}

function append(b: BlockDraft, f: Frag, geom: PageGeom): void {
  const prev = last(b);
  const gapPt = (f.box.y0 - prev.box.y1) * geom.height;
  b.gaps.push(gapPt);
  b.gaps.sort((x, y) => x - y);
  if (b.lines.length === 1) {
    b.centred = !b.list && symmetric(f.box, b.lines[0].box, b.fontSize / geom.width);
    b.left = f.box.x0;
  } else b.left = Math.min(b.left, f.box.x0);
  b.lines.push(f);
  b.box = unionBox([b.box, f.box])!;
}

/**
 * Centred under each other: same centre, both edges moved (a first-line indent moves only the left edge),
 * widths within 3× (a short centred display line above a full-width paragraph is not one block with it).
 */
function symmetric(a: Box, b: Box, emX: number): boolean {
  const wa = a.x1 - a.x0, wb = b.x1 - b.x0;
  return Math.abs((a.x0 + a.x1) / 2 - (b.x0 + b.x1) / 2) < emX && Math.abs(a.x0 - b.x0) > 0.5 * emX && Math.abs(a.x1 - b.x1) > 0.5 * emX &&
    Math.max(wa, wb) <= 3 * Math.min(wa, wb);
}
