import type { DefaultTreeAdapterMap } from 'parse5';

export type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['parentNode'];
export type El = DefaultTreeAdapterMap['element'];

export const isElement = (n: Node): n is El => 'tagName' in n;
export const attr = (el: El, name: string) => el.attrs.find((a) => a.name === name)?.value;
export const children = (n: Node): Node[] => ('childNodes' in n ? n.childNodes : []);

/** Whether any node lies deeper than `max` levels below `root`; walks with its own stack, so any depth is safe to ask about. */
export function nestedDeeperThan(root: Node, max: number): boolean {
  const stack: [Node, number][] = [[root, 0]];
  while (stack.length) {
    const [n, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const c of children(n)) stack.push([c, depth + 1]);
  }
  return false;
}

/** Elements whose content is never document text. */
export const DROPPED = new Set([
  'script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'iframe', 'object', 'embed',
  'svg', 'math', 'canvas', 'select', 'option', 'datalist', 'button', 'audio', 'video', 'map', 'dialog',
]);

/** Hidden by the hidden attribute, aria-hidden, an inline display:none / visibility:hidden, or a hidden input. */
export function isHidden(el: El): boolean {
  if (attr(el, 'hidden') !== undefined) return true;
  if (attr(el, 'aria-hidden') === 'true') return true;
  if (el.tagName === 'input' && attr(el, 'type')?.toLowerCase() === 'hidden') return true;
  const style = attr(el, 'style')?.toLowerCase().replace(/\s+/g, '');
  return !!style && /(^|;)(display:none|visibility:hidden)/.test(style);
}

export function* descendants(n: Node): Generator<El> {
  for (const c of children(n)) {
    if (!isElement(c)) continue;
    yield c;
    yield* descendants(c);
  }
}

export function findFirst(n: Node, pred: (el: El) => boolean): El | undefined {
  for (const el of descendants(n)) if (pred(el)) return el;
  return undefined;
}

/** Visible text length under a node (dropped and hidden subtrees excluded), for main-content choice. */
export function textLength(n: Node): number {
  let len = 0;
  for (const c of children(n)) {
    if (c.nodeName === '#text') len += (c as DefaultTreeAdapterMap['textNode']).value.replace(/\s+/g, ' ').trim().length;
    else if (isElement(c) && !DROPPED.has(c.tagName) && !isHidden(c)) len += textLength(c);
  }
  return len;
}
