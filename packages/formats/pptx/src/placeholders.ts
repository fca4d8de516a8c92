import { xAttr, xChild, xFindAll, xPath, type XEl } from '@quire/format-ooxml';
import { readXfrm, type Rect } from './geometry.js';
import type { PackageReader } from './package-reader.js';

export interface PlaceholderRef { type: string; idx?: string }

interface PhInfo extends PlaceholderRef { rect?: Rect; lstStyle?: XEl }

/** What a slide shape inherits from its layout and master placeholders. */
export interface Inherited { rect?: Rect; lstStyles: XEl[] }

export const TITLE_TYPES = new Set(['title', 'ctrTitle']);
const FOOTER_TYPES = new Set(['dt', 'ftr', 'sldNum', 'hdr']);

/** `p:nvPr/p:ph` of a shape: type defaults to "obj" (a content placeholder) when only idx is given. */
export function placeholderOf(shape: XEl): PlaceholderRef | undefined {
  const nv = shape.children.find((c) => c.local.startsWith('nv'));
  const ph = xPath(nv, 'nvPr', 'ph');
  if (!ph) return undefined;
  return { type: xAttr(ph, 'type') ?? 'obj', idx: xAttr(ph, 'idx') };
}

/** Placeholders that hold body text (bulleted by the master's body style). */
const isBodyPlaceholder = (ph: PlaceholderRef | undefined) =>
  !!ph && !TITLE_TYPES.has(ph.type) && ph.type !== 'subTitle' && !FOOTER_TYPES.has(ph.type) && ph.type !== 'pic' && ph.type !== 'chart' && ph.type !== 'tbl';

function placeholders(tree: XEl | undefined): PhInfo[] {
  const spTree = xPath(tree, 'cSld', 'spTree');
  const out: PhInfo[] = [];
  for (const sp of spTree?.children ?? []) {
    const ph = placeholderOf(sp);
    if (!ph) continue;
    const spPr = sp.children.find((c) => c.local === 'spPr');
    out.push({ ...ph, rect: readXfrm(xChild(spPr, 'xfrm')), lstStyle: xPath(sp, 'txBody', 'lstStyle') });
  }
  return out;
}

const sameKind = (a: string, b: string) => a === b || (TITLE_TYPES.has(a) && TITLE_TYPES.has(b));
const masterType = (t: string) => (TITLE_TYPES.has(t) ? 'title' : FOOTER_TYPES.has(t) ? t : 'body');

function matchLayout(list: PhInfo[], ph: PlaceholderRef): PhInfo | undefined {
  if (ph.idx !== undefined) {
    const byIdx = list.find((p) => p.idx === ph.idx);
    if (byIdx) return byIdx;
  }
  return list.find((p) => sameKind(p.type, ph.type));
}

/** Resolves placeholder geometry and list styles for one slide (layout first, then master). */
export class PlaceholderResolver {
  private constructor(private layout: PhInfo[], private master: PhInfo[], private bodyStyle?: XEl, private titleStyle?: XEl) {}

  static async forSlide(pkg: PackageReader, slidePart: string): Promise<PlaceholderResolver> {
    const layoutPart = await pkg.relOfType(slidePart, 'slideLayout');
    const masterPart = layoutPart ? await pkg.relOfType(layoutPart, 'slideMaster') : undefined;
    const layout = layoutPart ? await pkg.tree(layoutPart) : undefined;
    const master = masterPart ? await pkg.tree(masterPart) : undefined;
    const txStyles = xChild(master, 'txStyles');
    return new PlaceholderResolver(placeholders(layout), placeholders(master), xChild(txStyles, 'bodyStyle'), xChild(txStyles, 'titleStyle'));
  }

  resolve(ph: PlaceholderRef | undefined): Inherited {
    if (!ph) return { lstStyles: [] };
    const l = matchLayout(this.layout, ph);
    const mType = masterType(l?.type ?? ph.type);
    const m = this.master.find((p) => p.type === mType || sameKind(p.type, mType));
    const lstStyles = [l?.lstStyle, m?.lstStyle, TITLE_TYPES.has(ph.type) ? this.titleStyle : isBodyPlaceholder(ph) ? this.bodyStyle : undefined]
      .filter((x): x is XEl => !!x);
    return { rect: l?.rect ?? m?.rect, lstStyles };
  }
}

/** Texts of a notes slide's body placeholder (the speaker notes), one line per paragraph. */
export function notesText(tree: XEl | undefined): string | undefined {
  const spTree = xPath(tree, 'cSld', 'spTree');
  const lines: string[] = [];
  for (const sp of xFindAll(spTree, 'sp')) {
    if (placeholderOf(sp)?.type !== 'body') continue;
    for (const p of xFindAll(xChild(sp, 'txBody'), 'p')) {
      lines.push(xFindAll(p, 't').map((t) => t.text).join(''));
    }
  }
  const text = lines.join('\n').trim();
  return text || undefined;
}
