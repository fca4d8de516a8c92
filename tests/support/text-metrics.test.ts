import { levenshtein, lcsLength, charSimilarity, wordScores, orderScore, markdownToText, htmlToText, latexToText } from '../../scripts/lib/text-metrics.mjs';

function dpLevenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

function dpLcs(a: string[], b: string[]): number {
  let prev = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return prev[b.length];
}

// deterministic pseudo-random strings over a small alphabet (many matches, many edits)
function rand(seed: number) { let s = seed; return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff); }

describe('text metrics', () => {
  it('bit-vector Levenshtein equals the dynamic-programming distance, across 64-bit block edges', () => {
    const r = rand(7);
    for (let k = 0; k < 200; k++) {
      const la = Math.floor(r() * 150), lb = Math.floor(r() * 150);
      const a = Array.from({ length: la }, () => 'abcd'[Math.floor(r() * 4)]).join('');
      const b = Array.from({ length: lb }, () => 'abcde'[Math.floor(r() * 5)]).join('');
      expect(levenshtein(a, b)).toBe(dpLevenshtein(a, b));
    }
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
  });

  it('bit-parallel LCS equals the dynamic-programming LCS', () => {
    const r = rand(11);
    for (let k = 0; k < 200; k++) {
      const a = Array.from({ length: Math.floor(r() * 140) }, () => String(Math.floor(r() * 6)));
      const b = Array.from({ length: Math.floor(r() * 140) }, () => String(Math.floor(r() * 6)));
      expect(lcsLength(a, b)).toBe(dpLcs(a, b));
    }
  });

  it('scores similarity, word F1 and order', () => {
    expect(charSimilarity('the ﬁrst  line', 'the first line')).toBe(1);
    expect(charSimilarity('abcd', 'abxd')).toBeCloseTo(0.75);
    expect(wordScores('a b c d', 'a b c e').f1).toBeCloseTo(0.75);
    expect(orderScore('one two three four five six', 'one two three four five six')).toBe(1);
    // two columns read across instead of down: same words, order broken
    expect(orderScore('a1 b1 a2 b2 a3 b3 a4 b4', 'a1 a2 a3 a4 b1 b2 b3 b4')).toBeCloseTo(5 / 8);
    expect(orderScore('x y', 'x y')).toBeNull();
  });

  it('strips markdown, HTML and LaTeX markup to comparable text', () => {
    expect(markdownToText('# Title\n\n- item **bold**\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n![fig](x.png) [link](http://x)')).toBe('Title item bold a b 1 2 link');
    expect(htmlToText('<p>Above</p><table><tr><td>Top left</td><td>Top right</td></tr></table><p>Below</p>')).toBe('Above Top left Top right Below');
    expect(latexToText('\\documentclass{article}\n\\begin{document}\n\\section{Intro} Some \\textbf{bold} text. % comment\n\\end{document}')).toBe('Intro Some bold text.');
  });
});

describe('markdownToText details', () => {
  it('keeps code-fence content, unwraps nested link brackets, drops checkboxes and placeholders', () => {
    expect(markdownToText('```\n<script src="a.js"></script>\n```')).toBe('<script src="a.js"></script>');
    expect(markdownToText('duck [[ 1 ]](#cite_note-1) and [Taxonomy](/wiki/Taxonomy_(biology)) &amp; co')).toBe('duck [ 1 ] and Taxonomy & co');
    expect(markdownToText('- [x] Design\n☒ Water\n[Image]\n<!-- image -->')).toBe('Design Water');
    expect(markdownToText('| a<br>b | c |')).toBe('a b c');
  });

  // Text is scored as a person reads the rendered markdown (the held-out scorer does the same).
  it('reads HTML tables as their cell text, also when a tag or comment spans lines', () => {
    const md = '<table>\n<tr><th colspan="2"\n    rowspan="1">Net sales</th></tr>\n<tr><td>2023</td><td>1&nbsp;200</td></tr>\n</table>\n<!--\nimage\n-->\nAfter';
    expect(markdownToText(md)).toBe('Net sales 2023 1 200 After');
    expect(markdownToText('Text &lt;b&gt; stays')).toBe('Text <b> stays');
  });

  it('keeps link text and drops link targets: inline, reference-style and reference definitions', () => {
    expect(markdownToText('See [the docs](https://x.org/docs "Docs") and [the spec][spec].\n\n[spec]: https://x.org/spec')).toBe('See the docs and the spec.');
    expect(markdownToText('<a href="https://x.org">home</a>')).toBe('home');
  });

  it('shows an autolink as the address a reader sees', () => {
    expect(markdownToText('Mail <mailto:a@x.org> or <https://x.org/a>')).toBe('Mail mailto:a@x.org or https://x.org/a');
  });

  it('drops image placeholders and images, keeping a chart or image title', () => {
    expect(markdownToText('Before\n<!-- image -->\n[Image]\n![Figure 1](images/f1.png)\n<img src="a.png" alt="x">\nAfter')).toBe('Before After');
    expect(markdownToText('[Chart: Sales by year]\n[Image: Floor plan]')).toBe('Sales by year Floor plan');
  });

  it('leaves markup inside code fences alone', () => {
    expect(markdownToText('a\n```html\n<b>[x](y)</b>\n```\nb')).toBe('a <b>[x](y)</b> b');
  });
});
