import type { PDFDict, PDFDocument } from 'pdf-lib';
import type { MarkedContentReader } from './actualtext.js';
import { L, decodeStream, loadPdfLib } from './pdf-lib-objects.js';

/**
 * Text for fonts whose PDF gives none: a composite (Type0) font with an Identity encoding and no
 * ToUnicode draws glyph ids, and readers take each id for a character (pdf.js's identity guess,
 * pdftotext alike) — "Vláda" reads "9O¡GD". When the font program is embedded as TrueType (FontFile2)
 * with its own character map (cmap table: character → glyph), that map read backwards gives each glyph
 * its character, exactly: code → CID (Identity) → glyph id (CIDToGIDMap) → character.
 * A subset font without a cmap table, or a CFF font, gives nothing here (the page is then checked by
 * OCR, page.ts). Mappings are per font name, as words carry it (RawWord.fontName, subset tag removed).
 */
export interface CodeText { get(code: number): string | undefined }

/** fontkit, imported on first need (a large module most documents never use). */
type Fontkit = typeof import('@pdf-lib/fontkit');
let fontkit: Fontkit | undefined;

const SUBSET_TAG = /^[A-Z]{6}\+/;
const MAX_FORM_DEPTH = 4;

/**
 * Recovered text of the page's fonts named in `names` (those whose mapping pdf.js guessed), through the
 * document's pdf-lib view, with one cache per document; undefined when there is nothing to recover or the
 * objects cannot be followed (the page keeps pdf.js's reading and its checks).
 */
export async function recoverGuessedFonts(reader: MarkedContentReader, pageNumber: number, names: ReadonlySet<string>): Promise<Map<string, CodeText> | undefined> {
  if (names.size === 0) return undefined;
  try {
    const doc = await reader.document();
    if (!doc) return undefined;
    await loadPdfLib();
    let cache = caches.get(reader);
    if (!cache) caches.set(reader, (cache = new Map()));
    return await embeddedCmapText(doc, pageNumber, names, cache);
  } catch {
    return undefined;
  }
}
const caches = new WeakMap<MarkedContentReader, Map<string, CodeText | null>>();

/** code → text of each font on the page (by name) whose text can be recovered from its embedded cmap. */
export async function embeddedCmapText(doc: PDFDocument, pageNumber: number, names: ReadonlySet<string>, cache: Map<string, CodeText | null>): Promise<Map<string, CodeText>> {
  if (!fontkit) {
    const m = await import('@pdf-lib/fontkit');
    fontkit = (m as { default?: Fontkit }).default ?? m; // a CommonJS module: its exports arrive as the default
  }
  const out = new Map<string, CodeText>();
  if (pageNumber < 1 || pageNumber > doc.getPageCount()) return out;
  const visit = (resources: PDFDict | undefined, depth: number, seen: Set<PDFDict>) => {
    if (!resources || seen.has(resources) || depth > MAX_FORM_DEPTH) return;
    seen.add(resources);
    const fonts = resources.lookupMaybe(L.PDFName.of('Font'), L.PDFDict);
    for (const [, ref] of fonts?.entries() ?? []) {
      const font = doc.context.lookup(ref);
      if (!(font instanceof L.PDFDict)) continue;
      const name = font.lookupMaybe(L.PDFName.of('BaseFont'), L.PDFName)?.decodeText().replace(SUBSET_TAG, '');
      if (!name || !names.has(name) || out.has(name)) continue;
      let map = cache.get(name);
      if (map === undefined) cache.set(name, (map = recoverFontText(font)));
      if (map) out.set(name, map);
    }
    // form XObjects draw with their own resources
    const xobjects = resources.lookupMaybe(L.PDFName.of('XObject'), L.PDFDict);
    for (const [, ref] of xobjects?.entries() ?? []) {
      const x = doc.context.lookup(ref);
      if (x instanceof L.PDFRawStream) visit(x.dict.lookupMaybe(L.PDFName.of('Resources'), L.PDFDict), depth + 1, seen);
    }
  };
  visit(doc.getPage(pageNumber - 1).node.Resources(), 0, new Set());
  return out;
}

/** code → text for one Type0 font dictionary, or null when it cannot be recovered. */
function recoverFontText(font: PDFDict): CodeText | null {
  try {
    const encoding = font.lookup(L.PDFName.of('Encoding'));
    if (!(encoding instanceof L.PDFName) || !['/Identity-H', '/Identity-V'].includes(encoding.asString())) return null;
    if (font.has(L.PDFName.of('ToUnicode'))) return null;
    const descendant = font.lookupMaybe(L.PDFName.of('DescendantFonts'), L.PDFArray)?.lookup(0);
    if (!(descendant instanceof L.PDFDict)) return null;
    const descriptor = descendant.lookupMaybe(L.PDFName.of('FontDescriptor'), L.PDFDict);
    const file = descriptor?.lookup(L.PDFName.of('FontFile2'));
    if (!(file instanceof L.PDFRawStream)) return null;
    const program = fontkit!.create(Buffer.from(decodeStream(file)));
    const glyphText = new Map<number, string>();
    // lowest code point first, so a glyph shared by several characters reads as the plainest one
    for (const cp of [...program.characterSet].sort((a, b) => a - b)) {
      if (cp < 0x20 || (cp >= 0xe000 && cp <= 0xf8ff)) continue; // controls and private use say nothing
      const gid = program.glyphForCodePoint(cp)?.id;
      if (gid && !glyphText.has(gid)) glyphText.set(gid, String.fromCodePoint(cp));
    }
    if (glyphText.size === 0) return null;
    const toGid = cidToGid(descendant);
    return { get: (code) => glyphText.get(toGid ? toGid[code] : code) };
  } catch {
    return null; // a font program fontkit cannot read (no cmap table, damaged): nothing recovered
  }
}

/** The CIDToGIDMap stream as an array (CID → glyph id); undefined for Identity or none. */
function cidToGid(descendant: PDFDict): Uint16Array | undefined {
  const map = descendant.lookup(L.PDFName.of('CIDToGIDMap'));
  if (!(map instanceof L.PDFRawStream)) return undefined;
  const bytes = decodeStream(map);
  const out = new Uint16Array(bytes.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (bytes[2 * i] << 8) | bytes[2 * i + 1];
  return out;
}
