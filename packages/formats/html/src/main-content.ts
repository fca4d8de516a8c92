import { attr, descendants, findFirst, textLength, type El, type Node } from './dom.js';

/** Navigation chrome dropped inside a chosen main region. */
const CHROME = new Set(['nav', 'aside']);
const CHROME_ROLES = new Set(['navigation', 'complementary', 'search']);

export interface ContentRoot {
  root: Node;
  /** True when a main region was chosen: chrome inside it is dropped as well. */
  dropChrome: boolean;
}

/**
 * Picks the page's main content when the page clearly has one: a single <main> / [role=main], else a
 * single outermost <article>, holding a fair share of the page's text (so a tiny <main> around a
 * search box never hides the page). Otherwise the whole body is read.
 */
export function chooseContentRoot(body: Node): ContentRoot {
  const total = textLength(body);
  const big = (el: El) => { const n = textLength(el); return n >= 200 || (total > 0 && n / total >= 0.3); };
  const mains = [...descendants(body)].filter((el) => el.tagName === 'main' || attr(el, 'role') === 'main');
  const outermost = (els: El[]) => els.filter((el) => !els.some((o) => o !== el && contains(o, el)));
  const main = outermost(mains);
  if (main.length === 1 && big(main[0])) return { root: main[0], dropChrome: true };
  const articles = outermost([...descendants(body)].filter((el) => el.tagName === 'article'));
  if (articles.length === 1 && textLength(articles[0]) / Math.max(1, total) >= 0.3) return { root: articles[0], dropChrome: true };
  return { root: body, dropChrome: false };
}

const contains = (outer: El, inner: El) => findFirst(outer, (el) => el === inner) !== undefined;

export const isChrome = (el: El) => CHROME.has(el.tagName) || CHROME_ROLES.has(attr(el, 'role') ?? '');
