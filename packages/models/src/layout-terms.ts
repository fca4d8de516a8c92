import type { Page } from '@quire/core';
import { retrievalTokens } from './bm25.js';

/**
 * What a page looks like, as words: a page that is mostly a table "says" table/rows/columns, a page
 * of running sentences says prose/text/paragraph, a page of blanks and boxes says form/field. Topic
 * and pipeline descriptions are written in those words ("statistical tables", "a letter in prose",
 * "a form to fill in"), so a page can match a description through its layout when its own words
 * do not (a table of names and figures never says "table").
 */
const TABLE_TERMS = retrievalTokens('table tables tabular rows columns');
const PROSE_TERMS = retrievalTokens('prose text paragraphs narrative');
const FORM_TERMS = retrievalTokens('form fields fill boxes checkbox');

const BLANK = /_{4,}|\.{8,}|[☐☑☒□■]/g;
const RUNNING = new Set(['Header', 'Footer', 'Page Number']);

export interface LayoutProfile {
  tableShare: number;
  proseShare: number;
  blanks: number;
}

function layoutProfile(page: Page): LayoutProfile {
  let text = 0, table = 0, prose = 0, blanks = page.selectionMarks?.length ?? 0;
  for (const el of page.elements) {
    if (el.kind === 'table') {
      for (const c of el.cells) { table += c.text.length; blanks += (c.text.match(BLANK) ?? []).length; }
    } else if (el.kind === 'text') {
      if (RUNNING.has(el.category)) continue;
      const t = el.text.trim();
      text += t.length;
      blanks += (t.match(BLANK) ?? []).length;
      const letters = (t.match(/\p{L}/gu) ?? []).length;
      if (t.length >= 60 && letters / t.length > 0.7 && /\s\p{Ll}+\s/u.test(t)) prose += t.length;
    }
  }
  const all = text + table;
  return { tableShare: all ? table / all : 0, proseShare: all ? prose / all : 0, blanks };
}

/** The layout words of a page, each `copies` times (how loud layout speaks next to the page's own words). */
export function layoutTerms(page: Page, copies = 1): string[] {
  const p = layoutProfile(page);
  const out: string[] = [];
  for (let i = 0; i < copies; i++) {
    if (p.tableShare >= 0.5) out.push(...TABLE_TERMS);
    if (p.proseShare >= 0.6 && p.tableShare < 0.2) out.push(...PROSE_TERMS);
    if (p.blanks >= 3) out.push(...FORM_TERMS);
  }
  return out;
}
