import { detailBoxes } from './cell-boxes.js';
import { cellText } from './flat-detect.js';
import { centreIn, toPt } from './labels.js';
import type { DetectedCell, PageGeometry } from './types.js';

/**
 * The fill-ins of a page: words inside /QuireFill (or /Tx) marked content and the shapes drawn
 * there (Quire's check marks). On a scan they are everything but the image.
 */
export function fillLayer(g: PageGeometry): PageGeometry {
  return {
    width: g.width, height: g.height,
    words: g.words.filter((w) => w.fill),
    segments: g.segments.filter((s) => s.fillIn),
    rects: g.rects.filter((r) => r.fillIn),
    marks: (g.marks ?? []).filter((m) => m.fillIn),
    ...(g.turn ? { turn: g.turn } : {}),
  };
}

/** A scan's geometry (OCR words, raster rulings) with the fill-ins drawn over the page added. */
export function withFillLayer(scan: PageGeometry, layer: PageGeometry): PageGeometry {
  return {
    ...scan,
    words: [...scan.words, ...layer.words],
    segments: [...scan.segments, ...layer.segments],
    rects: [...scan.rects, ...layer.rects],
    marks: [...(scan.marks ?? []), ...(layer.marks ?? [])],
  };
}

/**
 * Known cells of a scanned page re-read without OCR: a cell shows what the scan showed in it when it
 * was OCR'd (`scan`; nothing for a cell a caller drew) plus the fill-ins now drawn in it. `layer` is
 * the page's fill layer in the displayed page's frame, like the cells' boxes.
 */
export function knownScanCells(cells: DetectedCell[], layer: PageGeometry): DetectedCell[] {
  const W = layer.width, H = layer.height;
  const words = layer.words.map((w) => toPt(w, W, H));
  const pt = (b: [number, number, number, number]) => ({ x0: b[0] * W, y0: b[1] * H, x1: b[2] * W, y1: b[3] * H });
  const marks = [...(layer.marks ?? []).map((m) => m.box), ...layer.rects.map((r) => r.box)].map((b) => ({ x0: b.x0 * W, y0: b.y0 * H, x1: b.x1 * W, y1: b.y1 * H }));
  return cells.map((c) => {
    if (c.type === 'checkbox') {
      const boxes = detailBoxes(c).map(pt);
      const details = (c.checkbox_details ?? []).map((d, k) => ({
        ...d, selected: !!c.scan?.selected?.[k] || marks.some((m) => centreIn(m, boxes[k])) || words.some((w) => centreIn(w.box, boxes[k])),
      }));
      return { ...c, checkbox_details: details, text: details.filter((d) => d.selected).map((d) => d.text).join(', ') };
    }
    const box = pt(c.bounding_box);
    const drawn = cellText(words.filter((w) => centreIn(w.box, box)), !!c.comb);
    return { ...c, text: [c.scan?.text ?? '', drawn].filter(Boolean).join(c.comb ? '' : ' ') };
  });
}
