import { parseXml, type XmlNode } from '@quire/format-ooxml';

export interface StyleInfo {
  name: string;
  basedOn?: string;
  outlineLvl?: number;
  numId?: string;
  ilvl?: number;
}

export type Styles = Map<string, StyleInfo>;

const v = (n: unknown): string | undefined => (n && typeof n === 'object' ? ((n as XmlNode)['@_w:val'] as string | undefined) : undefined);

export function readStyles(xml: string | undefined): Styles {
  const out: Styles = new Map();
  if (!xml) return out;
  const doc = parseXml(xml, ['w:style'], 'styles');
  const styles = ((doc['w:styles'] as XmlNode | undefined)?.['w:style'] ?? []) as XmlNode[];
  for (const s of styles) {
    const id = s['@_w:styleId'] as string | undefined;
    if (!id) continue;
    const ppr = s['w:pPr'] as XmlNode | undefined;
    const numPr = ppr?.['w:numPr'] as XmlNode | undefined;
    const outline = v(ppr?.['w:outlineLvl']);
    out.set(id, {
      name: v(s['w:name']) ?? id,
      basedOn: v(s['w:basedOn']),
      outlineLvl: outline !== undefined ? Number(outline) : undefined,
      numId: v(numPr?.['w:numId']),
      ilvl: v(numPr?.['w:ilvl']) !== undefined ? Number(v(numPr?.['w:ilvl'])) : undefined,
    });
  }
  return out;
}

/** Walks a style and its basedOn chain (cycle-safe), nearest first. */
function* styleChain(styles: Styles, id: string | undefined): Generator<StyleInfo & { id: string }> {
  const seen = new Set<string>();
  while (id && !seen.has(id)) {
    seen.add(id);
    const s = styles.get(id);
    if (!s) return;
    yield { ...s, id };
    id = s.basedOn;
  }
}

export type HeadingKind = { kind: 'title' } | { kind: 'heading'; level: number } | { kind: 'caption' } | undefined;

/**
 * What a paragraph style makes of a paragraph: the built-in Title / Heading 1..9 styles (by name or
 * id, through basedOn), an outline level set on the style, or the Caption style.
 */
export function headingOfStyle(styles: Styles, id: string | undefined): HeadingKind {
  for (const s of styleChain(styles, id)) {
    const name = s.name.toLowerCase().replace(/\s+/g, '');
    if (name === 'title' || s.id.toLowerCase() === 'title') return { kind: 'title' };
    const m = /^heading([1-9])$/.exec(name) ?? /^heading([1-9])$/i.exec(s.id);
    if (m) return { kind: 'heading', level: Number(m[1]) };
    if (s.outlineLvl !== undefined && s.outlineLvl >= 0 && s.outlineLvl < 9) return { kind: 'heading', level: s.outlineLvl + 1 };
    if (name === 'caption') return { kind: 'caption' };
  }
  return undefined;
}

export function numberingOfStyle(styles: Styles, id: string | undefined): { numId: string; ilvl: number } | undefined {
  for (const s of styleChain(styles, id)) if (s.numId !== undefined) return { numId: s.numId, ilvl: s.ilvl ?? 0 };
  return undefined;
}
