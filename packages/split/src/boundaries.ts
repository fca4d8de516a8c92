import type { Page } from '@quire/core';
import { normalizeLabel, retrievalTokens } from '@quire/models';

/**
 * Evidence that a page starts a new document: page numbering that restarts ("Page 1 of 3", "1/3"),
 * a running header or footer that changes, a title at the top, an invoice number that changes.
 * Combined in log-odds from a low prior; the result is P(page starts a new document).
 */

export interface PageSignals {
  /** [current, total] when the page prints its number. */
  pageOf?: [number, number | undefined];
  /** The section of a section-page number ("3" of "3-1"); the page within it is pageOf's current. */
  section?: string;
  header: string;
  footer: string;
  hasTopTitle: boolean;
  /** The title text itself: a running "title" repeated on every page is no evidence. */
  topTitle?: string;
  invoiceNo?: string;
  /** Page size in points (0 for formats without pages); a packet's parts often differ. */
  size?: [number, number];
  /** Distinct content words of the page; consecutive pages of one document share vocabulary. */
  terms?: Set<string>;
  /** Whether the page is fillable (AcroForm widgets or drawn entry boxes, from the extraction). */
  fillable?: boolean;
}

const PAGE_OF = /\bpage\s*(\d{1,4})\s*(?:of|\/|de|von|sur)\s*(\d{1,4})\b/i;
const BARE_PAGE_OF = /^\s*[-–(]?\s*(\d{1,4})\s*(?:\/|of)\s*(\d{1,4})\s*[-–)]?\s*$/i;
const PAGE_ONLY = /^\s*(?:page|p\.|seite)?\s*[-–]?\s*(\d{1,4})\s*[-–]?\s*$/i;
/**
 * Section-page numbering ("3-1", "3 - 2", "A-4": the chapter, then the page within it), as government and
 * technical reports print it in the footer; the page within the section restarts at 1 with each section.
 */
const SECTION_PAGE = /^\s*(?:page\s*)?([A-Z]|\d{1,2})\s?[-–]\s?(\d{1,3})\s*$/i;
const INVOICE_NO = /\b(?:invoice|inv|bill)\s*(?:no\.?|number|num|#|id)?\s*[:#]?\s*([A-Z0-9][A-Z0-9\-/]{2,})/i;

/** Header/footer text without its page number, for comparing pages. */
const stripNumbers = (s: string) => normalizeLabel(s.replace(PAGE_OF, ' ').replace(/\b\d{1,3}\b/g, ' '));

export function pageSignals(page: Page): PageSignals {
  let pageOf: PageSignals['pageOf'];
  const top: string[] = [], bottom: string[] = [];
  let hasTopTitle = false, topTitle: string | undefined, invoiceNo: string | undefined, section: string | undefined;
  const words: string[] = [];
  for (const el of page.elements) {
    if (el.kind === 'table') { for (const c of el.cells) words.push(c.text); continue; }
    if (el.kind !== 'text') continue;
    const t = el.text.trim();
    words.push(t);
    const m = PAGE_OF.exec(t) ?? (t.length < 12 ? BARE_PAGE_OF.exec(t) : null);
    if (m && !pageOf && Number(m[1]) <= Number(m[2])) pageOf = [Number(m[1]), Number(m[2])];
    else if (!pageOf && el.category === 'Page Number') {
      const p = PAGE_ONLY.exec(t);
      if (p) pageOf = [Number(p[1]), undefined];
    }
    const y0 = el.box?.y0 ?? 0.5;
    // a section-page number only in the footer band (a "2-1" heading at the top is a section number)
    const sp = !pageOf && !m && (el.category === 'Page Number' || el.category === 'Footer' || y0 > 0.9) ? SECTION_PAGE.exec(t) : null;
    if (sp) { pageOf = [Number(sp[2]), undefined]; section = sp[1].toUpperCase(); continue; }
    if (el.category !== 'Page Number' && !m) {
      if (y0 < 0.07) top.push(t);
      else if (y0 > 0.92) bottom.push(t);
    }
    if ((el.category === 'Title' || (el.category === 'Header' && (el.level ?? 9) <= 1)) && y0 < 0.3 && !hasTopTitle) {
      hasTopTitle = true;
      topTitle = normalizeLabel(t);
    }
    const inv = INVOICE_NO.exec(t);
    if (inv && /\d/.test(inv[1]) && !invoiceNo) invoiceNo = inv[1].toUpperCase();
  }
  return {
    pageOf, section, header: stripNumbers(top.join(' ')), footer: stripNumbers(bottom.join(' ')), hasTopTitle, topTitle, invoiceNo,
    size: page.width > 0 ? [page.width, page.height] : undefined, terms: new Set(retrievalTokens(words.join(' '))),
    fillable: Number(page.extra?.form_fields ?? 0) > 0 || Number(page.extra?.form_boxes ?? 0) >= 3,
  };
}

function jaccard(a: string, b: string): number {
  return setJaccard(new Set(a.split(' ').filter(Boolean)), new Set(b.split(' ').filter(Boolean)));
}

function setJaccard(A: Set<string>, B: Set<string>): number {
  if (!A.size || !B.size) return 0;
  let inter = 0;
  for (const x of A) if (B.has(x)) inter++;
  return inter / (A.size + B.size - inter);
}

/** Log-odds a change in fillability adds; modest, since a form's instruction pages carry no widgets. */
const FILLABLE_CHANGE = 1;

const PRIOR_LOGIT = Math.log(0.15 / 0.85);
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Log-odds a printed page number n ≥ 2 lends the unnumbered pages it implies before it. */
const IMPLIED_INSIDE = 1.5, IMPLIED_FIRST = 1;

/**
 * What printed page numbers say about the unnumbered pages before them: a page printing "3" (not a
 * restart) has its pages 1 and 2 right before it, so the page just before it continues a document and the
 * one two before starts it, though neither prints a number (a form's first page and its instructions
 * often do not). Only runs of unnumbered pages are read this way; a page printing its own number speaks
 * for itself.
 */
function impliedByLaterNumbers(signals: readonly PageSignals[]): number[] {
  const out = signals.map(() => 0);
  signals.forEach((s, j) => {
    const n = s.pageOf?.[0];
    if (!n || n < 2) return;
    for (let back = 1; back < n; back++) {
      const k = j - back;
      if (k < 0 || signals[k].pageOf) return;
      out[k] += back === n - 1 ? IMPLIED_FIRST : -IMPLIED_INSIDE;
    }
  });
  return out;
}

/** P(page i starts a new document) for every page; the first page is 1 by definition. */
export function boundaryProbabilities(signals: PageSignals[]): number[] {
  const implied = impliedByLaterNumbers(signals);
  return signals.map((cur, i) => {
    if (i === 0) return 1;
    const prev = signals[i - 1];
    let logit = PRIOR_LOGIT + implied[i];
    if (cur.pageOf) {
      const [n, total] = cur.pageOf;
      // "4-1" after "3-12" is the report's next chapter, not a new document: a restart only counts where
      // the numbering is not section-page numbering on both pages
      if (n === 1) logit += cur.section !== undefined && prev.section !== undefined && cur.section !== prev.section ? 0 : 3.5;
      else if (prev.pageOf && prev.pageOf[0] === n - 1 && (total === undefined || prev.pageOf[1] === total) && cur.section === prev.section) logit -= 3.5;
      else if (prev.pageOf && total !== undefined && prev.pageOf[1] !== undefined && prev.pageOf[1] !== total) logit += 2;
    }
    if (prev.pageOf && prev.pageOf[1] !== undefined && prev.pageOf[0] === prev.pageOf[1]) logit += 1; // previous page was its document's last
    // first pages often print no number: an unnumbered page followed by "page 2" starts a document, and that "page 2" continues it
    const next = signals[i + 1];
    if (!cur.pageOf && next?.pageOf?.[0] === 2) logit += 1;
    if (cur.pageOf?.[0] === 2 && !prev.pageOf) logit -= 1.5;
    for (const [a, b] of [[prev.header, cur.header], [prev.footer, cur.footer]]) {
      if (!a && !b) continue;
      if (!a || !b) { logit += 0.75; continue; } // a running header/footer appears or stops
      const sim = jaccard(a, b);
      if (sim >= 0.6) logit -= 1.5;
      else if (sim < 0.2) logit += 1.5;
    }
    if (cur.hasTopTitle && cur.topTitle !== prev.topTitle) logit += 1;
    if (cur.size && prev.size && (Math.abs(cur.size[0] - prev.size[0]) > 3 || Math.abs(cur.size[1] - prev.size[1]) > 3)) logit += 2.5;
    if (cur.terms && prev.terms && cur.terms.size >= 5 && prev.terms.size >= 5) {
      const sim = setJaccard(cur.terms, prev.terms);
      if (sim < 0.06) logit += 1.25;
      else if (sim > 0.2) logit -= 1;
    }
    // a fillable page after a printed one (or the reverse): documents rarely switch between the two inside
    if (cur.fillable !== undefined && prev.fillable !== undefined && cur.fillable !== prev.fillable) logit += FILLABLE_CHANGE;
    if (cur.invoiceNo && prev.invoiceNo) logit += cur.invoiceNo === prev.invoiceNo ? -2 : 2.5;
    return sigmoid(logit);
  });
}
