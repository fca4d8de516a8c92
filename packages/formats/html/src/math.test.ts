import type { Document, TableElement, TextElement } from '@quire/core';
import { renderExtraction } from '@quire/render';
import { parse } from './index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const texts = (d: Document) => d.pages[0].elements.filter((e): e is TextElement => e.kind === 'text');

// The shape MediaWiki writes: the MathML (with the TeX source as an annotation) in a display:none span,
// beside an aria-hidden SVG picture of the formula.
const wikiInline = `<span class="mwe-math-element"><span class="mwe-math-mathml-inline" style="display: none;"><math xmlns="http://www.w3.org/1998/Math/MathML" alttext="{\\displaystyle E=mc^{2}}"><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">{\\displaystyle E=mc^{2}}</annotation></semantics></math></span><img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/abc" class="mwe-math-fallback-image-inline" aria-hidden="true" alt="{\\displaystyle E=mc^{2}}"></span>`;
const wikiDisplay = `<div class="mwe-math-element"><div class="mwe-math-mathml-display" style="display: none;"><math display="block"><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">{\\displaystyle x={\\frac {-b\\pm {\\sqrt {b^{2}-4ac}}}{2a}}}</annotation></semantics></math></div><img src="https://wikimedia.org/x.svg" aria-hidden="true" alt="x"></div>`;

describe('HTML MathML', () => {
  it('keeps a hidden MathML formula with a TeX annotation as inline and display markdown math', async () => {
    const d = await parse(enc(`<body><p>Mass–energy equivalence: ${wikiInline} holds.</p>${wikiDisplay}<p>After.</p></body>`));
    const t = texts(d);
    expect(t.map((e) => [e.category, e.text])).toEqual([
      ['Text', 'Mass–energy equivalence: $E=mc^{2}$ holds.'],
      ['Formulas', 'x={\\frac {-b\\pm {\\sqrt {b^{2}-4ac}}}{2a}}'],
      ['Text', 'After.'],
    ]);
    expect(d.pages[0].elements.some((e) => e.kind === 'figure')).toBe(false); // the aria-hidden picture is not a figure
    const md = renderExtraction(d).markdown;
    expect(md).toContain('Mass–energy equivalence: $E=mc^{2}$ holds.');
    expect(md).toContain('$$\nx={\\frac {-b\\pm {\\sqrt {b^{2}-4ac}}}{2a}}\n$$');
  });

  it('rebuilds LaTeX from presentation MathML when no TeX annotation is there', async () => {
    const d = await parse(enc(`<body><p>Area <math><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></math> and
      <math display="block"><mfrac><mrow><mi>a</mi><mo>+</mo><mn>1</mn></mrow><msqrt><mi>x</mi></msqrt></mfrac></math></p></body>`));
    expect(texts(d).map((e) => [e.category, e.text])).toEqual([
      ['Text', 'Area $\\pi r^2$ and'],
      ['Formulas', '\\frac{a + 1}{\\sqrt{x}}'],
    ]);
  });

  it('reads MathJax 2 TeX scripts as math', async () => {
    const d = await parse(enc(`<body><p>Let <script type="math/tex">a^2</script> be.</p><script type="math/tex; mode=display">\\sum_i x_i</script></body>`));
    expect(texts(d).map((e) => [e.category, e.text])).toEqual([['Text', 'Let $a^2$ be.'], ['Formulas', '\\sum_i x_i']]);
  });

  it('keeps formulas and image alt texts inside table cells', async () => {
    const d = await parse(enc(`<body><table><tr><th>Country</th><th>Rating</th><th>Law</th></tr>
      <tr><td><img src="flag-fr.png" alt="France"> FR</td><td><img src="stars.png" alt="4 of 5 stars"></td><td>${wikiInline}</td></tr>
      <tr><td><img src="spacer.gif" width="1" height="1" alt="spacer">DE</td><td>n/a</td><td>-</td></tr></table></body>`));
    const t = d.pages[0].elements.find((e): e is TableElement => e.kind === 'table')!;
    const at = (r: number, c: number) => t.cells.find((x) => x.row === r && x.col === c)?.text;
    expect([at(1, 0), at(1, 1), at(1, 2)]).toEqual(['France FR', '4 of 5 stars', '$E=mc^{2}$']);
    expect(at(2, 0)).toBe('DE'); // a spacer's alt is not content
  });
});
