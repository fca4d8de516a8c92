import { attr, children, DROPPED, isElement, isHidden, type El, type Node } from './dom.js';

/** Navigation chrome, dropped inside a chosen main region. */
const CHROME = new Set(['nav', 'aside']);
const CHROME_ROLES = new Set(['navigation', 'complementary', 'search']);
/** Landmarks a full web page has around its article (site header, menus, footer, sidebars). */
const PAGE_CHROME = new Set(['nav', 'aside', 'header', 'footer']);
const PAGE_CHROME_ROLES = new Set(['navigation', 'complementary', 'search', 'banner', 'contentinfo']);

// Readability's class/id cues (Mozilla, Apache-2.0): names that mark boilerplate, names that mark content.
const UNLIKELY = /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE = /and|article|body|column|content|main|mathjax|shadow/i;
const NEGATIVE = /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;

const BLOCKS = new Set(['address', 'article', 'aside', 'blockquote', 'dd', 'div', 'dl', 'dt', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul']);
/** Containers judged by their link density once the article is chosen (Readability's "clean conditionally"). */
const CONDITIONAL = new Set(['div', 'section', 'ul', 'ol', 'form', 'fieldset', 'header', 'footer', 'table', 'dl']);

export interface ContentPlan {
  /** Subtrees to read, in document order. */
  roots: Node[];
  /** Elements inside the roots to leave out (navigation, boilerplate, link lists). */
  skip: Set<El>;
  /** How the article was found; absent when the whole page is read. */
  mode?: 'main' | 'article' | 'scored';
}

interface Stats { text: number; link: number; commas: number; /** <a> elements inside. */ links: number }

/** Text, link-text and comma counts of every element, computed once bottom-up (dropped and hidden subtrees count nothing). */
function measure(root: Node): Map<El, Stats> {
  const stats = new Map<El, Stats>();
  const visit = (n: Node, inLink: boolean): Stats => {
    const s: Stats = { text: 0, link: 0, commas: 0, links: 0 };
    for (const c of children(n)) {
      if (c.nodeName === '#text') {
        const v = (c as { value: string }).value.replace(/\s+/g, ' ').trim();
        s.text += v.length;
        if (inLink) s.link += v.length;
        s.commas += (v.match(/[,，、]/g) ?? []).length;
      } else if (isElement(c)) {
        if (DROPPED.has(c.tagName) || isHidden(c)) continue;
        const k = visit(c, inLink || c.tagName === 'a');
        stats.set(c, k);
        s.text += k.text; s.link += k.link; s.commas += k.commas; s.links += k.links + (c.tagName === 'a' ? 1 : 0);
      }
    }
    return s;
  };
  const all = visit(root, false);
  if (isElement(root)) stats.set(root, all);
  return stats;
}

const classWeight = (el: El) => {
  let w = 0;
  for (const name of [attr(el, 'class'), attr(el, 'id')]) {
    if (!name) continue;
    if (NEGATIVE.test(name)) w -= 25;
    if (POSITIVE.test(name)) w += 25;
  }
  return w;
};

const isUnlikely = (el: El) => {
  const names = `${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`;
  return UNLIKELY.test(names) && !MAYBE.test(names) && el.tagName !== 'body' && el.tagName !== 'a';
};

export const isChrome = (el: El) => CHROME.has(el.tagName) || CHROME_ROLES.has(attr(el, 'role') ?? '');
const isPageChrome = (el: El) => PAGE_CHROME.has(el.tagName) || PAGE_CHROME_ROLES.has(attr(el, 'role') ?? '');

function* elements(n: Node): Generator<El> {
  for (const c of children(n)) {
    if (!isElement(c) || DROPPED.has(c.tagName) || isHidden(c)) continue;
    yield c;
    yield* elements(c);
  }
}

const linkDensity = (s: Stats | undefined) => (s && s.text > 0 ? s.link / s.text : 0);

/**
 * Whether a page is a full web page (site chrome around an article) rather than a document: it has
 * navigation, header, footer or sidebar landmarks, or several blocks that are mostly links (menus).
 */
export function isFullWebPage(body: Node, stats = measure(body)): boolean {
  let linkBlocks = 0;
  for (const el of elements(body)) {
    if (isPageChrome(el)) return true;
    const s = stats.get(el);
    if ((el.tagName === 'ul' || el.tagName === 'ol' || el.tagName === 'div') && linkDensity(s) >= 0.6 && (s?.links ?? 0) >= 4) {
      if (++linkBlocks >= 3) return true;
    }
  }
  return false;
}


/**
 * Main-content mode, in the manner of Readability: a single substantial <main> / [role=main], else a
 * single substantial outermost <article>, else the block the page's paragraphs score highest for
 * (text length and commas, shared with ancestors; less its share of link text; class and id cues),
 * with sibling blocks that score near it. Inside, navigation, boilerplate-named blocks and blocks that
 * are mostly links are left out.
 */
export function planMainContent(body: El): ContentPlan {
  const stats = measure(body);
  const total = stats.get(body)?.text ?? 0;
  const textOf = (el: El) => stats.get(el)?.text ?? 0;
  const big = (el: El) => textOf(el) >= 200 || (total > 0 && textOf(el) / total >= 0.3);
  const all = [...elements(body)];
  const outermost = (els: El[]) => { const set = new Set(els); return els.filter((el) => !ancestors(el).some((a) => set.has(a))); };
  const mains = outermost(all.filter((el) => el.tagName === 'main' || attr(el, 'role') === 'main'));
  if (mains.length === 1 && big(mains[0])) return { roots: mains, skip: cleanInside(mains, stats), mode: 'main' };
  const articles = outermost(all.filter((el) => el.tagName === 'article'));
  if (articles.length === 1 && textOf(articles[0]) / Math.max(1, total) >= 0.3) return { roots: articles, skip: cleanInside(articles, stats), mode: 'article' };
  const scored = scoreCandidates(body, stats);
  if (!scored) return { roots: [body], skip: cleanInside([body], stats), mode: 'scored' };
  return { roots: scored, skip: cleanInside(scored, stats), mode: 'scored' };
}

/** The whole body, chrome inside a <main>-less page kept (html_main_content off). */
export const wholePage = (body: El): ContentPlan => ({ roots: [body], skip: new Set() });

const parentMap = new WeakMap<El, El | undefined>();
function ancestors(el: El): El[] {
  const out: El[] = [];
  for (let p = parentOf(el); p; p = parentOf(p)) out.push(p);
  return out;
}
const parentOf = (el: El): El | undefined => {
  if (parentMap.has(el)) return parentMap.get(el);
  const p = (el as unknown as { parentNode?: Node }).parentNode;
  const parent = p && isElement(p) ? p : undefined;
  parentMap.set(el, parent);
  return parent;
};

const TAG_SCORE: Record<string, number> = {
  div: 5, pre: 3, td: 3, blockquote: 3, address: -3, ol: -3, ul: -3, dl: -3, dd: -3, dt: -3, li: -3, form: -3,
  h1: -5, h2: -5, h3: -5, h4: -5, h5: -5, h6: -5, th: -5,
};

/** Paragraph-like elements: p, pre, td, and blocks of text with no block children of their own. */
const isParagraph = (el: El) =>
  el.tagName === 'p' || el.tagName === 'pre' || el.tagName === 'td' ||
  ((el.tagName === 'div' || el.tagName === 'section') && !children(el).some((c) => isElement(c) && BLOCKS.has(c.tagName)));

function scoreCandidates(body: El, stats: Map<El, Stats>): El[] | undefined {
  const scores = new Map<El, number>();
  const init = (el: El) => { if (!scores.has(el)) scores.set(el, (TAG_SCORE[el.tagName] ?? 0) + classWeight(el)); };
  const unlikely = new Set<El>();
  for (const el of elements(body)) {
    if (unlikely.has(parentOf(el)!) || (isUnlikely(el) && !el.attrs.some((a) => a.name === 'role' && a.value === 'main'))) { unlikely.add(el); continue; }
    if (isPageChrome(el) && el.tagName !== 'header') { unlikely.add(el); continue; }
    if (!isParagraph(el)) continue;
    const s = stats.get(el)!;
    if (s.text < 25) continue;
    const score = 1 + s.commas + Math.min(Math.floor(s.text / 100), 3);
    let level = 0;
    for (let a = parentOf(el); a && level < 5; a = parentOf(a), level++) {
      init(a);
      scores.set(a, scores.get(a)! + score / (level === 0 ? 1 : level === 1 ? 2 : level * 3));
    }
  }
  if (scores.size === 0) return undefined;
  const final = [...scores].map(([el, s]) => [el, s * (1 - linkDensity(stats.get(el)))] as const).sort((a, b) => b[1] - a[1]);
  let [top, topScore] = final[0];
  // When the best few candidates sit in one container (an article split into sections), take it.
  const close = final.slice(1, 5).filter(([, s]) => s >= topScore * 0.75).map(([el]) => el);
  if (close.length >= 2) {
    for (let a = parentOf(top); a && a !== body; a = parentOf(a)) {
      if (close.filter((c) => c === a || isInside(c, a)).length >= 2) { top = a; topScore = Math.max(topScore, final.find(([e]) => e === a)?.[1] ?? 0); break; }
    }
  }
  const parent = parentOf(top);
  if (!parent) return [top];
  const threshold = Math.max(10, topScore * 0.2);
  const byEl = new Map(final);
  const kept: El[] = [];
  for (const sib of children(parent)) {
    if (!isElement(sib) || DROPPED.has(sib.tagName) || isHidden(sib) || unlikely.has(sib)) continue;
    if (sib === top) { kept.push(sib); continue; }
    const bonus = attr(sib, 'class') && attr(sib, 'class') === attr(top, 'class') ? topScore * 0.2 : 0;
    if ((byEl.get(sib) ?? -Infinity) + bonus >= threshold) { kept.push(sib); continue; }
    if (sib.tagName === 'p') {
      const s = stats.get(sib)!, ld = linkDensity(s);
      if ((s.text > 80 && ld < 0.25) || (s.text > 0 && s.text <= 80 && ld === 0 && /\.( |$)/.test(textOfNode(sib)))) kept.push(sib);
    }
  }
  return kept;
}

const isInside = (inner: El, outer: El) => { for (let p = parentOf(inner); p; p = parentOf(p)) if (p === outer) return true; return false; };

const textOfNode = (n: Node): string => children(n).map((c) => (c.nodeName === '#text' ? (c as { value: string }).value : isElement(c) ? textOfNode(c) : '')).join('');

/** Blocks inside the kept content that are navigation, named as boilerplate, or mostly links. */
function cleanInside(roots: El[], stats: Map<El, Stats>): Set<El> {
  const skip = new Set<El>();
  const rootText = roots.reduce((n, r) => n + (stats.get(r)?.text ?? 0), 0);
  const visit = (el: El) => {
    for (const c of children(el)) {
      if (!isElement(c) || DROPPED.has(c.tagName) || isHidden(c)) continue;
      if (isChrome(c)) { skip.add(c); continue; }
      // A block holding most of the content is the article's wrapper, whatever its name says: look inside it.
      const holdsMost = (stats.get(c)?.text ?? 0) >= rootText * 0.5;
      if (!holdsMost && ((isUnlikely(c) && !hasDataTable(c)) || dropConditionally(c, stats.get(c)))) { skip.add(c); continue; }
      visit(c);
    }
  };
  for (const r of roots) visit(r);
  // Never leave the article nearly empty (Readability retries with fewer rules the same way).
  const skipped = [...skip].reduce((n, el) => n + (stats.get(el)?.text ?? 0), 0);
  if (rootText - skipped < Math.min(500, rootText * 0.25)) return new Set([...skip].filter(isChrome));
  return skip;
}

const hasDataTable = (el: El) => [...elements(el)].some((d) => d.tagName === 'table' && [...elements(d)].some((x) => x.tagName === 'th'));

/** A container that is mostly links (menus, tag clouds, "related" lists) or named as boilerplate, unless it reads as prose (many commas). */
function dropConditionally(el: El, s: Stats | undefined): boolean {
  if (!CONDITIONAL.has(el.tagName) || !s) return false;
  if (el.tagName === 'table' && [...elements(el)].some((d) => d.tagName === 'th' || d.tagName === 'caption')) return false;
  const weight = classWeight(el);
  if (weight < 0) return true;
  if (s.commas >= 10) return false;
  const ld = linkDensity(s);
  return (weight < 25 && ld > 0.5 && s.text > 0) || (weight >= 25 && ld > 0.7);
}
