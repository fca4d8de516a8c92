import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { ChartOutput } from '@quire/tables';

/** Package dates are fixed so that the same charts give the same bytes (results compare equal across runs and workers). */
const FIXED_DATE = new Date(Date.UTC(2000, 0, 1));

/**
 * XLSX exports of /charts: one sheet per chart holding its series as a grid (categories down column A,
 * one column per series; scatter charts an x and a y column per series) and a native chart of the same
 * type drawn from those cells, plus an "About" sheet saying where each chart came from and how its
 * values were read. exceljs writes the cells but cannot write charts, so the chart parts (DrawingML
 * chart, drawing, relationships, content types) are added to its package with JSZip.
 */

export async function chartsWorkbook(charts: readonly ChartOutput[]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Quire';
  wb.created = wb.modified = FIXED_DATE;
  const about = wb.addWorksheet('About');
  about.addRow(['sheet', 'chart id', 'page', 'chart type', 'title', 'how the values were obtained', 'uncertainty (value units)']);
  const layouts: SheetLayout[] = [];
  charts.forEach((c, i) => {
    const name = sheetName(c, i);
    const ws = wb.addWorksheet(name);
    const layout = writeGrid(ws, c, name);
    layouts.push(layout);
    about.addRow([name, c.id, c.page, c.chart_type, c.title ?? '', howRead(c), c.reading?.uncertainty ?? '']);
  });
  about.getRow(1).font = { bold: true };
  const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
  return addNativeCharts(bytes, layouts);
}

const howRead = (c: ChartOutput) => (c.reading ? `read from the PDF's vector drawing: ${c.reading.note}`
  : c.read_by ? `estimated from the chart's picture by the vision model ${c.read_by}` : 'the series cached with the office chart');

/** Sheet names: unique, at most 31 characters, none of []:*?/\ (Excel's rules). */
const sheetName = (c: ChartOutput, i: number) => `Chart ${i + 1} (p${c.page})`.replace(/[[\]:*?/\\]/g, '').slice(0, 31);

/** Where a chart's data sits on its sheet (1-based rows; columns as letters). */
interface SheetLayout {
  sheet: string;
  chart: ChartOutput;
  rows: number;
  /** Category charts: column A categories, one value column per series. Scatter: x and y columns per series. */
  series: { name: string; nameCell: string; cat?: string; x?: string; values: string }[];
}

const col = (n: number): string => (n <= 26 ? String.fromCharCode(64 + n) : col(Math.floor((n - 1) / 26)) + String.fromCharCode(65 + ((n - 1) % 26)));
const quoteSheet = (s: string) => `'${s.replace(/'/g, "''")}'`;

function writeGrid(ws: ExcelJS.Worksheet, c: ChartOutput, sheet: string): SheetLayout {
  const q = quoteSheet(sheet);
  const xy = c.series.some((s) => s.x_values?.length);
  const layout: SheetLayout = { sheet, chart: c, rows: 0, series: [] };
  if (xy) {
    const header: string[] = [];
    c.series.forEach((s) => header.push(`${s.name} (x)`, s.name));
    ws.addRow(header);
    const n = Math.max(...c.series.map((s) => s.values.length));
    for (let i = 0; i < n; i++) ws.addRow(c.series.flatMap((s) => [s.x_values?.[i] ?? null, s.values[i] ?? null]));
    layout.rows = n;
    c.series.forEach((s, k) => {
      const xc = col(2 * k + 1), yc = col(2 * k + 2);
      layout.series.push({ name: s.name, nameCell: `${q}!$${yc}$1`, x: `${q}!$${xc}$2:$${xc}$${n + 1}`, values: `${q}!$${yc}$2:$${yc}$${n + 1}` });
    });
  } else {
    ws.addRow([c.axes.x.title ?? 'Category', ...c.series.map((s) => s.name)]);
    const cats = c.series[0]?.categories ?? [];
    const n = Math.max(cats.length, ...c.series.map((s) => s.values.length));
    for (let i = 0; i < n; i++) ws.addRow([cats[i] ?? i + 1, ...c.series.map((s) => s.values[i] ?? null)]);
    layout.rows = n;
    c.series.forEach((s, k) => {
      const vc = col(k + 2);
      layout.series.push({ name: s.name, nameCell: `${q}!$${vc}$1`, cat: `${q}!$A$2:$A$${n + 1}`, values: `${q}!$${vc}$2:$${vc}$${n + 1}` });
    });
  }
  ws.getRow(1).font = { bold: true };
  return layout;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const NS = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** The DrawingML plot element for a chart type name such as "column-stacked", "bar", "line", "pie", "scatter". */
function plotXml(l: SheetLayout): string {
  const type = l.chart.chart_type;
  const base = type.split(/[-+]/)[0];
  const grouping = type.includes('percent-stacked') ? 'percentStacked' : type.includes('stacked') ? 'stacked' : 'standard';
  const ser = (s: SheetLayout['series'][number], i: number, body: string) =>
    `<c:ser><c:idx val="${i}"/><c:order val="${i}"/><c:tx><c:strRef><c:f>${esc(s.nameCell)}</c:f></c:strRef></c:tx>${body}</c:ser>`;
  const catVal = (s: SheetLayout['series'][number]) => `<c:cat><c:strRef><c:f>${esc(s.cat!)}</c:f></c:strRef></c:cat><c:val><c:numRef><c:f>${esc(s.values)}</c:f></c:numRef></c:val>`;
  const axes = '<c:axId val="1001"/><c:axId val="1002"/>';
  const catAx = (pos: string) => `<c:catAx><c:axId val="1001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/><c:crossAx val="1002"/></c:catAx>`;
  const valAx = (id: number, cross: number, pos: string, log: boolean) => `<c:valAx><c:axId val="${id}"/><c:scaling>${log ? '<c:logBase val="10"/>' : ''}<c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="${pos}"/><c:majorGridlines/><c:crossAx val="${cross}"/></c:valAx>`;
  const log = l.chart.reading?.value_scale === 'log';
  switch (base) {
    case 'pie': case 'doughnut':
      return `<c:pieChart><c:varyColors val="1"/>${l.series.map((s, i) => ser(s, i, catVal(s))).join('')}</c:pieChart>`;
    case 'scatter': case 'bubble':
      return `<c:scatterChart><c:scatterStyle val="lineMarker"/>${l.series.map((s, i) => ser(s, i,
        `<c:spPr><a:ln w="19050"><a:noFill/></a:ln></c:spPr><c:xVal><c:numRef><c:f>${esc(s.x!)}</c:f></c:numRef></c:xVal><c:yVal><c:numRef><c:f>${esc(s.values)}</c:f></c:numRef></c:yVal>`)).join('')}${axes}</c:scatterChart>`
        + valAx(1001, 1002, 'b', false) + valAx(1002, 1001, 'l', log);
    case 'line': case 'area': {
      const tag = base === 'line' ? 'lineChart' : 'areaChart';
      return `<c:${tag}><c:grouping val="${grouping}"/>${l.series.map((s, i) => ser(s, i, catVal(s))).join('')}${axes}</c:${tag}>` + catAx('b') + valAx(1002, 1001, 'l', log);
    }
    default: { // column and bar (and combined plots, written as their first type's bars)
      const dir = base === 'bar' ? 'bar' : 'col';
      const overlap = grouping === 'standard' ? '' : '<c:overlap val="100"/>';
      return `<c:barChart><c:barDir val="${dir}"/><c:grouping val="${grouping === 'standard' ? 'clustered' : grouping}"/>${l.series.map((s, i) => ser(s, i, catVal(s))).join('')}${overlap}${axes}</c:barChart>`
        + catAx(dir === 'bar' ? 'l' : 'b') + valAx(1002, 1001, dir === 'bar' ? 'b' : 'l', log);
    }
  }
}

function chartXml(l: SheetLayout): string {
  const title = l.chart.title ? `<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${esc(l.chart.title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>` : '<c:autoTitleDeleted val="1"/>';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace ${NS}><c:chart>${title}<c:plotArea><c:layout/>${plotXml(l)}</c:plotArea><c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/></c:chart></c:chartSpace>`;
}

function drawingXml(l: SheetLayout, k: number): string {
  const firstCol = Math.max(...l.series.map((_, i) => (l.series[0].x ? 2 * i + 2 : i + 2))) + 1; // right of the data
  return '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    + '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
    + `<xdr:twoCellAnchor><xdr:from><xdr:col>${firstCol}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>`
    + `<xdr:to><xdr:col>${firstCol + 8}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${Math.max(18, l.rows + 2)}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>`
    + `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${k + 2}" name="Chart ${k + 1}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>`
    + '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">'
    + '<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"/>'
    + '</a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>';
}

const rels = (items: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
const DRAWING_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing';
const CHART_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart';

/** Adds a chart part and its drawing to each chart's sheet (sheet k + 2: sheet 1 is About). */
async function addNativeCharts(bytes: Uint8Array, layouts: readonly SheetLayout[]): Promise<Uint8Array> {
  // the package is written afresh (files only, fixed dates): exceljs stamps its entries and folders with the time
  const source = await JSZip.loadAsync(bytes);
  const zip = new JSZip();
  for (const [name, entry] of Object.entries(source.files)) if (!entry.dir) zip.file(name, await entry.async('uint8array'), { date: FIXED_DATE, createFolders: false });
  let types = await zip.file('[Content_Types].xml')!.async('string');
  const overrides: string[] = [];
  for (const [k, l] of layouts.entries()) {
    const n = k + 1, sheetPath = `xl/worksheets/sheet${k + 2}.xml`, relsPath = `xl/worksheets/_rels/sheet${k + 2}.xml.rels`;
    const sheet = await zip.file(sheetPath)?.async('string');
    if (!sheet) throw new Error(`chart workbook: ${sheetPath} missing from the exceljs package`);
    zip.file(`xl/charts/chart${n}.xml`, chartXml(l), { date: FIXED_DATE, createFolders: false });
    zip.file(`xl/drawings/drawing${n}.xml`, drawingXml(l, k), { date: FIXED_DATE, createFolders: false });
    zip.file(`xl/drawings/_rels/drawing${n}.xml.rels`, rels(`<Relationship Id="rId1" Type="${CHART_REL}" Target="../charts/chart${n}.xml"/>`), { date: FIXED_DATE, createFolders: false });
    const existing = await zip.file(relsPath)?.async('string');
    const relId = 'rIdQuireChart';
    const rel = `<Relationship Id="${relId}" Type="${DRAWING_REL}" Target="../drawings/drawing${n}.xml"/>`;
    zip.file(relsPath, existing ? existing.replace('</Relationships>', `${rel}</Relationships>`) : rels(rel), { date: FIXED_DATE, createFolders: false });
    // <drawing> goes after page setup and before legacy drawings, table parts and extensions (CT_Worksheet order)
    const at = ['<legacyDrawing', '<legacyDrawingHF', '<picture', '<oleObjects', '<controls', '<webPublishItems', '<tableParts', '<extLst', '</worksheet>']
      .map((t) => sheet.indexOf(t)).filter((i) => i >= 0).sort((a, b) => a - b)[0];
    const withNs = sheet.includes('xmlns:r=') ? sheet : sheet.replace('<worksheet ', '<worksheet xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ');
    const shift = withNs.length - sheet.length;
    zip.file(sheetPath, `${withNs.slice(0, at + shift)}<drawing r:id="${relId}"/>${withNs.slice(at + shift)}`, { date: FIXED_DATE, createFolders: false });
    overrides.push(`<Override PartName="/xl/charts/chart${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`,
      `<Override PartName="/xl/drawings/drawing${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>`);
  }
  types = types.replace('</Types>', `${overrides.join('')}</Types>`);
  zip.file('[Content_Types].xml', types, { date: FIXED_DATE, createFolders: false });
  return new Uint8Array(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }));
}

/** Every chart's points in one long CSV (RFC 4180, CRLF): chart_id, page, chart_type, series, category, x, value. */
export function chartsCsv(charts: readonly ChartOutput[]): string {
  const field = (v: unknown) => { const s = v === null || v === undefined ? '' : String(v); return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s; };
  const rows: unknown[][] = [['chart_id', 'page', 'chart_type', 'series', 'category', 'x', 'value']];
  for (const c of charts) for (const s of c.series) s.values.forEach((v, i) => rows.push([c.id, c.page, c.chart_type, s.name, s.categories[i] ?? '', s.x_values?.[i] ?? '', v]));
  return rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
