import { parsePageRange, type SourceFormat } from '@quire/core';
import { CLASSIFY_PAGES } from './classify.js';

/** Formats with real pages: only the pages read are parsed and billed. */
const PAGED: ReadonlySet<SourceFormat> = new Set(['pdf', 'png', 'jpeg', 'tiff']);

export interface ClassifyPagePlan {
  /** 1-indexed pages the classifier reads. */
  read: number[];
  /** Pages to parse: the pages read for PDFs and images, undefined (all) for office and HTML. */
  parse?: number[];
  /** Pages billed: the pages read for PDFs and images; every page for office and HTML files. */
  billed: number;
}

/**
 * The spec: "page_range defaults to the first 5 pages for PDFs and images; office and HTML files
 * bill every page" (their pages only exist once the whole file is laid out).
 */
export function classifyPagePlan(format: SourceFormat, pageCount: number, pageRange?: string): ClassifyPagePlan {
  const read = pageRange ? parsePageRange(pageRange, pageCount) : Array.from({ length: Math.min(CLASSIFY_PAGES, pageCount) }, (_, i) => i + 1);
  return PAGED.has(format) ? { read, parse: read, billed: read.length } : { read, billed: pageCount };
}
