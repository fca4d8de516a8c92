import fs from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { StandardFonts, type PDFDocument, type PDFFont } from 'pdf-lib';
import { standardFontFile } from '@quire/format-pdf';

/**
 * Fonts for values Quire writes. WinAnsi text uses Helvetica (no embedding needed); anything else
 * (Łódź, Cyrillic, Greek) uses an embedded, subsetted Unicode TrueType font: the caller's, or
 * Liberation Sans, which pdfjs-dist ships in its standard_fonts folder (a read-only library asset,
 * read once). Scripts Liberation Sans does not cover (CJK, Arabic…) need `fontBytes`.
 */
let liberation: Uint8Array | undefined;
export function defaultUnicodeFont(): Uint8Array {
  liberation ??= new Uint8Array(fs.readFileSync(standardFontFile('LiberationSans-Regular.ttf')));
  return liberation;
}

export class FontPicker {
  private helv?: PDFFont;
  private unicode?: PDFFont;
  constructor(private readonly doc: PDFDocument, private readonly fontBytes?: Uint8Array) {}

  /** A font that can encode `text`. */
  async for(text: string): Promise<PDFFont> {
    this.helv ??= await this.doc.embedFont(StandardFonts.Helvetica);
    if (canEncode(this.helv, text)) return this.helv;
    if (!this.unicode) {
      this.doc.registerFontkit(fontkit);
      this.unicode = await this.doc.embedFont(this.fontBytes ?? defaultUnicodeFont(), { subset: true });
    }
    return this.unicode;
  }
}

export function canEncode(font: PDFFont, text: string): boolean {
  try { font.encodeText(text); return true; } catch { return false; }
}

/** Characters the font has no glyph for are dropped rather than drawn as .notdef boxes. */
export function coverable(font: PDFFont, text: string): string {
  const set = font.getCharacterSet?.();
  if (!set || !set.length) return text;
  const ok = new Set(set);
  return [...text].filter((ch) => ch === '\n' || ok.has(ch.codePointAt(0)!)).join('');
}
