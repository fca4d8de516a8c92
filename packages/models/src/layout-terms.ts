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
/**
 * A sign of running sentences: a word in small letters between spaces, or, in scripts without capitals
 * (Arabic, Hebrew, Devanagari, Chinese, Japanese, Thai), a word of such letters — headings and table
 * labels are capitalised in cased scripts, but nothing is in these.
 */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const RUNNING_WORD = /\s\p{Ll}+\s|\p{Lo}{2,}[\s\p{P}]+\p{Lo}{2,}|\p{Lo}{12,}/u;

export interface LayoutProfile {
  tableShare: number;
  proseShare: number;
  blanks: number;
}

/** Running sentences (see RUNNING_WORD); a wide (CJK) character holds about what two Latin letters do. */
function isRunningText(t: string): boolean {
  const width = t.length + (t.match(WIDE) ?? []).length;
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  return width >= 60 && letters / t.length > 0.7 && RUNNING_WORD.test(t);
}

const area = (b: Page['elements'][number]['box']) => (b ? Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0) : 0);

/**
 * How much of the page is table, how much running prose, how many blanks. Shares are of the page area
 * the elements cover when every one has a box (a table of figures fills a lot of page with few
 * characters; counted by characters, two paragraphs outweighed it), else of their characters. A table
 * cell that holds running sentences counts as prose: text set in boxes is not a table of figures.
 */
function layoutProfile(page: Page): LayoutProfile {
  let blanks = page.selectionMarks?.length ?? 0;
  const counted = page.elements.filter((el) => el.kind === 'table' || (el.kind === 'text' && !RUNNING.has(el.category)));
  const byArea = counted.length > 0 && counted.every((el) => area(el.box) > 0);
  let all = 0, table = 0, prose = 0;
  for (const el of counted) {
    if (el.kind === 'table') {
      let chars = 0, proseChars = 0;
      for (const c of el.cells) {
        const t = c.text.trim();
        chars += t.length;
        if (isRunningText(t)) proseChars += t.length;
        blanks += (t.match(BLANK) ?? []).length;
      }
      const w = byArea ? area(el.box) : chars;
      const proseShare = chars ? proseChars / chars : 0;
      all += w;
      prose += w * proseShare;
      table += w * (1 - proseShare);
    } else if (el.kind === 'text') {
      const t = el.text.trim();
      const w = byArea ? area(el.box) : t.length;
      all += w;
      blanks += (t.match(BLANK) ?? []).length;
      if (isRunningText(t)) prose += w;
    }
  }
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
