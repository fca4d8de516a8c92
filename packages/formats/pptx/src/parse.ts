import { assignIds, isQuireError, QuireError, resolveLimits, type Document, type DocumentParser, type Page } from '@quire/core';
import { PackageReader } from './package-reader.js';
import { readPresentation } from './presentation.js';
import { readSlide } from './slide.js';

/**
 * PPTX → Document. Each slide is a page (1-based in presentation order); `options.pages` picks
 * original slide numbers. A slide that fails to read comes back empty with `error` set, so the
 * rest of the deck survives. Speaker notes are in `page.extra.notes`; hidden slides carry
 * `page.extra.hidden = true`.
 */
export const parse: DocumentParser = async (bytes, options = {}) => {
  const limits = resolveLimits(options);
  const pkg = await PackageReader.open(bytes, limits);
  const pres = await readPresentation(pkg);
  const wanted = options.pages ? new Set(options.pages) : undefined;
  const slides = pres.slides.filter((s) => !wanted || wanted.has(s.number));
  if (slides.length > limits.maxPages) {
    throw new QuireError('REQ_003', `Presentation has ${slides.length} slides to process (limit ${limits.maxPages})`, { limit: limits.maxPages });
  }
  const warnings = [...pres.warnings];
  const pages: Page[] = [];
  for (const ref of slides) {
    try {
      pages.push(await readSlide(pkg, pres, ref, warnings));
    } catch (e) {
      if (isQuireError(e) && (e.code === 'REQ_003' || (e.details as { reason?: string } | undefined)?.reason?.startsWith('zip_'))) throw e;
      const message = `Slide ${ref.number} could not be read: ${(e as Error).message}`;
      warnings.push(message);
      pages.push({ number: ref.number, width: pres.width / 12700, height: pres.height / 12700, elements: [], words: [], selectionMarks: [], error: { code: 'PROC_005', message } });
    }
    await options.onPage?.(pages.length, slides.length);
  }
  const doc: Document = { format: 'pptx', pageCount: pres.slides.length, pages, warnings };
  return assignIds(doc);
};
