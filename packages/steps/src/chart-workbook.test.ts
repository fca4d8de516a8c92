import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { reconstructCharts } from '@quire/tables';
import { extractDocument } from '@quire/extract';
import { BLUE, RED, chartPdf } from '../../../tests/fixtures/charts/draw-chart.js';
import { chartsCsv, chartsWorkbook } from './chart-workbook.js';

async function drawnCharts() {
  const pdf = await chartPdf(
    { kind: 'column', categories: ['Q1', 'Q2', 'Q3'], axis: { min: 0, max: 40, step: 10 }, series: [{ name: 'North', values: [12, 25.5, 40], colour: BLUE }, { name: 'South', values: [8, 17.25, 22], colour: RED }] },
    { kind: 'line', categories: ['Mon', 'Tue', 'Wed'], axis: { min: 0, max: 10, step: 2 }, series: [{ name: 'Visits', values: [3, 7.5, 10], colour: BLUE }] },
  );
  return reconstructCharts(await extractDocument(pdf, 'pdf'), 'no series').charts;
}

describe('/charts XLSX and CSV exports', () => {
  test('the workbook holds each chart\'s series on its sheet (opened with exceljs) and a native chart of the same type', async () => {
    const charts = await drawnCharts();
    expect(charts.map((c) => c.chart_type)).toEqual(['column', 'line']);
    const bytes = await chartsWorkbook(charts);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['About', 'Chart 1 (p1)', 'Chart 2 (p2)']);
    const rows = (name: string) => (wb.getWorksheet(name)!.getSheetValues() as unknown[][]).filter(Boolean).map((r) => r.slice(1));
    expect(rows('Chart 1 (p1)')).toEqual([['Category', 'North', 'South'], ['Q1', 12, 8], ['Q2', 25.5, 17.25], ['Q3', 40, 22]]);
    expect(rows('Chart 2 (p2)')).toEqual([['Category', 'Visits'], ['Mon', 3], ['Tue', 7.5], ['Wed', 10]]);
    expect(String(rows('About')[1][5])).toMatch(/vector drawing/);

    const zip = await JSZip.loadAsync(bytes);
    const chart1 = await zip.file('xl/charts/chart1.xml')!.async('string');
    expect(chart1).toContain('<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>');
    expect(chart1).toContain("<c:f>'Chart 1 (p1)'!$B$2:$B$4</c:f>");
    expect(await zip.file('xl/charts/chart2.xml')!.async('string')).toContain('<c:lineChart>');
    expect(await zip.file('xl/worksheets/sheet2.xml')!.async('string')).toContain('<drawing r:id="rIdQuireChart"/>');
    expect(await zip.file('[Content_Types].xml')!.async('string')).toContain('/xl/charts/chart2.xml');
    // the same charts give the same bytes (results compare equal across runs and job threads)
    await new Promise((r) => setTimeout(r, 1100));
    expect(Buffer.from(await chartsWorkbook(charts)).equals(Buffer.from(bytes))).toBe(true);
  }, 60_000);

  test('the whole-extraction CSV has one row per point', async () => {
    const charts = await drawnCharts();
    const lines = chartsCsv(charts).trim().split('\r\n');
    expect(lines[0]).toBe('chart_id,page,chart_type,series,category,x,value');
    expect(lines).toHaveLength(1 + 6 + 3);
    expect(lines[1]).toBe(`${charts[0].id},1,column,North,Q1,,12`);
  }, 60_000);
});
