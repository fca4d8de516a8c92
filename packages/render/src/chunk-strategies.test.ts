import { assignIds, type Document } from '@quire/core';
import { renderExtraction } from './render-extraction.js';
import { box, doc, page, table, text } from '../test/test-doc.js';

/** Issue #16 class 12: the chunking strategies, on a three-page document with nested headings. */
const para = (label: string, y: number, len = 160) =>
  text('Text', `${label} ${'explains the procedure in plain words. '.repeat(Math.ceil(len / 40))}`.slice(0, len).trim() + '.', { box: box(0.1, y, 0.9, y + 0.1) });
const heading = (category: 'Title' | 'Header', t: string, level: number, y: number) => text(category, t, { level, box: box(0.1, y, 0.9, y + 0.04) });

function handbook(): Document {
  return assignIds(doc([
    page(1, [heading('Title', 'Handbook', 1, 0.05), heading('Header', 'Setup', 2, 0.12), para('Setup', 0.2), heading('Header', 'Install', 3, 0.4), para('Install', 0.5)]),
    page(2, [para('More install', 0.1), heading('Header', 'Usage', 2, 0.3), para('Usage', 0.4),
      text('List Items', 'first step', { box: box(0.1, 0.6, 0.9, 0.62) }), text('List Items', 'second step', { box: box(0.1, 0.63, 0.9, 0.65) })]),
    page(3, [heading('Header', 'Limits', 2, 0.05), para('Limits', 0.1)]),
  ]));
}

const chunksOf = (d: Document, types: ('semantic' | 'header' | 'page' | 'recursive')[], chunkSize = 1000) =>
  renderExtraction(d, { chunkSize, chunkTypes: types }).chunks;

describe('chunk_types', () => {
  it('header: one chunk per section with its heading path; a title with no body of its own opens the first section', () => {
    const chunks = chunksOf(handbook(), ['header']);
    expect(chunks.map((c) => c.heading_path)).toEqual([
      ['Handbook', 'Setup'], ['Handbook', 'Setup', 'Install'], ['Handbook', 'Usage'], ['Handbook', 'Limits'],
    ]);
    expect(chunks.map((c) => c.element_ids)).toEqual([['txt-1', 'txt-2', 'txt-3'], ['txt-4', 'txt-5', 'txt-6'], ['txt-7', 'txt-8', 'txt-9', 'txt-10'], ['txt-11', 'txt-12']]);
    expect(chunks.map((c) => c.page_numbers)).toEqual([[1], [1, 2], [2], [3]]);
    expect(chunks[1].content.startsWith('### Install\n\nInstall explains')).toBe(true);
    expect(chunks.every((c) => c.chunk_type === 'header')).toBe(true);
  });

  it('header: a section longer than chunk_size is cut at element boundaries, every part keeping the path', () => {
    const d = assignIds(doc([page(1, [heading('Header', 'Long', 2, 0), ...Array.from({ length: 6 }, (_, i) => para(`Part ${i}`, 0.1 + i * 0.12, 150))])]));
    const chunks = chunksOf(d, ['header'], 400);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.heading_path).toEqual(['Long']);
      expect(c.content.length).toBeLessThanOrEqual(400);
    }
  });

  it('page: one chunk per page holding exactly that page\'s elements and boxes', () => {
    const d = handbook();
    const chunks = chunksOf(d, ['page']);
    expect(chunks.map((c) => c.page_numbers)).toEqual([[1], [2], [3]]);
    d.pages.forEach((p, i) => {
      expect(chunks[i].element_ids).toEqual(p.elements.map((e) => e.id));
      expect(chunks[i].boxes.map((b) => [b.element_id, b.page_number])).toEqual(p.elements.map((e) => [e.id, p.number]));
    });
    expect(chunks[1].content).toContain('- first step\n- second step');
  });

  it('semantic: whole elements packed to the size, a new section starting a chunk', () => {
    const chunks = chunksOf(handbook(), ['semantic'], 400);
    expect(chunks.every((c) => c.chunk_type === 'semantic' && c.content.length <= 400)).toBe(true);
    // no chunk holds body text from two sections
    const sectionOf = (id: string) => Number(id.slice(4)) < 7 ? 'setup' : Number(id.slice(4)) < 11 ? 'usage' : 'limits';
    for (const c of chunks) expect(new Set(c.element_ids.filter((id) => !['txt-1', 'txt-2', 'txt-4', 'txt-7', 'txt-11'].includes(id)).map(sectionOf)).size).toBeLessThanOrEqual(1);
  });

  it('recursive: the markdown cut at paragraphs, lines, sentences and words to the size, each chunk naming the elements it overlaps', () => {
    const d = handbook();
    const out = renderExtraction(d, { chunkSize: 100, chunkTypes: ['recursive'] });
    const chunks = out.chunks;
    expect(chunks.length).toBeGreaterThan(8);
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(100);
      expect(c.element_ids.length).toBeGreaterThan(0);
      for (const b of c.boxes) expect(c.element_ids).toContain(b.element_id);
    }
    // nothing lost, nothing reordered: the chunks' words are the markdown's words
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    expect(chunks.flatMap((c) => words(c.content))).toEqual(words(out.markdown));
    // a paragraph cut in two names its element in both parts
    const install = d.pages[0].elements[4].id!;
    expect(chunks.filter((c) => c.element_ids.includes(install)).length).toBeGreaterThan(1);
  });

  it('several strategies: each chunk tagged with its own, numbered across all', () => {
    const chunks = chunksOf(handbook(), ['page', 'header']);
    expect(chunks.map((c) => c.chunk_type)).toEqual(['page', 'page', 'page', 'header', 'header', 'header', 'header']);
    expect(chunks.map((c) => c.chunk_id)).toEqual(chunks.map((_, i) => `chunk-${i + 1}`));
  });

  it('without chunk_types: the semantic chunks, untagged, with boxes', () => {
    const chunks = renderExtraction(handbook(), {}).chunks;
    expect(chunks.every((c) => c.chunk_type === undefined && c.heading_path === undefined)).toBe(true);
    expect(chunks[0].boxes[0]).toEqual({ element_id: 'txt-1', page_number: 1, bounding_box: [0.1, 0.05, 0.9, 0.05, 0.9, 0.09, 0.1, 0.09] });
  });
});

describe('chunk boxes of a split table', () => {
  it('name the rows the part holds, not the whole table', () => {
    const rows = [['Name', 'Value'], ...Array.from({ length: 40 }, (_, i) => [`item ${i}`, `${i * 3}`])];
    const t = table(rows, { headerRows: 1, box: box(0.1, 0.1, 0.9, 0.9) });
    const rowY = (r: number) => 0.1 + r * 0.0195;
    t.cells = t.cells.map((c) => ({ ...c, box: box(0.1 + c.col * 0.4, rowY(c.row), 0.5 + c.col * 0.4, rowY(c.row + 1)) }));
    const chunks = renderExtraction(assignIds(doc([page(1, [t])])), { chunkSize: 250 }).chunks;
    expect(chunks.length).toBeGreaterThan(2);
    let lastBottom = 0;
    for (const c of chunks) {
      const [x0, y0, , , , y1] = c.boxes[0].bounding_box;
      const first = Number(/\| item (\d+) \|/.exec(c.content)![1]);
      const last = Number([...c.content.matchAll(/\| item (\d+) \|/g)].pop()![1]);
      expect(x0).toBeCloseTo(0.1, 5);
      expect(y0).toBeCloseTo(rowY(first + 1), 4);
      expect(y1).toBeCloseTo(rowY(last + 2), 4);
      expect(y0).toBeGreaterThanOrEqual(lastBottom - 1e-9);
      lastBottom = y1;
    }
  });
});
