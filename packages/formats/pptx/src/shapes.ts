import { xAttr, xChild, xPath, type XEl } from '@quire/format-ooxml';
import { groupTransform, identity, readXfrm, type Rect, type Transform } from './geometry.js';
import { placeholderOf, type PlaceholderRef, type PlaceholderResolver } from './placeholders.js';

export type ShapeKind = 'text' | 'table' | 'picture' | 'chart' | 'diagram' | 'chartex';

/** A leaf of the shape tree, flattened out of its groups, in z-order, with its box in slide EMU. */
export interface Shape {
  kind: ShapeKind;
  name: string;
  z: number;
  rect?: Rect;
  ph?: PlaceholderRef;
  el: XEl;
  /** Relationship id of the part behind a picture, chart or diagram. */
  relId?: string;
  /** Alt text (cNvPr descr). */
  descr?: string;
}

const nvProps = (el: XEl) => xChild(el.children.find((c) => c.local.startsWith('nv')), 'cNvPr');

/** Flattens a shape tree (p:spTree or a group) into leaves, applying group transforms and placeholder geometry. */
export function collectShapes(spTree: XEl | undefined, resolver: PlaceholderResolver): Shape[] {
  const out: Shape[] = [];
  walk(spTree, identity, resolver, out, 0);
  return out;
}

function walk(parent: XEl | undefined, tf: Transform, resolver: PlaceholderResolver, out: Shape[], depth: number): void {
  if (!parent || depth > 64) return;
  for (const el of parent.children) {
    switch (el.local) {
      case 'grpSp':
        walk(el, groupTransform(xPath(el, 'grpSpPr', 'xfrm'), tf), resolver, out, depth + 1);
        break;
      case 'AlternateContent': {
        const before = out.length;
        walk(xChild(el, 'Choice'), tf, resolver, out, depth + 1);
        if (out.length === before) walk(xChild(el, 'Fallback'), tf, resolver, out, depth + 1);
        break;
      }
      case 'sp': case 'pic': case 'graphicFrame': {
        const s = leaf(el, tf, resolver, out.length);
        if (s) out.push(s);
        break;
      }
      default: break;
    }
  }
}

function leaf(el: XEl, tf: Transform, resolver: PlaceholderResolver, z: number): Shape | undefined {
  const cNvPr = nvProps(el);
  const ph = placeholderOf(el);
  const xfrm = el.local === 'graphicFrame' ? xChild(el, 'xfrm') : xPath(el, 'spPr', 'xfrm');
  const own = readXfrm(xfrm);
  const rect = own ? tf(own) : ph ? resolver.resolve(ph).rect : undefined;
  const base = { name: xAttr(cNvPr, 'name') ?? '', z, rect, ph, el, descr: xAttr(cNvPr, 'descr') || undefined };
  if (el.local === 'sp') return xChild(el, 'txBody') ? { ...base, kind: 'text' } : undefined;
  if (el.local === 'pic') {
    const blip = xPath(el, 'blipFill', 'blip');
    return { ...base, kind: 'picture', relId: xAttr(blip, 'r:embed') };
  }
  const data = xPath(el, 'graphic', 'graphicData');
  const uri = xAttr(data, 'uri') ?? '';
  if (xChild(data, 'tbl')) return { ...base, kind: 'table' };
  const chart = xChild(data, 'chart');
  if (chart && uri.endsWith('/chartex')) return { ...base, kind: 'chartex', relId: xAttr(chart, 'r:id') };
  if (chart) return { ...base, kind: 'chart', relId: xAttr(chart, 'r:id') };
  const rel = xChild(data, 'relIds');
  if (rel && uri.includes('diagram')) return { ...base, kind: 'diagram', relId: xAttr(rel, 'r:dm') };
  return undefined;
}
