import { layoutDocument } from '@quire/layout';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

/** A two-column article page of about 500 words with a running header, a heading, a short list and a page number. */
function articlePage(n: number) {
  const p = new PageBuilder(n);
  p.text(72, 30, 'Journal of Layout Studies', { size: 8 });
  p.text(72, 60, `Section ${n} findings`, { size: 14, bold: true });
  for (const [x, seed] of [[72, n * 2], [318, n * 2 + 1]] as const) {
    let y = 90;
    for (let k = 0; k < 4; k++) y = p.paragraph(x, y, 220, prose(55, seed * 7 + k), { indent: 10 }) + 6;
    for (let k = 0; k < 2; k++) p.text(x, (y += 12.5), `• item ${k} ${prose(4, seed + k)}`);
  }
  p.text(300, 760, String(n), { size: 8 });
  return p.build();
}

describe('performance', () => {
  it('lays out 200 pages of ~500 words in a few milliseconds per page at most (plain node: ~0.6 ms)', () => {
    const pages = Array.from({ length: 200 }, (_, i) => articlePage(i + 1));
    const words = pages.reduce((s, p) => s + p.words.length, 0);
    // best of three: the first round mostly measures the JIT compiling the code
    let ms = Infinity, doc = layoutDocument(input(pages.slice(0, 1)));
    for (let round = 0; round < 3; round++) {
      const t0 = performance.now();
      doc = layoutDocument(input(pages));
      ms = Math.min(ms, performance.now() - t0);
    }
    // eslint-disable-next-line no-console
    console.log(`layout: ${pages.length} pages, ${Math.round(words / pages.length)} words/page, ${(ms / pages.length).toFixed(3)} ms/page`);
    expect(doc.pages).toHaveLength(200);
    expect(doc.pages[5].elements.length).toBeGreaterThan(8);
    // generous: the machine is shared and jest's VM modules run slower than plain node; this catches gross (quadratic) regressions
    expect(ms / pages.length).toBeLessThan(25);
  });
});
