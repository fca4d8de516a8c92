import type { Document, TextElement } from '@quire/core';
import { renderExtraction } from '@quire/render';
import { parse } from './index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const texts = (d: Document) => d.pages[0].elements.filter((e): e is TextElement => e.kind === 'text').map((e) => e.text);

const para = (topic: string, i: number) =>
  `<p>${topic} paragraph ${i}: the committee met on Tuesday, reviewed the budget, heard from residents, and agreed to publish the minutes, with a vote to follow next month.</p>`;
const links = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `<li><a href="/${prefix}/${i}">${prefix} link ${i}</a></li>`).join('');

// A web page without <main> or <article>: a site header, a menu, the article in plain divs between a
// sidebar of links and a footer, a share bar and a "related stories" list inside the article's column.
const page = `<!doctype html><html><head><title>Council news</title></head><body>
  <div id="top" class="site-header"><a href="/">The Town Paper</a><div class="menu"><ul>${links('section', 8)}</ul></div></div>
  <div class="layout">
    <div class="left-rail"><ul>${links('popular', 10)}</ul></div>
    <div class="story-column">
      <h1>Council approves the budget</h1>
      <div class="share-tools"><a href="/s/fb">Share on Facebook</a> <a href="/s/tw">Share on Twitter</a></div>
      ${Array.from({ length: 6 }, (_, i) => para('Council', i + 1)).join('')}
      <div class="story-body">${Array.from({ length: 3 }, (_, i) => para('Budget', i + 1)).join('')}</div>
      <ul class="more-links">${links('related', 6)}</ul>
    </div>
  </div>
  <div class="site-footer">© The Town Paper · <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></div>
</body></html>`;

describe('HTML main-content mode', () => {
  it('keeps the article of a full web page found by scoring its paragraphs, and says what it left out', async () => {
    const d = await parse(enc(page));
    const t = texts(d);
    expect(t[0]).toBe('Council approves the budget');
    expect(t.filter((x) => /^(Council|Budget) paragraph/.test(x))).toHaveLength(9);
    expect(t.join('\n')).not.toMatch(/link \d|Share on|Privacy|The Town Paper/);
    expect(d.contentSelection).toMatchObject({ mode: 'scored' });
    expect(d.contentSelection!.droppedBlocks).toBeGreaterThanOrEqual(25);
    expect(d.contentSelection!.droppedWords).toBeGreaterThan(50);
    expect(d.warnings.some((w) => /left out \d+ block/.test(w))).toBe(true);
    expect(renderExtraction(d).extensions.mainContent).toEqual(d.contentSelection);
  });

  it('reads the whole page when main-content mode is off', async () => {
    const d = await parse(enc(page), { htmlMainContent: false });
    const t = texts(d).join('\n');
    expect(t).toMatch(/popular link 3/);
    expect(t).toMatch(/related link 5/);
    expect(t).toMatch(/Budget paragraph 3/);
    expect(d.contentSelection).toBeUndefined();
  });

  it('keeps an article wrapper whose name looks like boilerplate when it holds the content', async () => {
    const d = await parse(enc(`<body><nav><a href="/">Home</a></nav><div role="main"><div class="two-col-sidebar-layout">
      ${Array.from({ length: 4 }, (_, i) => para('Report', i + 1)).join('')}</div><div class="sidebar"><ul>${links('more', 5)}</ul></div></div></body>`));
    const t = texts(d).join('\n');
    expect(t).toMatch(/Report paragraph 4/);
    expect(t).not.toMatch(/more link/);
    expect(d.contentSelection?.mode).toBe('main');
  });
});
