import { type Document, type FigureElement, type ParseLimits, type SourceFormat, isQuireError } from '@quire/core';
import { openPdf, type PdfHandle } from '@quire/format-pdf';
import { cropImage } from '@quire/format-image';

/** Resolution of PDF figure crops: sharp enough to read labels, small enough to store per figure. */
const FIGURE_CROP_DPI = 150;

export interface FigureImage { bytes: Uint8Array; mime: 'image/png' | 'image/jpeg'; ext: 'png' | 'jpg' }

export type FigureImageResult = { figure: FigureElement; image: FigureImage } | { figure: FigureElement; error: string };

const IMAGE_FORMATS: readonly SourceFormat[] = ['png', 'jpeg', 'tiff'];

/**
 * The picture of every figure with an id, for figure_processing.show_images: the embedded bytes for
 * office and HTML pictures; for PDFs a render of the figure's region (pdf.js, FIGURE_CROP_DPI); for
 * PNG/JPEG/TIFF a crop of the page image at its own resolution. The source is read (loadSource) and
 * the PDF opened at most once. A figure that cannot be cropped gets an error instead and the others
 * go on (the spec's non-fatal render_error).
 */
export async function figureImages(doc: Document, format: SourceFormat, loadSource: () => Promise<Uint8Array>, options: { limits?: Partial<ParseLimits> } = {}): Promise<FigureImageResult[]> {
  const out: FigureImageResult[] = [];
  let source: Uint8Array | undefined;
  let pdf: PdfHandle | undefined;
  try {
    for (const page of doc.pages) {
      for (const el of page.elements) {
        if (el.kind !== 'figure' || !el.id) continue;
        if (el.image) {
          const ext = el.image.mime === 'image/jpeg' ? 'jpg' : el.image.mime === 'image/png' ? 'png' : undefined;
          if (ext) out.push({ figure: el, image: { bytes: el.image.bytes, mime: el.image.mime as FigureImage['mime'], ext } });
          else out.push({ figure: el, error: `Embedded picture of type ${el.image.mime} is not served (PNG and JPEG only)` });
          continue;
        }
        if (!el.box || !(el.box.x1 > el.box.x0 && el.box.y1 > el.box.y0)) continue; // nothing to crop (e.g. spreadsheet charts)
        if (format !== 'pdf' && !IMAGE_FORMATS.includes(format)) continue;
        try {
          source ??= await loadSource();
          let png: Uint8Array;
          if (format === 'pdf') {
            // pdf.js may take ownership of the buffer it is given: hand it a copy
            pdf ??= await openPdf(source.slice(), options);
            png = (await pdf.render(el.page, { dpi: FIGURE_CROP_DPI, box: el.box })).png;
          } else {
            png = (await cropImage(source, el.page, el.box, options)).png;
          }
          out.push({ figure: el, image: { bytes: png, mime: 'image/png', ext: 'png' } });
        } catch (e) {
          if (!isQuireError(e) && !(e instanceof Error)) throw e;
          out.push({ figure: el, error: `Figure image could not be rendered: ${e.message}` });
        }
      }
    }
  } finally {
    await pdf?.close();
  }
  return out;
}
