import type { Element, TextElement } from '@quire/core';

/** A document without a Title-styled paragraph: its first level-1 heading is the title (as in HTML). */
export function promoteTitle(elements: Element[]): void {
  const texts = elements.filter((e): e is TextElement => e.kind === 'text' && !e.extra?.running);
  if (texts.some((e) => e.category === 'Title')) return;
  const first = texts.find((e) => e.category === 'Header' && e.level === 1);
  if (first) first.category = 'Title';
}

/**
 * Ties Caption-style paragraphs to what they describe: the figure just before (Word puts figure
 * captions below), else the table just after (table captions go above), else the table just before.
 * Returns caption → target; ids are filled in once assigned.
 */
export function linkCaptions(elements: Element[]): Map<TextElement, Element> {
  const out = new Map<TextElement, Element>();
  elements.forEach((el, i) => {
    if (el.kind !== 'text' || el.category !== 'caption') return;
    const prev = elements[i - 1], next = elements[i + 1];
    const target = prev?.kind === 'figure' ? prev : next?.kind === 'table' ? next : prev?.kind === 'table' ? prev : undefined;
    if (!target) return;
    out.set(el, target);
    if (target.kind === 'figure') target.caption = el.text;
  });
  return out;
}
