import { QuireError } from '@quire/core';
import { parseXmlOrdered, type XmlNode } from './xml.js';

/**
 * A small element tree over fast-xml-parser's ordered output, for parts where child order matters
 * (slide shape trees, text runs, chart plot areas). Lookups go by LOCAL name, so a writer that picks
 * other namespace prefixes (`x:`, `ns0:`) reads the same.
 */
export interface XEl {
  /** Qualified name as written (`p:sp`). */
  name: string;
  /** Name without the prefix (`sp`). */
  local: string;
  attrs: Record<string, string>;
  children: XEl[];
  /** Text content directly inside this element (concatenated text nodes). */
  text: string;
}

const localOf = (name: string) => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};

/** Parses a part into its root element. Throws FILE_003 on malformed XML, a DOCTYPE, or nesting past maxDepth. */
export function parseXmlTree(xml: string, name = 'part', maxDepth = 256): XEl {
  let nodes: XmlNode[];
  try {
    nodes = parseXmlOrdered(xml, name);
  } catch (e) {
    if ((e as { name?: string }).name === 'QuireError') throw e;
    throw new QuireError('FILE_003', `File corrupted: ${name} is not well-formed XML`, { part: name, reason: (e as Error).message });
  }
  const root = nodes.map((n) => convert(n, 0, maxDepth, name)).find((e): e is XEl => e !== null && !e.name.startsWith('?'));
  if (!root) throw new QuireError('FILE_003', `File corrupted: ${name} has no root element`, { part: name });
  return root;
}

function convert(node: XmlNode, depth: number, maxDepth: number, part: string): XEl | null {
  if (depth > maxDepth) {
    throw new QuireError('FILE_003', `Refused ${part}: XML nested deeper than ${maxDepth} levels`, { part, reason: 'xml_depth_limit' });
  }
  const tag = Object.keys(node).find((k) => k !== ':@');
  if (tag === undefined || tag === '#text') return null;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, unknown>;
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(rawAttrs)) attrs[k.startsWith('@_') ? k.slice(2) : k] = String(v);
  const el: XEl = { name: tag, local: localOf(tag), attrs, children: [], text: '' };
  const kids = node[tag];
  if (Array.isArray(kids)) {
    for (const k of kids as XmlNode[]) {
      if (k['#text'] !== undefined) el.text += String(k['#text']);
      else {
        const c = convert(k, depth + 1, maxDepth, part);
        if (c) el.children.push(c);
      }
    }
  }
  return el;
}

/** First child with this local name. */
export const xChild = (el: XEl | undefined, local: string): XEl | undefined => el?.children.find((c) => c.local === local);

/** All children with this local name. */
export const xChildren = (el: XEl | undefined, local: string): XEl[] => (el ? el.children.filter((c) => c.local === local) : []);

/** Follows a path of local names through first children: xPath(sp, 'spPr', 'xfrm', 'off'). */
export function xPath(el: XEl | undefined, ...locals: string[]): XEl | undefined {
  let cur = el;
  for (const l of locals) cur = xChild(cur, l);
  return cur;
}

/** Attribute by exact name, else by local name (so `r:id` matches whatever the relationships prefix is). */
export function xAttr(el: XEl | undefined, name: string): string | undefined {
  if (!el) return undefined;
  if (el.attrs[name] !== undefined) return el.attrs[name];
  const local = localOf(name);
  if (local === name) return undefined;
  for (const [k, v] of Object.entries(el.attrs)) if (k.includes(':') && localOf(k) === local && !k.startsWith('xmlns')) return v;
  return undefined;
}

/** Depth-first descendants with this local name (not descending into matches). */
export function xFindAll(el: XEl | undefined, local: string, out: XEl[] = []): XEl[] {
  if (!el) return out;
  for (const c of el.children) {
    if (c.local === local) out.push(c);
    else xFindAll(c, local, out);
  }
  return out;
}
