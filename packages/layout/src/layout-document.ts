import type { Document, OutlineEntry, RawPage, SourceFormat } from '@quire/core';
import { analyzePage } from './analyze-page.js';
import { finishDocument } from './finish.js';

export interface LayoutInput {
  format: SourceFormat;
  pageCount: number;
  pages: RawPage[];
  outline?: OutlineEntry[];
  title?: string;
  warnings?: string[];
}

export interface LayoutOptions {
  /** Fill page.selectionMarks and set `selected` on the text next to each mark. */
  detectSelections?: boolean;
  /** Fill doc.footnotes (superscript references tied to their footnote texts). */
  footnoteReferences?: boolean;
}

/**
 * Raw pages → Document with elements in reading order and ids assigned. Equivalent to analyzePage on
 * each page then finishDocument; a streaming reader can call those two itself and drop each raw page as
 * soon as it has been analyzed.
 */
export function layoutDocument(input: LayoutInput, options: LayoutOptions = {}): Document {
  return finishDocument(input.pages.map((p) => analyzePage(p)), input, options);
}
