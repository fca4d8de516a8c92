import {
  PDFDict, PDFName, beginMarkedContent, beginText, drawObject, endMarkedContent, endText, lineTo, moveText, moveTo,
  popGraphicsState, pushGraphicsState, setFillingGrayscaleColor, setFontAndSize, setLineCap, setLineJoin, setLineWidth,
  setStrokingGrayscaleColor, showText, stroke, type PDFDocument, type PDFFont, type PDFOperator, type PDFPage,
} from 'pdf-lib';
import { coverable, type FontPicker } from './fonts.js';
import { FILL_TAG } from './page-geometry.js';
import {
  type Matrix, isName, lookupDict, multiply, pageContents, pageResources, parseContent, replaceStream, rewriteContent, streamBytes,
} from '@quire/format-pdf';
import type { PageFrame } from './page-frame.js';

export const OVERLAY_PREFIX = 'QuireOverlay';
type NBox = [number, number, number, number];

/** Local drawing frame of a cell: origin at the box's bottom-left as displayed, y up, in points. */
function cellFrame(frame: PageFrame, box: NBox) {
  const x0 = box[0] * frame.width, y1 = box[3] * frame.height;
  const w = (box[2] - box[0]) * frame.width, h = (box[3] - box[1]) * frame.height;
  const m: Matrix = multiply(frame.toUser, [1, 0, 0, -1, x0, y1]);
  return { w, h, m, toLocal: (b: NBox) => ({ x0: b[0] * frame.width - x0, y0: y1 - b[3] * frame.height, x1: b[2] * frame.width - x0, y1: y1 - b[1] * frame.height }) };
}

/**
 * Draws one overlay as a named Form XObject (QuireOverlayN) invoked from a content stream of its
 * own. The name is what makes the drawing removable later: clear drops exactly those `Do` calls and
 * resource entries, whatever else happened to the page.
 */
function place(doc: PDFDocument, page: PDFPage, m: Matrix, w: number, h: number, ops: PDFOperator[], font?: PDFFont): string {
  const resources: Record<string, unknown> = font ? { Font: { F1: font.ref } } : {};
  const xobj = doc.context.formXObject(ops, { BBox: [-2, -2, w + 2, h + 2], Matrix: m, Resources: resources as never });
  const ref = doc.context.register(xobj);
  const { XObject } = page.node.normalizedEntries();
  let n = 1;
  while (XObject.has(PDFName.of(`${OVERLAY_PREFIX}${n}`))) n++;
  const name = `${OVERLAY_PREFIX}${n}`;
  XObject.set(PDFName.of(name), ref);
  page.pushOperators(pushGraphicsState(), drawObject(name), popGraphicsState());
  return name;
}

export interface TextOverlay { multiline?: boolean; combBoxes?: NBox[] }

/** Text fitted into the cell: shrunk to the width, vertically centred (top-aligned and wrapped when multiline), comb characters one per box. */
export async function drawTextOverlay(doc: PDFDocument, page: PDFPage, frame: PageFrame, box: NBox, value: string, fonts: FontPicker, o: TextOverlay = {}): Promise<string> {
  const { w, h, m, toLocal } = cellFrame(frame, box);
  const font = await fonts.for(value);
  const text = coverable(font, value);
  const ops: PDFOperator[] = [beginMarkedContent(FILL_TAG), setFillingGrayscaleColor(0)];
  const show = (s: string, x: number, y: number, size: number) => ops.push(beginText(), setFontAndSize('F1', size), moveText(x, y), showText(font.encodeText(s)), endText());
  if (o.combBoxes?.length) {
    [...text.replace(/\s+/g, '')].slice(0, o.combBoxes.length).forEach((ch, k) => {
      const b = toLocal(o.combBoxes![k]);
      const size = Math.min(12, (b.y1 - b.y0) * 0.7);
      show(ch, (b.x0 + b.x1) / 2 - font.widthOfTextAtSize(ch, size) / 2, (b.y0 + b.y1) / 2 - size * 0.35, size);
    });
  } else if (o.multiline && h > 24) {
    let size = Math.min(11, h * 0.7), lines = wrap(font, text, w - 4, size);
    while (size > 4 && lines.length * size * 1.15 > h - 3) { size -= 0.5; lines = wrap(font, text, w - 4, size); }
    lines.forEach((l, k) => show(l, 2, h - 2 - size * (0.85 + 1.15 * k), size));
  } else {
    const line = text.replace(/\s*\n\s*/g, ' ');
    const unit = font.widthOfTextAtSize(line, 1) || 1;
    const size = Math.max(4, Math.min(11, h * 0.7, (w - 4) / unit));
    show(line, 2, (h - size * 0.7) / 2, size);
  }
  ops.push(endMarkedContent());
  return place(doc, page, m, w, h, ops, font);
}

function wrap(font: PDFFont, text: string, width: number, size: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let cur = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      const next = cur ? `${cur} ${word}` : word;
      if (cur && font.widthOfTextAtSize(next, size) > width) { out.push(cur); cur = word; } else cur = next;
    }
    out.push(cur);
  }
  return out;
}

/** A check mark centred in each of the given boxes (normalized), as one overlay. */
export function drawCheckOverlay(doc: PDFDocument, page: PDFPage, frame: PageFrame, cellBox: NBox, boxes: NBox[]): string {
  const { w, h, m, toLocal } = cellFrame(frame, cellBox);
  const ops: PDFOperator[] = [beginMarkedContent(FILL_TAG), setStrokingGrayscaleColor(0), setLineCap(1), setLineJoin(1)];
  for (const nb of boxes) {
    const b = toLocal(nb);
    const s = Math.min(b.x1 - b.x0, b.y1 - b.y0), x = (b.x0 + b.x1) / 2 - s / 2, y = (b.y0 + b.y1) / 2 - s / 2;
    ops.push(setLineWidth(Math.max(0.8, s * 0.12)), moveTo(x + 0.22 * s, y + 0.52 * s), lineTo(x + 0.42 * s, y + 0.25 * s), lineTo(x + 0.8 * s, y + 0.78 * s), stroke());
  }
  ops.push(endMarkedContent());
  return place(doc, page, m, w, h, ops);
}

/**
 * Removes Quire overlays from a page: the `/QuireOverlayN Do` calls in its content streams and the
 * resource entries. `names` limits it to those overlays (lineage); without it every QuireOverlay goes.
 * Returns the names removed.
 */
export function removeOverlays(doc: PDFDocument, page: PDFPage, names?: Set<string>): string[] {
  const match = (n: string) => (names ? names.has(n) : new RegExp(`^${OVERLAY_PREFIX}\\d+$`).test(n));
  const removed = new Set<string>();
  for (const { ref, stream } of pageContents(doc, page)) {
    const bytes = streamBytes(stream);
    if (!bytes || !Buffer.from(bytes).includes(OVERLAY_PREFIX)) continue;
    const ops = parseContent(bytes);
    const drop = new Map<number, string>();
    ops.forEach((o, k) => {
      const a = o.args[0];
      if (o.op === 'Do' && isName(a) && match(a.name)) { drop.set(k, ''); removed.add(a.name); }
    });
    if (drop.size) replaceStream(doc, ref, stream, rewriteContent(bytes, ops, drop));
  }
  const xo = lookupDict(doc, pageResources(doc, page), 'XObject');
  if (xo instanceof PDFDict) for (const key of xo.keys()) if (match(key.decodeText())) { xo.delete(key); removed.add(key.decodeText()); }
  return [...removed];
}
