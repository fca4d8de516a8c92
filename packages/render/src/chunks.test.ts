import { assignIds } from '@quire/core';
import { renderExtraction } from './render-extraction.js';
import { doc, page, table, text } from '../test/test-doc.js';

const para = (n: number, len: number) => text('Text', `Paragraph ${n} ${'lorem ipsum '.repeat(Math.ceil(len / 12))}`.slice(0, len).trim() + '.');

describe('chunks', () => {
  it('follow element boundaries and start a new chunk at a heading once there is body text', () => {
    const d = assignIds(doc([
      page(1, [text('Title', 'Guide', { level: 1 }), text('Header', 'Intro', { level: 2 }), para(1, 200), text('Header', 'Usage', { level: 2 }), para(2, 200)]),
      page(2, [para(3, 200), text('Header', 'Limits', { level: 2 }), para(4, 100)]),
    ]));
    const { chunks } = renderExtraction(d, { chunkSize: 1000 });
    expect(chunks.map((c) => c.element_ids)).toEqual([['txt-1', 'txt-2', 'txt-3'], ['txt-4', 'txt-5', 'txt-6'], ['txt-7', 'txt-8']]);
    expect(chunks.map((c) => c.page_numbers)).toEqual([[1], [1, 2], [2]]);
    expect(chunks[0].content.startsWith('# Guide\n\n## Intro\n\nParagraph 1')).toBe(true);
    expect(chunks.map((c) => c.chunk_id)).toEqual(['chunk-1', 'chunk-2', 'chunk-3']);
  });

  it('close before passing the size, carrying a trailing heading into the next chunk', () => {
    const d = assignIds(doc([page(1, [para(1, 300), para(2, 300), text('Header', 'Next', { level: 2 }), para(3, 300)])]));
    const { chunks } = renderExtraction(d, { chunkSize: 650 });
    expect(chunks.map((c) => c.element_ids)).toEqual([['txt-1', 'txt-2'], ['txt-3', 'txt-4']]);
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(650);
  });

  it('split a paragraph longer than the size inside itself, keeping its id on every piece', () => {
    const d = assignIds(doc([page(1, [text('Text', Array.from({ length: 40 }, (_, i) => `Sentence number ${i} is here.`).join(' '))])]));
    const { chunks } = renderExtraction(d, { chunkSize: 200 });
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(200);
      expect(c.element_ids).toEqual(['txt-1']);
    }
    expect(chunks.map((c) => c.content).join(' ')).toBe(d.pages[0].elements[0].kind === 'text' ? d.pages[0].elements[0].text : '');
  });

  it('split a large table between rows and repeat the header row', () => {
    const rows = [['Name', 'Value'], ...Array.from({ length: 60 }, (_, i) => [`item ${i}`, `${i * 7}`])];
    const d = assignIds(doc([page(1, [table(rows, { headerRows: 1 })])]));
    const { chunks } = renderExtraction(d, { chunkSize: 300 });
    expect(chunks.length).toBeGreaterThan(3);
    const bodyRows: string[] = [];
    for (const c of chunks) {
      const lines = c.content.split('\n');
      expect(lines[0]).toBe('| Name | Value |');
      expect(lines[1]).toBe('| --- | --- |');
      for (const l of lines.slice(2)) expect(l).toMatch(/^\| item \d+ \| \d+ \|$/);
      bodyRows.push(...lines.slice(2));
      expect(c.element_ids).toEqual(['tbl-1']);
      expect(c.content.length).toBeLessThanOrEqual(300);
    }
    expect(bodyRows).toEqual(rows.slice(1).map((r) => `| ${r[0]} | ${r[1]} |`));
  });

  it('repeat the first row of a table without marked headers, as GFM shows it as the header', () => {
    const rows = [['Name', 'Value'], ...Array.from({ length: 30 }, (_, i) => [`item ${i}`, `${i}`])];
    const { chunks } = renderExtraction(assignIds(doc([page(1, [table(rows)])])), { chunkSize: 200 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.content.startsWith('| Name | Value |\n| --- | --- |\n| item')).toBe(true);
  });

  it('never cut a table through a row span', () => {
    const grid = [['H1', 'H2'], ...Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? [{ text: `group ${i}`, rowSpan: 2 }, `a${i}`] : [null, `b${i}`]))];
    const d = assignIds(doc([page(1, [table(grid, { headerRows: 1 })])]));
    const { chunks } = renderExtraction(d, { chunkSize: 250 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.content.startsWith('<table><thead><tr><th>H1</th><th>H2</th></tr></thead>')).toBe(true);
      const groups = c.content.match(/rowspan="2">group \d+/g) ?? [];
      const partners = c.content.match(/<td>b\d+<\/td>/g) ?? [];
      expect(groups.length).toBe(partners.length); // each span's second row travels with it
    }
  });

  it('cut a long table in work linear in its cells, not one pass over every cell per chunk', () => {
    const rows = [['Name', 'Value', 'Note'], ...Array.from({ length: 3000 }, (_, i) => [`item ${i}`, `${i * 7}`, `n${i % 13}`])];
    const t = table(rows, { headerRows: 1 });
    t.cells.reverse(); // cell order is not row order
    let reads = 0;
    t.cells = new Proxy(t.cells, { get(target, key, recv) { if (typeof key === 'string' && /^\d+$/.test(key)) reads++; return Reflect.get(target, key, recv); } });
    const { chunks, markdown } = renderExtraction(assignIds(doc([page(1, [t])])), { chunkSize: 300 });
    expect(chunks.length).toBeGreaterThan(300);
    const body = chunks.flatMap((c) => c.content.split('\n').slice(2));
    expect(body).toEqual(markdown.split('\n').slice(2));
    expect(reads).toBeLessThan(20 * t.cells.length); // the old per-chunk scan read ~300× the cells
  });

  it('use 1000 characters when no size is given', () => {
    const d = assignIds(doc([page(1, Array.from({ length: 10 }, (_, i) => para(i, 290)))]));
    const { chunks } = renderExtraction(d);
    expect(chunks.map((c) => c.element_ids.length)).toEqual([3, 3, 3, 1]);
  });
});
