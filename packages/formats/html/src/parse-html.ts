import { parse as parseDom } from 'parse5';
import { assignIds, QuireError, resolveLimits, type ContentSelection, type Document, type DocumentParser, type Element, type Page } from '@quire/core';
import { decodeHtml } from './decode.js';
import { children, findFirst, isElement, nestedDeeperThan, type El } from './dom.js';
import { isFullWebPage, planMainContent, wholePage, type ContentPlan } from './main-content.js';
import { cellText } from './table.js';
import { HtmlWalker } from './walker.js';

/**
 * HTML → document model. One page (HTML has no pages), no geometry (box null). Main content is
 * preferred when the page clearly has a main region; scripts, styles and hidden elements are dropped.
 * Remote images are fetched only through options.fetchRemote (the caller's SSRF-guarded fetcher).
 */
export const parse: DocumentParser = async (bytes, options = {}) => {
  if (bytes.length === 0) throw new QuireError('FILE_004', 'Empty file');
  const { text, charset, declared } = decodeHtml(bytes);
  const dom = parseDom(text); // parse5 builds the tree without recursion, whatever the nesting
  // Everything after walks the tree recursively: refuse a depth that would overflow the stack first.
  const { maxXmlDepth } = resolveLimits(options);
  if (nestedDeeperThan(dom, maxXmlDepth)) {
    throw new QuireError('FILE_003', `HTML nests deeper than ${maxXmlDepth} elements`, { reason: 'html_depth_limit', max_depth: maxXmlDepth });
  }
  const html = children(dom).find((c): c is El => isElement(c) && c.tagName === 'html');
  const body = html && children(html).find((c): c is El => isElement(c) && c.tagName === 'body');
  if (!body) throw new QuireError('FILE_003', 'File corrupted: no HTML body');
  const titleEl = findFirst(html, (el) => el.tagName === 'title');
  const title = titleEl ? cellText(titleEl) : undefined;

  // Main-content mode: asked for, or by default on full web pages (site chrome around an article).
  const mainContent = options.htmlMainContent ?? isFullWebPage(body);
  const plan = mainContent ? planMainContent(body) : wholePage(body);
  const walker = readPlan(plan);

  const warnings: string[] = [];
  const selection = mainContent ? dropped(walker, readPlan(wholePage(body)), plan) : undefined;
  if (selection && selection.droppedBlocks > 0) {
    warnings.push(`Main content kept (html_main_content): left out ${selection.droppedBlocks} block(s), ${selection.droppedWords} word(s) of navigation and page chrome`);
  }
  if (charset !== 'utf-8') warnings.push(`Decoded as ${charset}`);
  if (declared) warnings.push(`Decoded as utf-8: the page declares ${declared}, but its bytes are UTF-8`);
  await fetchImages(walker, options.fetchRemote, warnings);

  const wanted = !options.pages || options.pages.includes(1);
  const page: Page = { number: 1, width: 0, height: 0, elements: walker.elements, words: [], selectionMarks: [] };
  const doc: Document = { format: 'html', pageCount: 1, pages: wanted ? [page] : [], warnings, ...(title ? { title } : {}), ...(selection ? { contentSelection: selection } : {}) };
  assignIds(doc);
  for (const [cap, target] of walker.captions) if (target.id) cap.captionFor = target.id;
  await options.onPage?.(1, 1);
  return doc;
};

function readPlan(plan: ContentPlan): HtmlWalker {
  const walker = new HtmlWalker();
  const ctx = { skip: plan.skip };
  for (const root of plan.roots) {
    walker.walk(root, ctx);
    walker.flush(ctx);
  }
  return walker;
}

const wordCount = (e: Element) => (e.kind === 'table' ? e.cells.map((c) => c.text).join(' ') : e.text ?? '').split(/\s+/).filter(Boolean).length;

/** What main-content mode left out: the page read whole, less what was kept (blocks as the reader emits them). */
function dropped(kept: HtmlWalker, whole: HtmlWalker, plan: ContentPlan): ContentSelection {
  const keptWords = kept.elements.reduce((n, e) => n + wordCount(e), 0);
  const wholeWords = whole.elements.reduce((n, e) => n + wordCount(e), 0);
  return {
    mode: plan.mode ?? 'scored',
    keptBlocks: kept.elements.length,
    droppedBlocks: Math.max(0, whole.elements.length - kept.elements.length),
    droppedWords: Math.max(0, wholeWords - keptWords),
  };
}

async function fetchImages(walker: HtmlWalker, fetchRemote: ((url: string) => Promise<{ bytes: Uint8Array; mime: string } | null>) | undefined, warnings: string[]) {
  if (walker.pending.length === 0) return;
  if (!fetchRemote) {
    warnings.push(`${walker.pending.length} remote image(s) not fetched (remote fetching is off)`);
    return;
  }
  let failed = 0;
  for (const { figure, url } of walker.pending) {
    try {
      const got = await fetchRemote(url);
      if (got) figure.image = got; else failed++;
    } catch {
      failed++;
    }
  }
  if (failed > 0) warnings.push(`${failed} remote image(s) could not be fetched`);
}
