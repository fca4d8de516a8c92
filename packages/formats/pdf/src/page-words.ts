import { type MarkedContentReader, alignActualText, needsMarkedContent } from './actualtext.js';
import type { Matrix } from './matrix.js';
import { type PDFPageProxy, loadPdfjs } from './pdfjs.js';
import { recoverGuessedFonts } from './embedded-cmap.js';
import { type FlaggedWord, type FontLike, extractWords, fontsWithGuessedMapping } from './text.js';
import type { OperatorListLike } from './painting.js';

export interface PageWordsOptions {
  /** User space → the frame's points: the page as displayed, or turned (the reading frame of sideways text). */
  viewport: Matrix;
  width: number;
  height: number;
  /** Marked-content tags whose words come back `flagged` (see TextContext.flagTags). */
  flagTags?: ReadonlySet<string>;
  /**
   * The document's marked content, for replacement text (/ActualText) as readPdf applies it, and its pdf-lib
   * view, for the text of fonts without a character map (embedded-cmap.ts); none: glyphs as pdf.js reads them.
   */
  markedContent?: MarkedContentReader;
}

/**
 * The words of a page whose operator list the caller already has (asked for with annotations left out),
 * built glyph by glyph as readPdf builds them (text.ts), in the frame `opts` gives. For callers that read
 * a page's drawing themselves, such as forms.
 */
export async function readPageWords(page: PDFPageProxy, ops: OperatorListLike, opts: PageWordsOptions): Promise<FlaggedWord[]> {
  const { OPS } = await loadPdfjs();
  const OPS_ = OPS as unknown as Record<string, number>;
  const actualText = opts.markedContent && needsMarkedContent(ops, OPS_)
    ? alignActualText(ops, OPS_, (await opts.markedContent.spans(page.pageNumber).catch(() => undefined)) ?? [])
    : undefined;
  const font = (loadedName: string) => (page.commonObjs.has(loadedName) ? (page.commonObjs.get(loadedName) as FontLike) : undefined);
  const recovered = opts.markedContent ? await recoverGuessedFonts(opts.markedContent, page.pageNumber, fontsWithGuessedMapping(ops, OPS_, font)) : undefined;
  return extractWords(ops, OPS_, {
    viewport: opts.viewport, pageWidth: opts.width, pageHeight: opts.height, font, flagTags: opts.flagTags, actualText,
    recoveredText: recovered && ((name) => recovered.get(name)),
  });
}
