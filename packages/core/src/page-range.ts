import { QuireError } from './errors.js';

/**
 * Parses a page filter such as "1-3,5" (1-based, inclusive ranges) into sorted unique page numbers.
 * `pageCount` (when known) bounds the ranges: pages past the end are an error, so a typo never
 * silently yields an empty document. Throws REQ_006 on anything malformed.
 */
export function parsePageRange(spec: string, pageCount?: number): number[] {
  const trimmed = spec.trim();
  if (trimmed === '') throw new QuireError('REQ_006', 'Invalid page range: empty');
  const pages = new Set<number>();
  for (const part of trimmed.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new QuireError('REQ_006', `Invalid page range: "${part.trim()}"`, { page_range: spec });
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from) throw new QuireError('REQ_006', `Invalid page range: "${part.trim()}"`, { page_range: spec });
    if (pageCount !== undefined && to > pageCount) {
      throw new QuireError('REQ_006', `Page range "${part.trim()}" is outside the document (1-${pageCount})`, { page_range: spec, page_count: pageCount });
    }
    if (to - from > 100_000) throw new QuireError('REQ_006', 'Invalid page range: too large', { page_range: spec });
    for (let p = from; p <= to; p++) pages.add(p);
  }
  return [...pages].sort((a, b) => a - b);
}
