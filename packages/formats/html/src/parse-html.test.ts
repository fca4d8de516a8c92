import type { Document, FigureElement, TableElement, TextElement } from '@quire/core';
import { parse } from './index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const texts = (d: Document) => d.pages[0].elements.filter((e): e is TextElement => e.kind === 'text');
const byText = (d: Document, t: string) => texts(d).find((e) => e.text === t);
// 1×1 transparent PNG
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('HTML reader', () => {
  it('reads headings with levels (first h1 is the Title), paragraphs and links', async () => {
    const d = await parse(enc(`<!doctype html><html><head><title>T</title></head><body>
      <h1>Main title</h1><p>Intro with <a href="https://example.com/x">a link</a> inside.</p>
      <h2>Section</h2><h3>Sub <em>section</em></h3><h1>Second h1</h1><p>Line one<br>line two</p></body></html>`));
    expect(d.format).toBe('html');
    expect(d.pageCount).toBe(1);
    expect(d.title).toBe('T');
    const t = texts(d);
    expect(t.map((e) => [e.category, e.level ?? null, e.text])).toEqual([
      ['Title', 1, 'Main title'], ['Text', null, 'Intro with a link inside.'], ['Header', 2, 'Section'],
      ['Header', 3, 'Sub section'], ['Header', 1, 'Second h1'], ['Text', null, 'Line one\nline two'],
    ]);
    expect(t[1].links).toEqual([{ text: 'a link', href: 'https://example.com/x' }]);
    expect(t.every((e) => e.box === null && e.page === 1)).toBe(true);
    expect(t.map((e) => e.id)).toEqual(['txt-1', 'txt-2', 'txt-3', 'txt-4', 'txt-5', 'txt-6']);
  });

  it('reads nested lists with depth, markers and start numbers', async () => {
    const d = await parse(enc(`<body><ul><li>Apple<ul><li>Green</li><li>Red</li></ul></li><li>Banana</li></ul>
      <ol start="3"><li>Three</li><li>Four<ol type="a"><li>four-a</li></ol></li></ol></body>`));
    expect(texts(d).map((e) => [e.category, e.listDepth, e.listMarker, e.ordered, e.text])).toEqual([
      ['List Items', 0, '-', false, 'Apple'], ['List Items', 1, '-', false, 'Green'], ['List Items', 1, '-', false, 'Red'],
      ['List Items', 0, '-', false, 'Banana'], ['List Items', 0, '3.', true, 'Three'], ['List Items', 0, '4.', true, 'Four'],
      ['List Items', 1, 'a.', true, 'four-a'],
    ]);
  });

  it('reads tables with thead, th, colspan and rowspan', async () => {
    const d = await parse(enc(`<body><table><caption>Table 1: Sales</caption>
      <thead><tr><th rowspan="2">Region</th><th colspan="2">2024</th></tr><tr><th>Q1</th><th>Q2</th></tr></thead>
      <tbody><tr><td>North</td><td>10</td><td>12</td></tr><tr><td>South</td><td colspan="2">n/a</td></tr><tr><td>West</td></tr></tbody></table></body>`));
    const t = d.pages[0].elements.find((e): e is TableElement => e.kind === 'table')!;
    expect([t.rows, t.cols, t.headerRows]).toEqual([5, 3, 2]);
    const at = (r: number, c: number) => t.cells.find((x) => x.row === r && x.col === c);
    expect(at(0, 0)).toMatchObject({ text: 'Region', rowSpan: 2, colSpan: 1, isHeader: true });
    expect(at(0, 1)).toMatchObject({ text: '2024', colSpan: 2 });
    expect(at(1, 1)).toMatchObject({ text: 'Q1', isHeader: true });
    expect(at(1, 0)).toBeUndefined(); // covered by the row span
    expect(at(3, 1)).toMatchObject({ text: 'n/a', colSpan: 2, isHeader: false });
    expect(at(4, 1)).toMatchObject({ text: '', rowSpan: 1 }); // ragged row filled with empty cells
    const cap = byText(d, 'Table 1: Sales')!;
    expect(cap.category).toBe('caption');
    expect(cap.captionFor).toBe(t.id);
  });

  it('decodes data: images, ties figcaptions to figures and leaves remote images without bytes', async () => {
    const d = await parse(enc(`<body><figure><img src="data:image/png;base64,${PNG_B64}" alt="dot"><figcaption>Figure 1: A dot</figcaption></figure>
      <p>Text</p><img src="https://cdn.example/a.png" alt="remote"><img src="/pixel.gif" width="1" height="1"></body>`));
    const figs = d.pages[0].elements.filter((e): e is FigureElement => e.kind === 'figure');
    expect(figs).toHaveLength(2); // the 1×1 tracking pixel is not a figure
    expect(figs[0].image?.mime).toBe('image/png');
    expect(Buffer.from(figs[0].image!.bytes).toString('base64')).toBe(PNG_B64);
    expect(figs[0]).toMatchObject({ caption: 'Figure 1: A dot', text: 'dot', visualType: 'image', box: null });
    expect(byText(d, 'Figure 1: A dot')).toMatchObject({ category: 'caption', captionFor: figs[0].id });
    expect(figs[1].image).toBeUndefined();
    expect(d.warnings.join(' ')).toMatch(/remote image/);
  });

  it('fetches remote images only through options.fetchRemote', async () => {
    const seen: string[] = [];
    const d = await parse(enc('<body><p>x</p><img src="https://cdn.example/a.png"></body>'), {
      fetchRemote: async (url) => { seen.push(url); return { bytes: new Uint8Array([1, 2, 3]), mime: 'image/png' }; },
    });
    expect(seen).toEqual(['https://cdn.example/a.png']);
    expect((d.pages[0].elements[1] as FigureElement).image?.bytes).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('drops scripts, styles, templates and hidden elements', async () => {
    const d = await parse(enc(`<body><script>var secret = 1;</script><style>p{}</style><noscript>Enable JS</noscript>
      <template><p>tpl</p></template><p hidden>h1</p><p aria-hidden="true">h2</p><p style="display: none">h3</p>
      <div style="visibility:hidden">h4</div><p>Visible</p></body>`));
    expect(texts(d).map((e) => e.text)).toEqual(['Visible']);
  });

  it('prefers the main region and drops navigation chrome when the page clearly has one', async () => {
    const body = '<p>' + 'Real article text. '.repeat(20) + '</p>';
    const d = await parse(enc(`<body><header><a href="/">Site</a></header><nav><ul><li>Home</li><li>About</li></ul></nav>
      <main><h1>Article</h1><nav>In-page menu</nav>${body}<aside>Related links</aside></main><footer>Copyright</footer></body>`));
    const all = texts(d).map((e) => e.text);
    expect(all[0]).toBe('Article');
    expect(all.join(' ')).not.toMatch(/Home|Site|Copyright|Related|In-page/);
    expect(d.contentSelection).toMatchObject({ mode: 'main', droppedBlocks: 6 });
    // a plain document (no page chrome) is read whole; with main-content mode off, so is a web page
    const d2 = await parse(enc('<body><h2>Menu</h2><p>Body</p><p>Foot</p></body>'));
    expect(texts(d2).map((e) => e.text)).toEqual(['Menu', 'Body', 'Foot']);
    expect(d2.contentSelection).toBeUndefined();
    const d3 = await parse(enc('<body><nav>Menu</nav><p>Body</p><footer>Foot</footer></body>'), { htmlMainContent: false });
    expect(texts(d3).map((e) => e.text)).toEqual(['Menu', 'Body', 'Foot']);
  });

  it('detects the charset from a BOM, <meta charset> and http-equiv, falling back to windows-1252', async () => {
    const latin = Buffer.concat([Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>caf'), Buffer.from([0xe9]), Buffer.from('</p></body></html>')]);
    expect(texts(await parse(new Uint8Array(latin)))[0].text).toBe('café');
    const equiv = Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>'), Buffer.from([0x93, 0x71, 0x94]), Buffer.from('</p>')]);
    expect(texts(await parse(new Uint8Array(equiv)))[0].text).toBe('“q”');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>naïve ✓</p>')]);
    expect(texts(await parse(new Uint8Array(bom)))[0].text).toBe('naïve ✓');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>ÿes</p>', 'utf16le')]);
    expect(texts(await parse(new Uint8Array(utf16)))[0].text).toBe('ÿes');
    const unlabeled = Buffer.concat([Buffer.from('<p>na'), Buffer.from([0xef]), Buffer.from('ve</p>')]);
    expect(texts(await parse(new Uint8Array(unlabeled)))[0].text).toBe('naïve');
  });

  it('reads UTF-8 bytes under a legacy declaration as UTF-8, and says so', async () => {
    const text = 'Café – “naïve” résumé, 25 €';
    for (const declaration of ['<meta charset="windows-1252">', '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">', '<meta charset="shift_jis">']) {
      const doc = await parse(new Uint8Array(Buffer.from(`<html><head>${declaration}</head><body><p>${text}</p></body></html>`, 'utf8')));
      expect(texts(doc)[0].text).toBe(text);
      expect(doc.warnings).toContainEqual(expect.stringMatching(/^Decoded as utf-8: the page declares .+, but its bytes are UTF-8$/));
    }
    // pure ASCII under a legacy declaration reads the same either way: no warning about it
    const ascii = await parse(new Uint8Array(Buffer.from('<html><head><meta charset="windows-1252"></head><body><p>plain</p></body></html>')));
    expect(ascii.warnings.join(' ')).not.toMatch(/declares/);
  });

  it('marks checkbox state and keeps preformatted text as code', async () => {
    const d = await parse(enc('<body><p><input type="checkbox" checked> Done</p><p><input type="checkbox"> Todo</p><pre>a  b\n  c</pre></body>'));
    expect(byText(d, 'Done')?.selected).toBe(true);
    expect(byText(d, 'Todo')?.selected).toBe(false);
    expect(byText(d, 'a  b\n  c')?.extra).toEqual({ code: true });
  });

  it('refuses nesting deeper than the XML depth limit with FILE_003 before walking it (200,000 levels once overflowed the stack)', async () => {
    const nested = (n: number) => enc(`<html><body>${'<div>'.repeat(n)}deep text${'</div>'.repeat(n)}</body></html>`);
    await expect(parse(nested(200_000))).rejects.toMatchObject({ code: 'FILE_003', details: { reason: 'html_depth_limit', max_depth: 256 } });
    await expect(parse(nested(100), { limits: { maxXmlDepth: 50 } })).rejects.toMatchObject({ code: 'FILE_003' });
    expect(byText(await parse(nested(200)), 'deep text')).toBeDefined();
  });

  it('refuses an empty file', async () => {
    await expect(parse(new Uint8Array())).rejects.toMatchObject({ code: 'FILE_004' });
  });
});
