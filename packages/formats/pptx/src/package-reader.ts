import { QuireError, type ParseLimits } from '@quire/core';
import { openSafeZip, parseRels, parseXmlTree, relsPathFor, type SafeZip, type XEl } from '@quire/format-ooxml';

export type Rels = ReturnType<typeof parseRels>;

/** Cached access to the parts of one package: parsed trees and relationships, read once each. */
export class PackageReader {
  private trees = new Map<string, Promise<XEl | undefined>>();
  private rels = new Map<string, Promise<Rels>>();
  private constructor(readonly zip: SafeZip, readonly limits: ParseLimits) {}

  static async open(bytes: Uint8Array, limits: ParseLimits): Promise<PackageReader> {
    return new PackageReader(await openSafeZip(bytes, limits), limits);
  }

  tree(part: string): Promise<XEl | undefined> {
    let p = this.trees.get(part);
    if (!p) {
      p = this.zip.text(part).then((xml) => (xml === undefined ? undefined : parseXmlTree(xml, part, this.limits.maxXmlDepth)));
      this.trees.set(part, p);
    }
    return p;
  }

  async requireTree(part: string): Promise<XEl> {
    const t = await this.tree(part);
    if (!t) throw new QuireError('FILE_003', `File corrupted: missing part ${part}`, { part });
    return t;
  }

  relsOf(part: string): Promise<Rels> {
    let p = this.rels.get(part);
    if (!p) {
      p = this.zip.text(relsPathFor(part)).then((xml) => parseRels(xml, part));
      this.rels.set(part, p);
    }
    return p;
  }

  /** Target of the first relationship of a type (matched on the type URI's last segment). */
  async relOfType(part: string, type: string): Promise<string | undefined> {
    for (const r of (await this.relsOf(part)).values()) if (!r.external && r.type.endsWith(`/${type}`)) return r.target;
    return undefined;
  }

  async relTarget(part: string, id: string | undefined): Promise<string | undefined> {
    if (!id) return undefined;
    const r = (await this.relsOf(part)).get(id);
    return r && !r.external ? r.target : undefined;
  }
}

const MIME: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', jpe: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp',
  tif: 'image/tiff', tiff: 'image/tiff', emf: 'image/emf', wmf: 'image/wmf', svg: 'image/svg+xml', webp: 'image/webp',
};

export const mimeOf = (part: string) => MIME[part.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
