import { XMLParser } from 'fast-xml-parser';
import { QuireError } from '@quire/core';

/**
 * XML parsing for untrusted OOXML parts. A DOCTYPE is refused outright: OOXML never needs one, and
 * refusing it rules out external entities and billion-laughs expansion. Entity processing is off
 * beyond the five predefined XML entities and numeric references.
 */
const DOCTYPE = /<!DOCTYPE/i;

export type XmlNode = Record<string, unknown>;

/** Ordered parse (preserveOrder): keeps document order of mixed children (runs, breaks, tabs). */
export function parseXmlOrdered(xml: string, name = 'part'): XmlNode[] {
  assertNoDoctype(xml, name);
  const parser = new XMLParser({
    preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '@_', trimValues: false,
    processEntities: true, htmlEntities: false, parseTagValue: false, parseAttributeValue: false,
  });
  return parser.parse(xml) as XmlNode[];
}

/** Object parse for parts where order does not matter (rels, styles, chart caches). `arrays` names the repeating elements. */
export function parseXml(xml: string, arrays: readonly string[] = [], name = 'part'): XmlNode {
  assertNoDoctype(xml, name);
  const set = new Set(arrays);
  const parser = new XMLParser({
    ignoreAttributes: false, attributeNamePrefix: '@_', trimValues: true, processEntities: true,
    htmlEntities: false, parseTagValue: false, parseAttributeValue: false,
    isArray: (tag) => set.has(tag),
  });
  return parser.parse(xml) as XmlNode;
}

function assertNoDoctype(xml: string, name: string): void {
  if (DOCTYPE.test(xml.slice(0, 4096)) || DOCTYPE.test(xml)) {
    throw new QuireError('FILE_003', `Refused ${name}: XML with a DOCTYPE (entities are not processed in uploads)`, { reason: 'xml_doctype' });
  }
}

/** Resolves a relationship target against the part that owns the .rels file. */
export function resolveTarget(ownerPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const base = ownerPart.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') base.pop();
    else if (seg !== '.') base.push(seg);
  }
  return base.join('/');
}

/** Reads `<part dir>/_rels/<part name>.rels` into id → {target, type, external}. */
export function parseRels(xml: string | undefined, ownerPart: string): Map<string, { target: string; type: string; external: boolean }> {
  const out = new Map<string, { target: string; type: string; external: boolean }>();
  if (!xml) return out;
  const doc = parseXml(xml, ['Relationship'], 'relationships');
  const rels = ((doc.Relationships as XmlNode | undefined)?.Relationship ?? []) as XmlNode[];
  for (const r of rels) {
    const external = r['@_TargetMode'] === 'External';
    const target = String(r['@_Target'] ?? '');
    out.set(String(r['@_Id']), { target: external ? target : resolveTarget(ownerPart, target), type: String(r['@_Type'] ?? ''), external });
  }
  return out;
}

export const relsPathFor = (part: string) => {
  const parts = part.split('/');
  const file = parts.pop();
  return [...parts, '_rels', `${file}.rels`].join('/');
};
