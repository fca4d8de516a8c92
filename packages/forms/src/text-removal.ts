import { PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFPage } from 'pdf-lib';
import { OVERLAY_PREFIX } from './overlay.js';
import {
  type ContentOp, type Matrix, type Operand, applyMatrix, isName, isString, lookupDict, multiply, numberOf, pageContents, pageResources,
  parseContent, replaceStream, rewriteContent, streamBytes,
} from '@quire/format-pdf';
import type { PageFrame } from './page-frame.js';

type NBox = [number, number, number, number];
/** Areas whose typed content should go: text cells lose their text, checkbox boxes also their marks (paths). */
export interface RemovalTarget { box: NBox; kind: 'text' | 'check' }

interface TextState { tfs: number; th: number; tc: number; tw: number; tl: number; ts: number; twoByte: boolean }
interface Ctx { ctm: Matrix; res: PDFDict | undefined }

/**
 * Removes fill-ins made by other tools on flat PDFs: every text-showing operation whose start lies
 * inside a target cell is emptied (the operator stays, so text positioning is unchanged), and for
 * checkbox boxes the paths drawn strictly inside the box (X, ✓ strokes) are dropped. Text drawn in
 * form XObjects (flattened field appearances) is handled by rewriting the XObject. Template text
 * ("____" leaders) is kept. Positions after the first string of a text object are estimated (0.5 em
 * per glyph), so a value continued in the same text object as a printed label may be missed.
 */
export function removeTypedContent(doc: PDFDocument, page: PDFPage, frame: PageFrame, targets: RemovalTarget[]): number {
  if (!targets.length) return 0;
  const edits = new Map<string, { ref: PDFRef; stream: PDFStream; bytes: Uint8Array; ops: ContentOp[]; drop: Map<number, string> }>();
  const visited = new Set<string>();
  const norm = (x: number, y: number) => { const [dx, dy] = applyMatrix(frame.toDisplay, x, y); return [dx / frame.width, dy / frame.height]; };
  const inTarget = (x: number, y: number) => {
    const [nx, ny] = norm(x, y);
    return targets.some((t) => nx >= t.box[0] - 0.002 && nx <= t.box[2] + 0.002 && ny >= t.box[1] - 0.002 && ny <= t.box[3] + 0.002);
  };
  /**
   * A mark (user-space bbox corners) inside a checkbox and clearly smaller than it: not the box's own
   * outline — neither the whole frame nor a piece of one (a bevelled side, a ring's half-arc), which
   * reaches two of the box's sides where a tick reaches at most one.
   */
  const markInCheck = (p: [number, number], q: [number, number]) => {
    const [ax, ay] = norm(p[0], p[1]), [bx, by] = norm(q[0], q[1]);
    const x0 = Math.min(ax, bx), x1 = Math.max(ax, bx), y0 = Math.min(ay, by), y1 = Math.max(ay, by);
    return targets.some((t) => t.kind === 'check' && x0 >= t.box[0] - 0.002 && x1 <= t.box[2] + 0.002 && y0 >= t.box[1] - 0.002 && y1 <= t.box[3] + 0.002 &&
      (x1 - x0 < 0.85 * (t.box[2] - t.box[0]) || y1 - y0 < 0.85 * (t.box[3] - t.box[1])) &&
      [x0 - t.box[0], y0 - t.box[1], t.box[2] - x1, t.box[3] - y1].filter((d) => d < 0.0015).length < 2);
  };
  const run = (ref: PDFRef, stream: PDFStream, ctx: Ctx) => {
    const key = ref.toString();
    if (visited.has(key)) return;
    visited.add(key);
    const bytes = streamBytes(stream);
    if (!bytes) return;
    const ops = parseContent(bytes);
    const drop = interpret(doc, ops, ctx, inTarget, markInCheck, (xref, xs, m, res) => run(xref, xs, { ctm: m, res }));
    if (drop.size) edits.set(key, { ref, stream, bytes, ops, drop });
  };
  const res = pageResources(doc, page);
  for (const { ref, stream } of pageContents(doc, page)) run(ref, stream, { ctm: [1, 0, 0, 1, 0, 0], res });
  let n = 0;
  for (const e of edits.values()) { replaceStream(doc, e.ref, e.stream, rewriteContent(e.bytes, e.ops, e.drop)); n += e.drop.size; }
  return n;
}

const PATH_OPS = new Set(['m', 'l', 'c', 'v', 'y', 'h', 're']);
const PAINT_OPS = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'n']);

function interpret(
  doc: PDFDocument, ops: ContentOp[], ctx: Ctx,
  inTarget: (x: number, y: number) => boolean,
  markInCheck: (p: [number, number], q: [number, number]) => boolean,
  recurse: (ref: PDFRef, s: PDFStream, m: Matrix, res: PDFDict | undefined) => void,
): Map<number, string> {
  const drop = new Map<number, string>();
  let ctm = ctx.ctm;
  let ts: TextState = { tfs: 0, th: 1, tc: 0, tw: 0, tl: 0, ts: 0, twoByte: false };
  let tm: Matrix = [1, 0, 0, 1, 0, 0], tlm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: { ctm: Matrix; ts: TextState }[] = [];
  let path: { idx: number[]; pts: [number, number][]; clip: boolean } = { idx: [], pts: [], clip: false };
  const fonts = lookupDict(doc, ctx.res, 'Font'), xobjects = lookupDict(doc, ctx.res, 'XObject');
  const show = (k: ContentOp, strs: Operand[], replacement: string) => {
    const [x, y] = applyMatrix(multiply(ctm, tm), 0.25 * ts.tfs, ts.ts + 0.3 * ts.tfs);
    const bytes = strs.flatMap((s) => (isString(s) ? [...s.str] : []));
    const leader = bytes.length > 0 && !ts.twoByte && bytes.every((b) => b === 0x5f || b === 0x2e || b === 0x20);
    if (!leader && bytes.length && inTarget(x, y)) drop.set(ops.indexOf(k), replacement);
    let adv = 0;
    for (const s of strs) {
      if (typeof s === 'number') adv -= (s / 1000) * ts.tfs;
      else if (isString(s)) {
        const n = ts.twoByte ? s.str.length / 2 : s.str.length;
        const spaces = ts.twoByte ? 0 : [...s.str].filter((b) => b === 0x20).length;
        adv += n * (0.5 * ts.tfs + ts.tc) + spaces * ts.tw;
      }
    }
    tm = multiply(tm, [1, 0, 0, 1, adv * ts.th, 0]);
  };
  const nextLine = () => { tlm = multiply(tlm, [1, 0, 0, 1, 0, -ts.tl]); tm = tlm; };
  ops.forEach((o, k) => {
    const a = o.args;
    switch (o.op) {
      case 'q': stack.push({ ctm, ts: { ...ts } }); break;
      case 'Q': { const s = stack.pop(); if (s) { ctm = s.ctm; ts = s.ts; } break; }
      case 'cm': ctm = multiply(ctm, a.map((x) => numberOf(x)) as Matrix); break;
      case 'BT': tm = [1, 0, 0, 1, 0, 0]; tlm = tm; break;
      case 'Tm': tm = a.map((x) => numberOf(x)) as Matrix; tlm = tm; break;
      case 'Td': tlm = multiply(tlm, [1, 0, 0, 1, numberOf(a[0]), numberOf(a[1])]); tm = tlm; break;
      case 'TD': ts.tl = -numberOf(a[1]); tlm = multiply(tlm, [1, 0, 0, 1, numberOf(a[0]), numberOf(a[1])]); tm = tlm; break;
      case 'T*': nextLine(); break;
      case 'TL': ts.tl = numberOf(a[0]); break;
      case 'Tc': ts.tc = numberOf(a[0]); break;
      case 'Tw': ts.tw = numberOf(a[0]); break;
      case 'Tz': ts.th = numberOf(a[0]) / 100; break;
      case 'Ts': ts.ts = numberOf(a[0]); break;
      case 'Tf': {
        ts.tfs = numberOf(a[1]);
        const f = isName(a[0]) && fonts ? doc.context.lookup(fonts.get(PDFName.of(a[0].name))) : undefined;
        ts.twoByte = f instanceof PDFDict && f.get(PDFName.of('Subtype'))?.toString() === '/Type0';
        break;
      }
      case 'Tj': show(o, [a[0]], '() Tj'); break;
      case 'TJ': show(o, Array.isArray(a[0]) ? a[0] : [], '[] TJ'); break;
      case "'": nextLine(); show(o, [a[0]], "() '"); break;
      case '"': ts.tw = numberOf(a[0]); ts.tc = numberOf(a[1]); nextLine(); show(o, [a[2]], `${numberOf(a[0])} ${numberOf(a[1])} () "`); break;
      case 'Do': {
        if (!isName(a[0]) || a[0].name.startsWith(OVERLAY_PREFIX) || !xobjects) break;
        const ref = xobjects.get(PDFName.of(a[0].name));
        const xs = ref instanceof PDFRef ? doc.context.lookup(ref) : undefined;
        if (!(ref instanceof PDFRef) || !(xs instanceof PDFStream) || xs.dict.get(PDFName.of('Subtype'))?.toString() !== '/Form') break;
        const mArr = xs.dict.lookup(PDFName.of('Matrix'));
        const m = mArr && 'asArray' in mArr ? ((mArr as unknown as { asArray(): { asNumber?: () => number }[] }).asArray().map((x) => x.asNumber?.() ?? 0) as Matrix) : ([1, 0, 0, 1, 0, 0] as Matrix);
        const res = lookupDict(doc, xs.dict, 'Resources') ?? ctx.res;
        recurse(ref, xs, multiply(ctm, m), res);
        break;
      }
      default:
        if (PATH_OPS.has(o.op)) {
          path.idx.push(k);
          const nums = a.map((x) => numberOf(x));
          if (o.op === 're') path.pts.push([nums[0], nums[1]], [nums[0] + nums[2], nums[1] + nums[3]]);
          else for (let p = 0; p + 1 < nums.length; p += 2) path.pts.push([nums[p], nums[p + 1]]);
        } else if (o.op === 'W' || o.op === 'W*') path.clip = true;
        else if (PAINT_OPS.has(o.op)) {
          if (!path.clip && path.pts.length && o.op !== 'n') {
            const user = path.pts.map(([x, y]) => applyMatrix(ctm, x, y));
            const xs = user.map((p) => p[0]), ys = user.map((p) => p[1]);
            const small = Math.max(...xs) - Math.min(...xs) < 20 && Math.max(...ys) - Math.min(...ys) < 20;
            if (small && markInCheck([Math.min(...xs), Math.min(...ys)], [Math.max(...xs), Math.max(...ys)])) {
              for (const i of [...path.idx, k]) drop.set(i, '');
            }
          }
          path = { idx: [], pts: [], clip: false };
        }
    }
  });
  return drop;
}
