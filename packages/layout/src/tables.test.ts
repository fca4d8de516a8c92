import { layoutDocument } from '@quire/layout';
import type { Document, TableElement, TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

const tables = (doc: Document) => doc.pages[0].elements.filter((e): e is TableElement => e.kind === 'table');
const textOf = (doc: Document) => doc.pages[0].elements.filter((e): e is TextElement => e.kind === 'text').map((e) => e.text).join(' ');
const grid = (t: TableElement) => t.cells.map((c) => [c.row, c.col, c.rowSpan, c.colSpan, c.text, c.isHeader]);

describe('ruled tables', () => {
  it('builds the grid from rulings, with header cells, every cell and cell boxes', () => {
    const p = new PageBuilder();
    p.paragraph(72, 60, 460, `Before ${prose(20)}`);
    p.ruledGrid([72, 200, 330, 460], [120, 140, 160, 180], [['Name', 'Qty', 'Price'], ['Apple', '3', '1.20'], ['Pear', null, '0.80']]);
    p.paragraph(72, 200, 460, `After ${prose(20)}`);
    const doc = layoutDocument(input([p.build()]));
    const els = doc.pages[0].elements;
    expect(els.map((e) => e.kind)).toEqual(['text', 'table', 'text']);
    const [t] = tables(doc);
    expect([t.rows, t.cols, t.headerRows, t.cells.length]).toEqual([3, 3, 1, 9]);
    expect(grid(t)).toEqual([
      [0, 0, 1, 1, 'Name', true], [0, 1, 1, 1, 'Qty', true], [0, 2, 1, 1, 'Price', true],
      [1, 0, 1, 1, 'Apple', false], [1, 1, 1, 1, '3', false], [1, 2, 1, 1, '1.20', false],
      [2, 0, 1, 1, 'Pear', false], [2, 1, 1, 1, '', false], [2, 2, 1, 1, '0.80', false],
    ]);
    expect(t.cells[4].box).toEqual(p.box(200, 140, 330, 160));
    expect(t.cells[7].confidence).toBeNull();
    expect(t.id).toBe('tbl-1');
    expect(t.cells[5].id).toBe('tbl-1-r1c2');
    expect(textOf(doc)).not.toMatch(/Apple|Price/);
  });

  it('turns missing inner rulings into column and row spans', () => {
    const p = new PageBuilder();
    // no vertical rule between columns 1 and 2 in row 0; no horizontal rule between rows 1 and 2 in column 0
    p.ruledGrid([72, 200, 330, 460], [100, 120, 140, 160], [['Region', 'Sales 2023', null], ['North', '10', '12'], [null, '11', '13']],
      { skipV: [[0, 2]], skipH: [[2, 0]] });
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols, t.cells.length]).toEqual([3, 3, 7]);
    expect(grid(t)).toEqual([
      [0, 0, 1, 1, 'Region', true], [0, 1, 1, 2, 'Sales 2023', true],
      [1, 0, 2, 1, 'North', false], [1, 1, 1, 1, '10', false], [1, 2, 1, 1, '12', false],
      [2, 1, 1, 1, '11', false], [2, 2, 1, 1, '13', false],
    ]);
    expect(t.cells[1].box).toEqual(p.box(200, 100, 460, 120));
  });

  it('joins multi-line cell text and reads cell-background rectangles as rulings', () => {
    const p = new PageBuilder();
    const xs = [72, 220, 400], ys = [100, 120, 150, 170];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 2; c++) {
      // a 1 pt white gutter between cells shows as the grid lines
      p.rect(xs[c], ys[r], xs[c + 1] - xs[c] - 1, ys[r + 1] - ys[r] - 1, { filled: true, stroked: false, fill: r === 0 ? [0.2, 0.3, 0.6] : [0.95, 0.95, 0.9] });
    }
    p.text(76, 104, 'Term');
    p.text(224, 104, 'Meaning');
    p.text(76, 124, 'Layout');
    p.text(224, 124, 'the arrange-');
    p.text(224, 136, 'ment of text');
    p.text(76, 154, 'Order');
    p.text(224, 154, 'sequence');
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols, t.headerRows]).toEqual([3, 2, 1]);
    expect(t.cells.map((c) => c.text)).toEqual(['Term', 'Meaning', 'Layout', 'the arrangement of text', 'Order', 'sequence']);
  });

  it('splits a grid row into text rows when only the header is ruled off', () => {
    const p = new PageBuilder();
    p.hRule(72, 400, 100).hRule(72, 400, 120).hRule(72, 400, 180);
    p.vRule(72, 100, 180).vRule(220, 100, 180).vRule(400, 100, 180);
    p.text(76, 104, 'Item', { bold: true });
    p.text(224, 104, 'Cost', { bold: true });
    ['Rent 900', 'Food 300', 'Travel 120', 'Books 40'].forEach((s, i) => {
      const [a, b] = s.split(' ');
      p.text(76, 124 + i * 13, a);
      p.text(224, 124 + i * 13, b);
    });
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols, t.headerRows]).toEqual([5, 2, 1]);
    expect(t.cells.map((c) => c.text)).toEqual(['Item', 'Cost', 'Rent', '900', 'Food', '300', 'Travel', '120', 'Books', '40']);
  });

  it('draws no grid line where fills of one colour abut (row bands drawn cell by cell, padding strips)', () => {
    const p = new PageBuilder();
    const xs = [72, 200, 300, 400, 500];
    const rows = [['Region', 'Sales', 'Costs', 'Profit'], ['North', '1,200', '800', '400'], ['South', '900', '700', '200'],
      ['East', '1,500', '1,000', '500'], ['West', '600', '650', '-50']];
    const ys = rows.map((_, r) => 100 + r * 20);
    p.hRule(72, 500, 100).hRule(72, 500, 200).vRule(72, 100, 200).vRule(500, 100, 200);
    rows.forEach((row, r) => {
      p.hRule(72, 500, ys[r]);
      // every other row banded: each cell's background drawn as a 4 pt padding strip and a text strip, all one colour
      if (r % 2 === 1) for (let c = 0; c < 4; c++) {
        p.rect(xs[c], ys[r], 4, 20, { filled: true, stroked: false, fill: [0.82, 0.92, 0.95] });
        p.rect(xs[c] + 4, ys[r], xs[c + 1] - xs[c] - 4, 20, { filled: true, stroked: false, fill: [0.82, 0.92, 0.95] });
      }
      row.forEach((text, c) => p.text(xs[c] + 8, ys[r] + 5, text));
    });
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols]).toEqual([5, 4]);
    expect(t.cells.map((c) => c.text)).toEqual(rows.flat());
    expect(t.extra?.source).toBe('horizontal-rules');
  });

  it('reads a frame ruled between rows only, whose every text cell spans the full width, by text alignment', () => {
    const p = new PageBuilder();
    const rows = [['Region', 'Sales', 'Costs'], ['North', '1,200', '800'], ['South', '900', '700'], ['East', '1,500', '1,000']];
    for (let r = 0; r <= rows.length; r++) p.hRule(72, 500, 100 + r * 20);
    // frame sides and a short tick on the top edge: the grid has a column line that no text row reaches
    p.vRule(72, 100, 180).vRule(500, 100, 180).vRule(300, 100, 106);
    rows.forEach((row, r) => row.forEach((text, c) => p.text(80 + c * 140, 105 + r * 20, text)));
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols]).toEqual([4, 3]);
    expect(t.cells.map((c) => c.text)).toEqual(rows.flat());
  });

  it('does not make a table of chart gridlines with empty cells', () => {
    const p = new PageBuilder();
    for (let i = 0; i < 5; i++) p.hRule(100, 400, 100 + i * 40);
    p.vRule(100, 100, 260).vRule(400, 100, 260);
    p.text(60, 96, '100');
    expect(tables(layoutDocument(input([p.build()])))).toHaveLength(0);
  });
});

describe('borderless and partly ruled tables', () => {
  it('finds columns from whitespace consistent over rows, with empty cells', () => {
    const p = new PageBuilder();
    p.paragraph(72, 60, 460, `Intro ${prose(25)}`);
    const rows = [['Country', 'Capital', 'Population'], ['France', 'Paris', '68.1'], ['Peru', '', '34.4'], ['Japan', 'Tokyo', '124.5']];
    rows.forEach((r, i) => r.forEach((c, j) => { if (c) p.text(72 + j * 150, 120 + i * 14, c, { bold: i === 0 }); }));
    p.paragraph(72, 200, 460, `Outro ${prose(25)}`);
    const doc = layoutDocument(input([p.build()]));
    expect(doc.pages[0].elements.map((e) => e.kind)).toEqual(['text', 'table', 'text']);
    const [t] = tables(doc);
    expect([t.rows, t.cols, t.headerRows, t.cells.length]).toEqual([4, 3, 1, 12]);
    expect(t.cells.map((c) => c.text)).toEqual(rows.flat());
    expect(t.cells.filter((c) => c.isHeader).map((c) => c.text)).toEqual(['Country', 'Capital', 'Population']);
    expect(textOf(doc)).not.toMatch(/Tokyo/);
  });

  it('reads a financial statement with horizontal rules only, the rule under the first row marking the header', () => {
    const p = new PageBuilder();
    p.hRule(72, 500, 96);
    p.text(72, 100, 'Item');
    p.text(360, 100, '2023');
    p.text(450, 100, '2024');
    p.hRule(72, 500, 113);
    const body = [['Revenue', '1,200', '1,350'], ['Costs', '(800)', '(900)'], ['Profit', '400', '450']];
    body.forEach((r, i) => r.forEach((c, j) => p.text(j === 0 ? 72 : 360 + (j - 1) * 90, 118 + i * 13, c)));
    p.hRule(72, 500, 158);
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols, t.headerRows]).toEqual([4, 3, 1]);
    expect(t.cells.slice(3).map((c) => c.text)).toEqual(body.flat());
    expect(t.extra?.source).toBe('horizontal-rules');
  });

  it('takes columns from the fullest rows, so a header line over two sub-columns does not merge them', () => {
    const p = new PageBuilder();
    p.text(72, 100, 'State');
    p.text(200, 100, 'Spending');
    p.text(360, 100, 'Total');
    p.text(200, 113, 'Medical & Family');
    p.text(360, 113, 'All');
    p.text(200, 126, 'Public');
    p.text(270, 126, 'Welfare');
    const body = [['Goa', '4,055', '110', '4,165'], ['Bihar', '21,016', '4,332', '25,348'], ['Assam', '14,874', '2,554', '17,428'], ['Delhi', '28,084', '411', '28,495']];
    body.forEach((r, i) => r.forEach((c, j) => p.text([72, 200, 270, 360][j], 141 + i * 13, c)));
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols]).toEqual([7, 4]);
    expect(t.cells.filter((c) => c.row >= 3).map((c) => c.text)).toEqual(body.flat());
    expect(t.cells.find((c) => c.text === 'Medical & Family')).toMatchObject({ row: 1, col: 1, colSpan: 2 });
  });

  it('spans a header cell over the columns it covers', () => {
    const p = new PageBuilder();
    p.text(72, 100, 'Name');
    p.text(225, 100, 'Scores by year for each and every student');
    [['Ann', '10', '12'], ['Bob', '11', '9'], ['Cy', '7', '8']].forEach((r, i) =>
      r.forEach((c, j) => p.text(72 + j * 160, 114 + i * 13, c)));
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols]).toEqual([4, 3]);
    expect(t.cells[1]).toMatchObject({ row: 0, col: 1, colSpan: 2, text: 'Scores by year for each and every student' });
    expect(t.cells).toHaveLength(11);
  });

  it('does not take two columns of prose for a table', () => {
    const p = new PageBuilder();
    p.paragraph(72, 72, 220, prose(90, 1));
    p.paragraph(318, 72, 220, prose(90, 2));
    expect(tables(layoutDocument(input([p.build()])))).toHaveLength(0);
  });
});

/** Leader dots from x0 to about x1 (each dot a 5 pt word, 2.5 pt apart), as statistical tables draw them. */
function leader(p: PageBuilder, x0: number, x1: number, y: number): void {
  for (let x = x0; x + 5 <= x1; x += 7.5) p.text(x, y, '.');
}

describe('statistical tables', () => {
  it('cuts a grid ruled between column groups into the text columns of each group, joining stacked header lines and wrapped row labels', () => {
    const p = new PageBuilder();
    // rules: frame top and bottom, a rule under the group titles over the groups only, a rule under the header;
    // column rules only between the stub and the groups and between the groups
    p.hRule(72, 500, 100).hRule(200, 500, 114).hRule(72, 500, 142).hRule(72, 500, 214);
    p.vRule(200, 100, 214).vRule(350, 100, 214);
    p.text(267.5, 103, 'Men');
    p.text(412.5, 103, 'Women');
    p.text(76, 122, 'Offence');
    for (const x of [210, 360]) { p.text(x + 70, 117, 'Under'); p.text(x, 128, 'All'); p.text(x + 70, 128, '18'); }
    const body: [string, string[]][] = [['Total', ['120.5', '30.1', '90.2', '10.0']], ['Burglary', ['40.0', '10.5', '21.3', '3.2']]];
    body.forEach(([label, values], i) => {
      const y = 146 + i * 12;
      leader(p, p.text(76, y, label) + 3, 196, y);
      values.forEach((v, k) => p.text([210, 280, 360, 430][k], y, v));
    });
    // a label too long for the stub wraps: its first line has no figures, the continuation (lower case) has them
    p.text(76, 170, 'Assault causing serious');
    leader(p, p.text(80, 182, 'bodily harm') + 3, 196, 182);
    ['12.0', '2.5', '8.8', '1.1'].forEach((v, k) => p.text([210, 280, 360, 430][k], 182, v));
    leader(p, p.text(76, 194, 'Fraud') + 3, 196, 194);
    ['7.7', '0.4', '5.0', '–'].forEach((v, k) => p.text([210, 280, 360, 430][k], 194, v));

    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols, t.headerRows]).toEqual([6, 5, 2]);
    const at = (r: number, c: number) => t.cells.find((x) => x.row <= r && r < x.row + x.rowSpan && x.col <= c && c < x.col + x.colSpan)!;
    expect(at(0, 0)).toMatchObject({ text: 'Offence', rowSpan: 2 });
    expect(at(0, 1)).toMatchObject({ text: 'Men', colSpan: 2 });
    expect(at(0, 3)).toMatchObject({ text: 'Women', colSpan: 2 });
    expect([1, 2, 3, 4].map((c) => at(1, c).text)).toEqual(['All', 'Under 18', 'All', 'Under 18']);
    // the leader is whitespace for the structure (the figures are cells of their own); the label keeps the page's text
    expect(at(2, 0).text).toMatch(/^Total \. \. \./);
    expect([1, 2, 3, 4].map((c) => at(2, c).text)).toEqual(['120.5', '30.1', '90.2', '10.0']);
    expect(at(4, 0).text).toMatch(/^Assault causing serious bodily harm \. \./);
    expect([1, 2, 3, 4].map((c) => at(4, c).text)).toEqual(['12.0', '2.5', '8.8', '1.1']);
    expect([0, 1, 2, 3, 4].map((c) => at(5, c).text.replace(/[ .]+$/, ''))).toEqual(['Fraud', '7.7', '0.4', '5.0', '–']);
  });

  it('reads leader dots as the gap between a borderless table\'s labels and figures, and joins a two-line header', () => {
    const p = new PageBuilder();
    p.text(300, 100, 'Population');
    p.text(400, 100, 'Area');
    p.text(72, 111, 'Country');
    p.text(300, 111, '(millions)');
    p.text(400, 111, '(km2)');
    const rows = [['France', '68.1', '551,695'], ['Peru', '34.4', '1,285,216'], ['Japan', '124.5', '377,975'], ['Chile', '19.6', '756,102']];
    rows.forEach(([label, pop, area], i) => {
      const y = 126 + i * 12;
      // the dots run to within 7 pt of the figure: closer than a column gap, so without leader handling label, dots and figure are one fragment
      leader(p, p.text(72, y, label) + 3, 295, y);
      p.text(300, y, pop);
      p.text(400, y, area);
    });
    const [t] = tables(layoutDocument(input([p.build()])));
    expect([t.rows, t.cols, t.headerRows]).toEqual([5, 3, 1]);
    expect(t.cells.slice(0, 3).map((c) => c.text)).toEqual(['Country', 'Population (millions)', 'Area (km2)']);
    expect(t.cells.slice(3).map((c) => c.text.replace(/( \.)+$/, ''))).toEqual(rows.flat());
  });

  it('does not let a borderless table cross a rule down the page with text on both sides (a spread)', () => {
    const p = new PageBuilder(1, 1224, 792);
    p.vRule(612, 0, 792);
    // left page: a questionnaire whose options sit level with the right page's table rows
    ['Yes, at the national level', 'Yes, at regional level', 'Yes, at the local level', 'No'].forEach((s, i) => p.text(150, 300 + i * 18, s));
    p.text(1050, 282, 'State funded');
    p.text(1140, 282, 'CSOs');
    p.text(1058, 294, 'legal aid');
    ['Persons with disabilities', 'Children', 'Women', 'Migrants'].forEach((s, i) => {
      p.text(790, 312 + i * 18, s);
      p.text(1070, 312 + i * 18, '*');
      p.text(1142, 312 + i * 18, '*');
    });
    const [t, ...more] = tables(layoutDocument(input([p.build()])));
    expect(more).toHaveLength(0);
    expect([t.rows, t.cols]).toEqual([5, 3]);
    expect(t.cells.map((c) => c.text)).toEqual(['', 'State funded legal aid', 'CSOs', 'Persons with disabilities', '*', '*', 'Children', '*', '*', 'Women', '*', '*', 'Migrants', '*', '*']);
  });
});
