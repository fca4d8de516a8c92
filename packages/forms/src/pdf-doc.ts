import {
  PDFArray, PDFDict, type PDFDocument, PDFName, PDFRawStream, type PDFObject, PDFRef, PDFStream, decodePDFRawStream, type PDFPage,
} from 'pdf-lib';
import { type Matrix, invertMatrix } from '@quire/format-pdf';
import type { PageFrame } from './page-frame.js';

/** The same user→display transform pdf.js's viewport uses (scale 1), computed from pdf-lib's page. */
export function frameOf(page: PDFPage, rotation?: number): PageFrame {
  const crop = page.getCropBox(), media = page.getMediaBox();
  const x0 = Math.max(crop.x, media.x), y0 = Math.max(crop.y, media.y);
  const x1 = Math.min(crop.x + crop.width, media.x + media.width), y1 = Math.min(crop.y + crop.height, media.y + media.height);
  const [vx0, vy0, vx1, vy1] = x1 > x0 && y1 > y0 ? [x0, y0, x1, y1] : [media.x, media.y, media.x + media.width, media.y + media.height];
  const rotate = (((rotation ?? page.getRotation().angle) % 360) + 360) % 360;
  const cx = (vx0 + vx1) / 2, cy = (vy0 + vy1) / 2;
  const [A, B, C, D] = rotate === 90 ? [0, 1, 1, 0] : rotate === 180 ? [-1, 0, 0, 1] : rotate === 270 ? [0, -1, -1, 0] : [1, 0, 0, -1];
  const swap = A === 0;
  const width = swap ? vy1 - vy0 : vx1 - vx0, height = swap ? vx1 - vx0 : vy1 - vy0;
  const offX = swap ? Math.abs(cy - vy0) : Math.abs(cx - vx0), offY = swap ? Math.abs(cx - vx0) : Math.abs(cy - vy0);
  const t: Matrix = [A, B, C, D, offX - A * cx - C * cy, offY - B * cx - D * cy];
  return { width, height, rotate, toDisplay: t, toUser: invertMatrix(t) };
}

/** Decoded bytes of a stream (raw streams are decoded through their filters). */
export function streamBytes(s: PDFStream): Uint8Array | null {
  try {
    if (s instanceof PDFRawStream) return decodePDFRawStream(s).decode();
    const anyS = s as unknown as { getUnencodedContents?: () => Uint8Array };
    return anyS.getUnencodedContents ? anyS.getUnencodedContents() : s.getContents();
  } catch {
    return null; // unsupported filter: leave the stream alone
  }
}

/** Replaces the object behind `ref` with a Flate stream holding `bytes`, keeping the rest of its dictionary. */
export function replaceStream(doc: PDFDocument, ref: PDFRef, old: PDFStream, bytes: Uint8Array) {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of old.dict.entries()) {
    const key = k.asString().slice(1);
    if (!['Filter', 'DecodeParms', 'Length', 'DL'].includes(key)) extra[key] = v;
  }
  doc.context.assign(ref, doc.context.flateStream(bytes, extra as never));
}

/** The page's content streams with their refs (in order). */
export function pageContents(doc: PDFDocument, page: PDFPage): { ref: PDFRef; stream: PDFStream }[] {
  const c = page.node.get(PDFName.of('Contents'));
  const refs: PDFRef[] = [];
  if (c instanceof PDFRef) {
    const o = doc.context.lookup(c);
    if (o instanceof PDFArray) o.asArray().forEach((x) => x instanceof PDFRef && refs.push(x));
    else refs.push(c);
  } else if (c instanceof PDFArray) c.asArray().forEach((x) => x instanceof PDFRef && refs.push(x));
  return refs.map((ref) => ({ ref, stream: doc.context.lookup(ref) })).filter((x): x is { ref: PDFRef; stream: PDFStream } => x.stream instanceof PDFStream);
}

/** The page's (possibly inherited) resource dictionary. */
export function pageResources(doc: PDFDocument, page: PDFPage): PDFDict | undefined {
  let node: PDFDict | undefined = page.node;
  for (let depth = 0; node && depth < 32; depth++) {
    const r = node.get(PDFName.of('Resources'));
    const d = r ? doc.context.lookup(r) : undefined;
    if (d instanceof PDFDict) return d;
    const p: PDFObject | undefined = node.get(PDFName.of('Parent'));
    const next: PDFObject | undefined = p ? doc.context.lookup(p) : undefined;
    node = next instanceof PDFDict ? next : undefined;
  }
  return undefined;
}

export const lookupDict = (doc: PDFDocument, d: PDFDict | undefined, key: string): PDFDict | undefined => {
  const v = d?.get(PDFName.of(key));
  const o = v ? doc.context.lookup(v) : undefined;
  return o instanceof PDFDict ? o : undefined;
};
