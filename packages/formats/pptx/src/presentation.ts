import { QuireError } from '@quire/core';
import { xAttr, xChild, xChildren } from '@quire/format-ooxml';
import type { PackageReader } from './package-reader.js';

export interface SlideRef {
  /** 1-based position in the presentation's slide list. */
  number: number;
  part: string;
}

export interface Presentation {
  part: string;
  /** Slide size in EMU. */
  width: number;
  height: number;
  slides: SlideRef[];
  warnings: string[];
}

/** Slide order comes from presentation.xml's sldIdLst (through its relationships), never from zip order. */
export async function readPresentation(pkg: PackageReader): Promise<Presentation> {
  const part = (await pkg.relOfType('', 'officeDocument')) ?? 'ppt/presentation.xml';
  const root = await pkg.tree(part);
  if (!root || root.local !== 'presentation') {
    throw new QuireError('FILE_003', 'File corrupted: no PowerPoint presentation part', { part });
  }
  const sz = xChild(root, 'sldSz');
  const width = Number(xAttr(sz, 'cx') ?? 9144000) || 9144000;
  const height = Number(xAttr(sz, 'cy') ?? 6858000) || 6858000;
  const warnings: string[] = [];
  const slides: SlideRef[] = [];
  for (const id of xChildren(xChild(root, 'sldIdLst'), 'sldId')) {
    const target = await pkg.relTarget(part, xAttr(id, 'r:id'));
    if (target && pkg.zip.has(target)) slides.push({ number: slides.length + 1, part: target });
    else warnings.push(`Slide ${slides.length + 1} points at a missing part; skipped`);
  }
  if (slides.length === 0 && !xChild(root, 'sldIdLst')) {
    // No slide list at all: fall back to the presentation's slide relationships in name order.
    const rels = [...(await pkg.relsOf(part)).values()].filter((r) => r.type.endsWith('/slide') && !r.external);
    const n = (s: string) => Number(/(\d+)\.xml$/.exec(s)?.[1] ?? 0);
    rels.sort((a, b) => n(a.target) - n(b.target)).forEach((r) => slides.push({ number: slides.length + 1, part: r.target }));
    if (slides.length) warnings.push('presentation.xml has no slide list; slides ordered by part name');
  }
  return { part, width, height, slides, warnings };
}
