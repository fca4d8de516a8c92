import type { FigureElement, TableElement, TextElement } from '@quire/core';
import { makeXlsx, XLSX_CHARTS } from '../../../../tests/fixtures/office/make-xlsx.js';
import { parse } from './index.js';

const grid = (t: TableElement) => {
  const g: string[][] = Array.from({ length: t.rows }, () => new Array(t.cols).fill(''));
  for (const c of t.cells) g[c.row][c.col] = c.text;
  return g;
};

describe('XLSX reader', () => {
  let bytes: Uint8Array;
  beforeAll(async () => { bytes = await makeXlsx(); });

  it('drops hidden sheets and keeps both sheet indices', async () => {
    const doc = await parse(bytes);
    expect(doc.format).toBe('xlsx');
    expect(doc.pageCount).toBe(3);
    expect(doc.pages.map((p) => p.spreadsheet)).toEqual([
      { sheetName: 'Summary', sheetIndex: 0, workbookSheetIndex: 0 },
      { sheetName: 'Data', sheetIndex: 1, workbookSheetIndex: 2 },
      { sheetName: 'Chart1', sheetIndex: 2, workbookSheetIndex: 3 },
    ]);
    expect(doc.pages.map((p) => p.number)).toEqual([1, 2, 3]);
    expect(JSON.stringify(doc)).not.toContain('Secret stuff');
  });

  it('shows cells as displayed: number formats, shared/rich/inline strings, booleans, errors, cached formulas', async () => {
    const [summary] = (await parse(bytes)).pages;
    expect(summary.elements.map((e) => e.kind)).toEqual(['text', 'table', 'table', 'text']);
    const title = summary.elements[0] as TextElement;
    expect([title.category, title.text, title.spreadsheet?.excelRange]).toEqual(['Header', 'Sales Report', 'A1:D1']);
    const t = summary.elements[1] as TableElement;
    expect(t.spreadsheet?.excelRange).toBe('A2:D5');
    expect(t.headerRows).toBe(1);
    expect(grid(t)).toEqual([
      ['Region', 'Date', 'Share', 'Revenue'],
      ['North', '1/1/2024', '25.60%', '$1,234.50'],
      ['South', '2/1/2024', '50.00%', '(500.00)'],
      ['West', 'TRUE', '#DIV/0!', '1,234,567'],
    ]);
    expect(t.cells.filter((c) => c.isHeader).length).toBe(4);
  });

  it('splits blocks at empty rows and keeps lone cells as text', async () => {
    const [summary] = (await parse(bytes)).pages;
    const second = summary.elements[2] as TableElement;
    expect(second.spreadsheet?.excelRange).toBe('A8:B10');
    expect(grid(second)).toEqual([['Item', 'Qty'], ['Apples', '3'], ['Pears', '4']]);
    expect(second.headerRows).toBe(1);
    const lone = summary.elements[3] as TextElement;
    expect([lone.text, lone.spreadsheet?.excelRange, lone.spreadsheet?.sheetName]).toEqual(['Standalone note', 'F12', 'Summary']);
  });

  it('reads defined tables, charts with anchors and caches, and pictures', async () => {
    const data = (await parse(bytes)).pages[1];
    expect(data.elements.map((e) => e.kind)).toEqual(['table', 'figure', 'figure', 'figure']);
    const table = data.elements[0] as TableElement;
    expect([table.spreadsheet?.excelRange, table.headerRows, table.extra?.tableName]).toEqual(['A1:C4', 1, 'Products']);
    expect(grid(table)[3]).toEqual(['Gizmo', '30', '1.25']);
    const [line, pic, pie] = data.elements.slice(1) as FigureElement[];
    expect([line.visualType, line.box, line.spreadsheet?.excelRange, line.spreadsheet?.workbookSheetIndex]).toEqual(['chart', null, 'E2:L16', 2]);
    expect(line.chart?.chartType).toBe('line');
    expect(line.chart?.title).toBe('Units sold');
    expect(line.chart?.series.map((s) => [s.name, s.categories, s.values])).toEqual(XLSX_CHARTS.line.map((s) => [s.name, s.cats, s.vals]));
    expect(line.chart?.sourceRanges).toEqual(['Data!$B$1', 'Data!$A$2:$A$4', 'Data!$B$2:$B$4']);
    expect([pic.visualType, pic.image?.mime, pic.spreadsheet?.excelRange]).toEqual(['image', 'image/png', 'A7:C11']);
    expect([pie.chart?.chartType, pie.chart?.title, pie.chart?.series[0].values]).toEqual(['pie', 'Price split', [2.5, 4, 1.25]]);
  });

  it('reads a chartsheet as its own page', async () => {
    const sheet = (await parse(bytes)).pages[2];
    expect(sheet.elements).toHaveLength(1);
    const bar = sheet.elements[0] as FigureElement;
    expect(bar.chart?.chartType).toBe('bar');
    expect(bar.chart?.series.map((s) => s.name)).toEqual(['Units', 'Price']);
    expect(bar.spreadsheet).toEqual({ sheetName: 'Chart1', sheetIndex: 2, workbookSheetIndex: 3 });
  });

  it('honours the 1904 date system', async () => {
    const doc = await parse(await makeXlsx({ date1904: true }));
    expect(grid(doc.pages[0].elements[1] as TableElement)[1][1]).toBe('1/2/2028');
  });

  it('filters by visible sheet number and refuses sheets past the cell limit', async () => {
    const doc = await parse(bytes, { pages: [2] });
    expect(doc.pages.map((p) => p.spreadsheet?.sheetName)).toEqual(['Data']);
    await expect(parse(bytes, { limits: { maxCellsPerSheet: 5 } })).rejects.toMatchObject({ code: 'REQ_003' });
  });
});

describe('XLSX drawing text', () => {
  it('reads a text box, also inside a group, with its line breaks between words (a:br) and its fields', async () => {
    const JSZip = (await import('jszip')).default;
    const zip = await JSZip.loadAsync(await makeXlsx());
    const DR = 'xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
    const box = (text: string) => `<xdr:sp><xdr:nvSpPr><xdr:cNvPr id="9" name="TextBox 9"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr><xdr:spPr/><xdr:txBody><a:bodyPr/>${text}</xdr:txBody></xdr:sp>`;
    const anchorAt = (row: number, inner: string) => `<xdr:twoCellAnchor><xdr:from><xdr:col>0</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row + 3}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>${inner}<xdr:clientData/></xdr:twoCellAnchor>`;
    zip.file('xl/drawings/drawing1.xml', `<?xml version="1.0" encoding="UTF-8"?><xdr:wsDr ${DR}>`
      + anchorAt(20, box('<a:p><a:r><a:t>Fee Fi</a:t></a:r><a:br/><a:r><a:t>Fo Fum</a:t></a:r></a:p><a:p><a:r><a:t>Updated </a:t></a:r><a:fld id="{1}" type="datetime1"><a:t>5/1/2024</a:t></a:fld></a:p>'))
      + anchorAt(30, `<xdr:grpSp><xdr:nvGrpSpPr><xdr:cNvPr id="10" name="Group 10"/><xdr:cNvGrpSpPr/></xdr:nvGrpSpPr><xdr:grpSpPr/>${box('<a:p><a:r><a:t>In a</a:t></a:r><a:br/><a:r><a:t>group</a:t></a:r></a:p>')}</xdr:grpSp>`)
      + '</xdr:wsDr>');
    const data = (await parse(await zip.generateAsync({ type: 'uint8array' }))).pages[1];
    const boxes = data.elements.filter((e): e is TextElement => e.kind === 'text' && ['A21:D24', 'A31:D34'].includes(e.spreadsheet?.excelRange ?? ''));
    expect(boxes.map((e) => [e.text, e.spreadsheet?.excelRange])).toEqual([['Fee Fi\nFo Fum\nUpdated 5/1/2024', 'A21:D24'], ['In a\ngroup', 'A31:D34']]);
  });
});
