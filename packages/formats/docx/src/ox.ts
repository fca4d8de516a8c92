import type { XmlNode } from '@quire/format-ooxml';

/**
 * Helpers over fast-xml-parser's ordered output ({tag: children[], ':@': attrs}). Names are compared
 * by local name (prefix dropped), so a document that binds WordprocessingML to another prefix reads
 * the same; attributes likewise.
 */
export type X = XmlNode;

export const local = (name: string) => name.slice(name.indexOf(':') + 1);
export const tagOf = (n: X): string => { for (const k in n) if (k !== ':@') return k; return ''; };
export const nameOf = (n: X) => local(tagOf(n));
export const kids = (n: X): X[] => { const v = n[tagOf(n)]; return Array.isArray(v) ? (v as X[]) : []; };
const isText = (n: X) => tagOf(n) === '#text';

export function attr(n: X, name: string): string | undefined {
  const a = n[':@'] as Record<string, unknown> | undefined;
  if (!a) return undefined;
  for (const k in a) if (local(k.slice(2)) === name) return String(a[k]);
  return undefined;
}

export const child = (n: X, name: string): X | undefined => kids(n).find((k) => nameOf(k) === name);
export const childrenNamed = (n: X, name: string): X[] => kids(n).filter((k) => nameOf(k) === name);
export const path = (n: X | undefined, ...names: string[]): X | undefined => {
  let cur = n;
  for (const name of names) cur = cur && child(cur, name);
  return cur;
};
export const val = (n: X | undefined) => (n ? attr(n, 'val') : undefined);
/** OOXML on/off properties: present without val, or val true/1/on. */
export const isOn = (n: X | undefined) => !!n && !['0', 'false', 'off'].includes((attr(n, 'val') ?? 'true').toLowerCase());
export const innerText = (n: X): string => kids(n).map((k) => (isText(k) ? String(k['#text'] ?? '') : '')).join('');

export function* descendantsNamed(n: X, name: string): Generator<X> {
  for (const k of kids(n)) {
    if (nameOf(k) === name) yield k;
    yield* descendantsNamed(k, name);
  }
}

/** The root element of a parsed part (skipping the XML declaration). */
export const rootOf = (doc: X[]): X | undefined => doc.find((n) => !tagOf(n).startsWith('?') && !isText(n));
