import type { Box, FigureElement, Page, RawWord, TableElement } from '@quire/core';

/** Page size in points plus helpers to turn font sizes (points) into normalized distances. */
export interface PageGeom {
  width: number;
  height: number;
}

/** A line fragment: words on one baseline with no wide gap between them (a column gutter splits a line). */
export interface Frag {
  words: RawWord[];
  box: Box;
  /** Dominant font size (by characters). */
  fontSize: number;
  /** At least 80% of the characters are bold / italic. */
  bold: boolean;
  italic: boolean;
  /** Index of the selection mark this fragment is the label of. */
  mark?: number;
  vertical?: boolean;
  /** Mostly right-to-left words: `words` are in reading order, right to left. */
  rtl?: boolean;
  /** Text of the fragment, words joined, ligatures normalized. */
  text: string;
}

export interface ListInfo {
  marker: string;
  ordered: boolean;
  /** Left edge of the marker, for nesting by indentation. */
  x0: number;
}

/**
 * A paragraph-like group of lines, reduced to what the cross-page pass needs (no words kept), so a long
 * document's analyses stay light.
 */
export interface BlockSummary {
  kind: 'block';
  text: string;
  box: Box;
  fontSize: number;
  bold: boolean;
  italic: boolean;
  lineCount: number;
  confidence: number;
  /** List marker when the first line starts with one (numbered ones may turn out to be headings). */
  list?: ListInfo;
  /** Text with the list marker removed. */
  listText?: string;
  /** Figure or table on the same page this caption describes. */
  captionOf?: TableElement | FigureElement;
  formula?: boolean;
  mark?: number;
  /** Superscript footnote-reference symbols found in the block's lines. */
  refs?: string[];
  /** Symbol the block starts with (footnote text candidate: "1 See …", "* Note …"). */
  leadSymbol?: string;
}

export type PageItem = BlockSummary | TableElement | FigureElement;

/** Result of analyzing one page on its own; finishDocument turns a list of these into the Document. */
export interface PageAnalysis {
  /** The output page with words and selection marks; elements are filled by finishDocument. */
  page: Page;
  /** Blocks, tables and figures in reading order. */
  items: PageItem[];
  /** Characters of running text per font size (rounded to 0.5 pt): the body size is the mode over the document. */
  fontHistogram: Map<number, number>;
}

export const isBlock = (item: PageItem): item is BlockSummary => item.kind === 'block';
