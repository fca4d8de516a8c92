import { boxOf, citationLeaves, elementsAt, extractionOverlay, formOverlay, markdownSpan, valueAt } from '../../services/gateway/playground/src/elements.js';

/** The playground's pure element model (the browser test covers the drawing; these cover the shapes). */
describe('playground elements', () => {
  const result = {
    bounding_boxes: {
      Title: [{ id: 'txt-1', content: '# Report', page_number: 1, bounding_box: [0.1, 0.05, 0.5, 0.05, 0.5, 0.1, 0.1, 0.1], average_word_confidence: 0.98 }],
      Text: [{ id: 'txt-2', content: 'Body', page_number: 2, bounding_box: [0.1, 0.2, 0.9, 0.2, 0.9, 0.3, 0.1, 0.3] }],
      Tables: [{
        table_info: { id: 'tbl-1', location: { page: 1, coordinates: [0.1, 0.4, 0.6, 0.4, 0.6, 0.5, 0.1, 0.5] }, dimensions: { rows: 1, columns: 2 }, confidence: 0.9 },
        cell_data: [
          { id: 'tbl-1-r0c0', text: 'a', location: { page: 1, coordinates: [0.1, 0.4, 0.35, 0.4, 0.35, 0.5, 0.1, 0.5] }, confidence: 1 },
          { id: 'tbl-1-r0c1', text: 'b', location: { page: 1, coordinates: [0.35, 0.4, 0.6, 0.4, 0.6, 0.5, 0.35, 0.5] }, confidence: 1 },
        ],
      }],
      Images: [
        { id: 'fig-1', page_number: 1, bounding_box: [0.6, 0.6, 0.9, 0.6, 0.9, 0.9, 0.6, 0.9], visual_type: 'chart' },
        { id: 'fig-2', page_number: 1, bounding_box: [], sheet_name: 'Sheet1' },
      ],
      Words: [{ content: 'Report', page_number: 1, confidence: 0.97, bounding_box: [{ x: 0.12, y: 0.05 }, { x: 0.3, y: 0.05 }, { x: 0.3, y: 0.1 }, { x: 0.12, y: 0.1 }] }],
      SelectionMarks: [{ page_number: 2, state: 'selected', confidence: 0.8, polygon: [0.1, 0.8, 0.12, 0.8, 0.12, 0.82, 0.1, 0.82] }],
      markdown_with_ids: '',
    },
  };

  it('flattens every category into boxes, and lists what has no position', () => {
    const { drawn, unplaced } = extractionOverlay(result);
    expect(drawn.map((e) => [e.category, e.id, e.page])).toEqual([
      ['title', 'txt-1', 1], ['text', 'txt-2', 2], ['table', 'tbl-1', 1], ['cell', 'tbl-1-r0c0', 1], ['cell', 'tbl-1-r0c1', 1],
      ['figure', 'fig-1', 1], ['word', null, 1], ['selection mark', null, 2],
    ]);
    expect(drawn[0]).toMatchObject({ box: { x0: 0.1, y0: 0.05, x1: 0.5, y1: 0.1 }, confidence: 0.98, content: '# Report' });
    expect(drawn[6].box).toEqual({ x0: 0.12, y0: 0.05, x1: 0.3, y1: 0.1 });
    expect(unplaced).toEqual([{ key: 'figure:fig-2', id: 'fig-2', category: 'figure', page: 1, content: 'figure', json: result.bounding_boxes.Images[1], reason: 'the result gives it no position on a page' }]);
    expect(new Set(drawn.map((e) => e.key)).size).toBe(drawn.length);
  });

  it('reads FormCell boxes as [left, top, right, bottom]', () => {
    const { drawn } = formOverlay({ form_fields: [{ page_number: 1, type: 'text', bounding_box: [0.2, 0.3, 0.5, 0.35], text: 'Name' }, { page_number: 1, type: 'checkbox', bounding_box: 'x' }] });
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).toMatchObject({ category: 'form cell', content: 'text: Name', box: { x0: 0.2, y0: 0.3, x1: 0.5, y1: 0.35 } });
  });

  it('rejects polygons it cannot read', () => {
    expect(boxOf([0.1, 0.2, 0.3])).toBeUndefined();
    expect(boxOf([{ x: 1 }])).toBeUndefined();
    expect(boxOf('0,0,1,1')).toBeUndefined();
  });

  it('picks the smallest element under a point, words after everything else', () => {
    const { drawn } = extractionOverlay(result);
    const page1 = drawn.filter((e) => e.page === 1);
    expect(elementsAt(page1, 0.2, 0.45).map((e) => e.id)).toEqual(['tbl-1-r0c0', 'tbl-1']);
    expect(elementsAt(page1, 0.2, 0.07).map((e) => e.category)).toEqual(['title', 'word']);
    expect(elementsAt(page1, 0.95, 0.95)).toEqual([]);
  });

  it('finds an element\'s whole tag in markdown_with_ids, nested tags included', () => {
    const md = '# <span data-bb-text-id="txt-1">Report</span>\n\n<table data-bb-table-id="tbl-1"><tr><td data-bb-cell-id="tbl-1-r0c0">a<table><tr><td>x</td></tr></table></td><td data-bb-cell-id="tbl-1-r0c1">b</td></tr></table>';
    const at = (id: string) => { const s = markdownSpan(md, id)!; return md.slice(s.start, s.end); };
    expect(at('txt-1')).toBe('<span data-bb-text-id="txt-1">Report</span>');
    expect(at('tbl-1-r0c0')).toBe('<td data-bb-cell-id="tbl-1-r0c0">a<table><tr><td>x</td></tr></table></td>');
    expect(at('tbl-1')).toBe(md.slice(md.indexOf('<table data-bb-table-id')));
    expect(markdownSpan(md, 'txt-9')).toBeUndefined();
    expect(markdownSpan(md, 'txt-')).toBeUndefined(); // ids match whole, not by prefix
  });

  it('walks schema citations leaf by leaf beside their values', () => {
    const values = { name: 'ACME', lines: [{ amount: 12 }, { amount: null }] };
    const citations = { name: ['txt-1'], lines: [{ amount: ['tbl-1-r1c2'] }, { amount: null }] };
    const leaves = citationLeaves(citations);
    expect(leaves).toEqual([{ path: 'name', ids: ['txt-1'] }, { path: 'lines[0].amount', ids: ['tbl-1-r1c2'] }, { path: 'lines[1].amount', ids: [] }]);
    expect(leaves.map((l) => valueAt(values, l.path))).toEqual(['ACME', 12, null]);
  });
});
