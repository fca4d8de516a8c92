import { LazyJsonArray, assignIds, type Document } from '@quire/core';
import { renderExtraction, renderPageResults } from './render-extraction.js';
import type { BoundingBoxes, ExtractionOutput, WordBox } from './output-types.js';
import { box, doc, figure, page, table, text } from '../test/test-doc.js';

function sample(): Document {
  const d = doc([
    page(1, [
      text('Header', 'ACME Corp annual report', { extra: { running: true }, box: box(0.1, 0.02, 0.9, 0.04) }),
      text('Title', 'Annual Report', { level: 1, box: box(0.1, 0.1, 0.9, 0.15) }),
      text('Text', 'Revenue grew in every region.', { box: box(0.1, 0.2, 0.9, 0.25), confidence: 0.87654 }),
      text('Header', 'Highlights', { level: 2 }),
      text('List Items', 'First point', { listDepth: 0, listMarker: '1.', ordered: true }),
      text('List Items', 'Sub point', { listDepth: 1, listMarker: '-', ordered: false }),
      text('List Items', 'Second point', { listDepth: 0, listMarker: '2.', ordered: true }),
      figure({ box: box(0.2, 0.5, 0.8, 0.7), caption: 'Figure 1: Revenue' }),
      text('caption', 'Figure 1: Revenue', { captionFor: 'fig-1' }),
      text('Page Number', '1'),
    ], {
      words: [{ text: 'Revenue', box: box(0.1, 0.2, 0.2, 0.25), confidence: 0.9 }],
      selectionMarks: [{ box: box(0.5, 0.5, 0.52, 0.52), state: 'selected', confidence: 0.8 }],
    }),
    page(2, [
      table([
        ['Region', 'Q1', 'Q2'],
        [{ text: 'North', rowSpan: 2 }, '10', '12'],
        [null, '11', '13'],
        ['South', { text: 'n/a', colSpan: 2 }, null],
      ], { headerRows: 1, box: box(0, 0, 0.6, 0.4) }),
      text('Footer', '1 See the appendix.', { extra: { footnote: true } }),
      text('Footer', 'Confidential'),
    ]),
  ]);
  return assignIds(d);
}

/** Every text-like, table, cell and image id in bounding_boxes. */
function allIds(bb: BoundingBoxes): Set<string> {
  const ids = new Set<string>();
  for (const [k, v] of Object.entries(bb)) {
    if (!Array.isArray(v)) continue;
    for (const item of v as Record<string, unknown>[]) {
      if (k === 'Tables') {
        const t = item as unknown as NonNullable<BoundingBoxes['Tables']>[number];
        ids.add(t.table_info.id);
        t.cell_data.forEach((c) => ids.add(c.id));
      } else if (typeof item.id === 'string') ids.add(item.id);
    }
  }
  return ids;
}

describe('renderExtraction', () => {
  let out: ExtractionOutput;
  beforeAll(() => { out = renderExtraction(sample(), { detectSelections: true }); });

  it('emits text-like elements with prefixes, polygons, pages and confidence', () => {
    const bb = out.bounding_boxes;
    expect(bb.Title).toEqual([{ id: 'txt-2', content: '# Annual Report', original_content: 'Annual Report', bounding_box: [0.1, 0.1, 0.9, 0.1, 0.9, 0.15, 0.1, 0.15], page_number: 1, average_word_confidence: 1 }]);
    expect(bb.Header?.map((h) => h.content)).toEqual(['ACME Corp annual report', '## Highlights']);
    expect(bb.Text?.[0].average_word_confidence).toBe(0.8765);
    expect(bb['List Items']?.map((l) => l.content)).toEqual(['1. First point', '  - Sub point', '2. Second point']);
    expect(bb.Header?.[1].bounding_box).toBeNull();
    expect(bb['Page Number']?.[0].page_number).toBe(1);
    expect(bb.Footer?.map((f) => f.page_number)).toEqual([2, 2]);
    expect(bb.Formulas).toBeUndefined();
    expect(out.page_count).toBe(2);
  });

  it('emits tables with every cell, header properties, spans and a grid fallback for cell boxes', () => {
    const [t] = out.bounding_boxes.Tables!;
    expect(t.table_info).toEqual({ id: 'tbl-1', dimensions: { rows: 4, columns: 3 }, location: { coordinates: [0, 0, 0.6, 0, 0.6, 0.4, 0, 0.4], page: 2 }, confidence: 0.9 });
    expect(t.cell_data).toHaveLength(10);
    const north = t.cell_data.find((c) => c.id === 'tbl-1-r1c0')!;
    expect(north).toEqual({ id: 'tbl-1-r1c0', position: { row: 1, column: 0 }, text: 'North', location: { coordinates: [0, 0.1, 0.2, 0.1, 0.2, 0.3, 0, 0.3], page: 2 }, confidence: 1, properties: { spans_rows: 2 } });
    expect(t.cell_data[0].properties).toEqual({ type: 'header' });
    expect(t.cell_data.find((c) => c.id === 'tbl-1-r3c1')?.properties).toEqual({ spans_columns: 2 });
    expect(t.cell_data.find((c) => c.id === 'tbl-1-r1c1')?.properties).toBeUndefined();
  });

  it('emits images, words and selection marks in the spec shapes', () => {
    expect(out.bounding_boxes.Images).toEqual([{ id: 'fig-1', visual_type: 'image', page_number: 1, bounding_box: [0.2, 0.5, 0.8, 0.5, 0.8, 0.7, 0.2, 0.7], content: 'Figure 1: Revenue' }]);
    expect((out.bounding_boxes.Words as WordBox[] | undefined)?.[0]).toEqual({ content: 'Revenue', page_number: 1, confidence: 0.9, bounding_box: [{ x: 0.1, y: 0.2 }, { x: 0.2, y: 0.2 }, { x: 0.2, y: 0.25 }, { x: 0.1, y: 0.25 }] });
    expect(out.bounding_boxes.SelectionMarks).toEqual([{ page_number: 1, state: 'selected', confidence: 0.8, polygon: [0.5, 0.5, 0.52, 0.5, 0.52, 0.52, 0.5, 0.52] }]);
  });

  it('wordsAsJson writes Words page by page as JSON text, the same JSON as the objects, in the same place', () => {
    const asJson = renderExtraction(sample(), { detectSelections: true, wordsAsJson: true });
    expect(asJson.bounding_boxes.Words).toBeInstanceOf(LazyJsonArray);
    expect(JSON.stringify(asJson)).toBe(JSON.stringify(out));
    expect(Object.keys(asJson.bounding_boxes)).toEqual(Object.keys(out.bounding_boxes));
  });

  it('omits SelectionMarks and `selected` without detectSelections', () => {
    const d = sample();
    (d.pages[0].elements[2] as { selected?: boolean }).selected = true;
    expect(renderExtraction(d).bounding_boxes.SelectionMarks).toBeUndefined();
    expect(renderExtraction(d).bounding_boxes.Text?.[0].selected).toBeUndefined();
    expect(renderExtraction(d, { detectSelections: true }).bounding_boxes.Text?.[0].selected).toBe(true);
  });

  it('writes clean markdown: headings, nested lists, tables, figures, no page furniture', () => {
    const md = out.markdown;
    expect(md).not.toMatch(/data-bb|<span/);
    expect(md).toContain('# Annual Report\n\nRevenue grew in every region.\n\n## Highlights\n\n1. First point\n  - Sub point\n2. Second point');
    expect(md).toContain('[Image]'); // caption element follows, so the placeholder does not repeat it
    expect(md).toContain('Figure 1: Revenue');
    expect(md).toContain('<table><thead><tr><th>Region</th><th>Q1</th><th>Q2</th></tr></thead><tbody><tr><td rowspan="2">North</td>');
    expect(md).toContain('1 See the appendix.');
    expect(md).not.toContain('Confidential');
    expect(md).not.toContain('ACME Corp annual report');
    expect(md).not.toMatch(/^1$/m);
    expect(md.indexOf('Annual Report')).toBeLessThan(md.indexOf('Region'));
  });

  it('puts markdown_with_ids at the top level and in bounding_boxes, and every data-bb id resolves', () => {
    expect(out.bounding_boxes.markdown_with_ids).toBe(out.markdown_with_ids);
    const ids = allIds(out.bounding_boxes);
    const found = [...out.markdown_with_ids.matchAll(/data-bb-(text|image|cell|table)-id="([^"]+)"/g)].map((m) => m[2]);
    expect(found.length).toBeGreaterThan(15);
    for (const id of found) expect(ids.has(id)).toBe(true);
    expect(found).toEqual(expect.arrayContaining(['txt-2', 'fig-1', 'tbl-1', 'tbl-1-r0c0', 'tbl-1-r3c1']));
    // every cell of every table carries its id
    const cellIds = out.bounding_boxes.Tables!.flatMap((t) => t.cell_data.map((c) => c.id));
    for (const id of cellIds) expect(found).toContain(id);
    expect(out.markdown_with_ids).toContain('# <span data-bb-text-id="txt-2">Annual Report</span>');
  });

  it('uses GFM pipe tables for plain grids', () => {
    const d = assignIds(doc([page(1, [table([['a', 'b|c'], ['1', '2']])])]));
    expect(renderExtraction(d).markdown).toBe('| a | b\\|c |\n| --- | --- |\n| 1 | 2 |');
  });

  it('shows figures by URL when show_images gives one, and descriptions when asked', () => {
    const d = assignIds(doc([page(1, [figure({ caption: 'A cat', extra: { description: 'A cat on a mat' }, visualType: 'chart' })])]));
    const o = renderExtraction(d, { imageUrl: (f) => `https://q.example/results/j1/images/${f.id}.png`, includeDescriptions: true });
    expect(o.markdown).toBe('![A cat](https://q.example/results/j1/images/fig-1.png)');
    expect(o.bounding_boxes.Images?.[0]).toMatchObject({ image_url: 'https://q.example/results/j1/images/fig-1.png', description: 'A cat on a mat', visual_type: 'chart', bounding_box: [] });
    expect(renderExtraction(d).bounding_boxes.Images?.[0].description).toBeUndefined();
    expect(renderExtraction(d).markdown).toBe('[Chart: A cat]');
  });

  it('emits spreadsheet chart metadata on Images', () => {
    const d = assignIds(doc([page(1, [figure({
      visualType: 'chart', box: box(0, 0, 1, 1),
      spreadsheet: { sheetName: 'Data', sheetIndex: 0, workbookSheetIndex: 1, excelRange: 'B2:F20' },
      chart: { chartType: 'barChart', title: 'Sales', series: [], sourceRanges: ['Data!$B$2:$B$5'] },
    })])], { format: 'xlsx' }));
    expect(renderExtraction(d).bounding_boxes.Images?.[0]).toEqual({
      id: 'fig-1', visual_type: 'chart', page_number: 1, bounding_box: [], content: 'Sales', sheet_name: 'Data', sheet_index: 0,
      workbook_sheet_index: 1, excel_range: 'B2:F20', chart_type: 'barChart', chart_title: 'Sales', source_ranges: ['Data!$B$2:$B$5'],
    });
  });

  it('maps footnote references only when asked', () => {
    const d = sample();
    d.footnotes = [{ symbol: '1', footnoteTextId: 'txt-11', referenceTextIds: ['txt-3'] }];
    expect(renderExtraction(d).extensions).toEqual({});
    expect(renderExtraction(d, { footnoteReferences: true }).extensions.footnoteReferences).toEqual([{ symbol: '1', footnoteTextId: 'txt-11', referenceTextIds: ['txt-3'] }]);
  });

  it('assigns ids to a document that has none, and is stable across runs', () => {
    const raw = doc([page(1, [text('Text', 'hello'), table([['x']])])]);
    const a = renderExtraction(raw);
    expect(a.bounding_boxes.Text?.[0].id).toBe('txt-1');
    expect(a.bounding_boxes.Tables?.[0].cell_data[0].id).toBe('tbl-1-r0c0');
    expect(renderExtraction(raw)).toEqual(a);
  });

  it('escapes paragraph text that would read as markdown syntax', () => {
    const d = doc([page(1, [text('Text', '# not a heading'), text('Text', '1. not a list'), text('Text', '-5 degrees')])]);
    expect(renderExtraction(d).markdown).toBe('\\# not a heading\n\n1\\. not a list\n\n-5 degrees');
  });

  it('fences preformatted text so code is never read as markup', () => {
    const d = doc([page(1, [text('Text', '<script src="x.js"></script>\n  indented', { extra: { code: true } })])]);
    const o = renderExtraction(d);
    expect(o.markdown).toBe('```\n<script src="x.js"></script>\n  indented\n```');
    expect(o.markdown_with_ids).toContain('data-bb-text-id="txt-1"');
  });

  it('renders legacy html with nested lists when asked', () => {
    const o = renderExtraction(sample(), { returnHtml: true });
    expect(o.html).toContain('<h1>Annual Report</h1>');
    expect(o.html).toContain('<ol>\n<li>First point\n<ul>\n<li>Sub point\n</li></ul>\n</li>\n<li>Second point\n</li></ol>');
    expect(renderExtraction(sample()).html).toBeUndefined();
  });
});

describe('renderPageResults (live page events)', () => {
  it('gives each page its part of the markdown, and each element its box and its span in it', () => {
    const d = sample();
    const pages = renderPageResults(d);
    expect(pages.map((p) => p.page)).toEqual([1, 2]);
    // the pages' markdown is the document's, cut at page boundaries
    expect(`${pages[0].markdown}\n\n${pages[1].markdown}`).toBe(renderExtraction(d).markdown);
    for (const p of pages) {
      const spans = p.elements.map((e) => e.markdown_span);
      expect(spans[0][0]).toBe(0);
      expect(spans.at(-1)![1]).toBe(p.markdown.length);
      // between two elements only the separator: a line break inside a list, a blank line otherwise
      spans.slice(1).forEach(([start], i) => {
        const gap = p.markdown.slice(spans[i][1], start);
        expect(gap).toBe(p.elements[i].type === 'list' && p.elements[i + 1].type === 'list' ? '\n' : '\n\n');
      });
    }
    const first = pages[0];
    const slice = (i: number) => first.markdown.slice(...first.elements[i].markdown_span);
    expect(first.elements.map((e) => e.type)).toEqual(['heading', 'text', 'heading', 'list', 'list', 'list', 'figure', 'text']);
    expect(slice(0)).toBe('# Annual Report');
    expect(first.elements[0]).toEqual(expect.objectContaining({ category: 'Title', bounding_box: [0.1, 0.1, 0.9, 0.1, 0.9, 0.15, 0.1, 0.15] }));
    expect(slice(1)).toBe('Revenue grew in every region.');
    expect(first.elements[3].bounding_box).toBeNull(); // no geometry in the source
    // page furniture (the running header, the page number) is left out, as in the markdown
    expect(first.markdown).not.toContain('ACME Corp');
    expect(pages[1].elements.map((e) => e.type)).toEqual(['table', 'text']);
    expect(pages[1].elements[0].category).toBeUndefined();
  });
});

describe('list labels', () => {
  it('numbers decimal-labelled items as a markdown list and keeps any other label the document shows as the item\'s first words', () => {
    const d = doc([page(1, [
      text('List Items', 'First section', { listDepth: 0, listMarker: '1.', ordered: true }),
      text('List Items', 'Sub one', { listDepth: 1, listMarker: '1.1.', ordered: true }),
      text('List Items', 'Sub two', { listDepth: 1, listMarker: '1.2.', ordered: true }),
      text('List Items', 'Option', { listDepth: 1, listMarker: 'b)', ordered: true }),
      text('List Items', 'Clause', { listDepth: 1, listMarker: '(iv)', ordered: true }),
      text('List Items', 'Second section', { listDepth: 0, listMarker: '2)', ordered: true }),
      text('List Items', 'Bullet', { listDepth: 0, listMarker: '•', ordered: false }),
    ])]);
    const out = renderExtraction(d, { returnHtml: true });
    expect(out.markdown).toBe(['1. First section', '  - 1.1. Sub one', '  - 1.2. Sub two', '  - b) Option', '  - (iv) Clause', '2. Second section', '- Bullet'].join('\n'));
    expect(out.html).toBe('<ol>\n<li>First section\n<ul>\n<li>1.1. Sub one\n</li>\n<li>1.2. Sub two\n</li>\n<li>b) Option\n</li>\n<li>(iv) Clause\n</li></ul>\n</li>\n<li>Second section\n</li></ol>\n<ul>\n<li>Bullet\n</li></ul>');
  });
});

describe('text that reads as HTML', () => {
  it('escapes a tag-like "<" and an entity-like "&" in text, headings, list items, pipe-table cells and figure labels', () => {
    const t = table([['a <b> tag', 'AT&amp;T'], ['x', 'y']]);
    const d = doc([page(1, [
      text('Header', 'The <m:oMath> element', { level: 2 }),
      text('Text', 'Siblings inside one <w:p>, 1 < 2 & 3 > 2.'),
      text('List Items', 'use &nbsp; here', { listDepth: 0, listMarker: '-', ordered: false }),
      t,
      figure({ visualType: 'chart', chart: { chartType: 'bar', title: '<Sales>', series: [], sourceRanges: [] } }),
    ])]);
    expect(renderExtraction(d).markdown).toBe([
      '## The &lt;m:oMath> element', '', 'Siblings inside one &lt;w:p>, 1 < 2 & 3 > 2.', '', '- use &amp;nbsp; here', '',
      '| a &lt;b> tag | AT&amp;amp;T |', '| --- | --- |', '| x | y |', '', '[Chart: &lt;Sales>]',
    ].join('\n'));
  });
});
