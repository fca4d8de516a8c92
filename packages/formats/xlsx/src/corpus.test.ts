import fs from 'node:fs';
import path from 'node:path';
import type { Document, FigureElement } from '@quire/core';
import { corpusFiles } from '../../../../scripts/lib/corpus.mjs';
import { emptyScore, scoreChart, type ExpectedChart } from '../../../../tests/fixtures/office/corpus-compare.js';
import { cellName, parseRange, rectName } from './a1.js';
import { parse } from './index.js';

/**
 * The shared corpus's XLSX files against their derived ground truth (skipped when the corpus is absent).
 * Both parts are scored in aggregate (the validation part only so: scripts/lib/corpus.mjs); the
 * expectations are regression guards at the measured level.
 */
const parts = corpusFiles('xlsx', (f) => f.endsWith('.xlsx'));
const DIR = parts.dir;
const withTruth = (files: string[]) => files.filter((f) => fs.existsSync(path.join(DIR, f.replace(/\.xlsx$/, '.expected.json'))));
const maybe = withTruth(parts.dev).length ? describe : describe.skip;

interface ExpSheet { name: string; state: string; cells: Record<string, { v: string; t?: string }>; merged: string[]; charts: (ExpectedChart & { part: string })[]; tables: { ref: string }[] }

/** Displayed text per A1 cell of one page, from its tables and text elements. */
function cellTexts(doc: Document, sheet: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const el of doc.pages.find((p) => p.spreadsheet?.sheetName === sheet)?.elements ?? []) {
    const r = parseRange(el.spreadsheet?.excelRange ?? '');
    if (!r) continue;
    if (el.kind === 'table') for (const c of el.cells) { if (c.text) out.set(cellName(r.r0 + c.row, r.c0 + c.col), c.text); }
    else if (el.kind === 'text') out.set(cellName(r.r0, r.c0), el.text);
  }
  return out;
}

function spans(doc: Document, sheet: string): Set<string> {
  const out = new Set<string>();
  for (const el of doc.pages.find((p) => p.spreadsheet?.sheetName === sheet)?.elements ?? []) {
    const r = parseRange(el.spreadsheet?.excelRange ?? '');
    if (!r) continue;
    if (el.kind === 'text') out.add(el.spreadsheet!.excelRange!);
    if (el.kind === 'table') for (const c of el.cells) if (c.rowSpan > 1 || c.colSpan > 1) out.add(rectName({ r0: r.r0 + c.row, c0: r.c0 + c.col, r1: r.r0 + c.row + c.rowSpan - 1, c1: r.c0 + c.col + c.colSpan - 1 }));
  }
  return out;
}

async function scoreFiles(files: string[]) {
  const charts = emptyScore();
  let cells = 0, cellsExact = 0, merges = 0, mergesFound = 0, tables = 0, tablesFound = 0, sheets = 0, sheetsOk = 0, hiddenLeaked = 0;
  for (const f of files) {
    const exp = JSON.parse(fs.readFileSync(path.join(DIR, f.replace(/\.xlsx$/, '.expected.json')), 'utf8')) as { sheets: ExpSheet[] };
    const doc = await parse(new Uint8Array(fs.readFileSync(path.join(DIR, f))));
    const visible = exp.sheets.filter((s) => s.state === 'visible');
    sheets += visible.length;
    visible.forEach((s, i) => { if (doc.pages[i]?.spreadsheet?.sheetName === s.name && doc.pages[i].spreadsheet?.workbookSheetIndex === exp.sheets.indexOf(s)) sheetsOk++; });
    hiddenLeaked += exp.sheets.filter((s) => s.state !== 'visible' && doc.pages.some((p) => p.spreadsheet?.sheetName === s.name)).length;
    for (const s of visible) {
      const texts = cellTexts(doc, s.name);
      for (const [ref, c] of Object.entries(s.cells)) {
        cells++;
        const got = texts.get(ref);
        if (got === c.v || (got !== undefined && c.t !== 's' && Number(got) === Number(c.v))) cellsExact++;
      }
      const sp = spans(doc, s.name);
      for (const m of s.merged) { merges++; if (sp.has(m)) mergesFound++; }
      const page = doc.pages.find((p) => p.spreadsheet?.sheetName === s.name);
      for (const t of s.tables) { tables++; if (page?.elements.some((e) => e.kind === 'table' && e.spreadsheet?.excelRange === t.ref)) tablesFound++; }
      const mine = (page?.elements ?? []).filter((e): e is FigureElement => e.kind === 'figure' && e.visualType === 'chart');
      for (const ch of s.charts) {
        const firstRef = ch.plots[0]?.series[0]?.values_ref;
        scoreChart(charts, ch, mine.find((m) => m.chart?.sourceRanges.includes(firstRef ?? ''))?.chart);
      }
    }
  }
  return { files: files.length, charts, cells, cellsExact, merges, mergesFound, tables, tablesFound, sheets, sheetsOk, hiddenLeaked };
}

const summary = (s: Awaited<ReturnType<typeof scoreFiles>>) => {
  const { charts } = s;
  return `${s.files} files, visible sheets ${s.sheetsOk}/${s.sheets} (hidden leaked: ${s.hiddenLeaked}); cells equal to the raw value ${s.cellsExact}/${s.cells}; merges ${s.mergesFound}/${s.merges}; defined tables ${s.tablesFound}/${s.tables}\n`
    + `charts exact ${charts.chartsExact}/${charts.charts} (date categories accepted as shown: ${charts.chartsExactDateAware}/${charts.charts}); series exact ${charts.seriesExact}/${charts.series}; plot types ${charts.typesExact}/${charts.types}; explicit titles ${charts.titlesExact}/${charts.titles}`;
};

maybe('XLSX corpus', () => {
  it('dev part: sheets, cell values, merges, tables and chart caches', async () => {
    const s = await scoreFiles(withTruth(parts.dev));
    console.log(`XLSX dev part: ${summary(s)}`);
    expect(s.sheetsOk).toBe(s.sheets);
    expect(s.hiddenLeaked).toBe(0);
    expect(s.mergesFound).toBe(s.merges);
    expect(s.tablesFound).toBe(s.tables);
    expect(s.charts.chartsExactDateAware).toBe(s.charts.charts);
    expect(s.charts.titlesExact).toBe(s.charts.titles);
    expect(s.cellsExact / s.cells).toBeGreaterThan(0.95);
  });

  (withTruth(parts.validation).length ? it : it.skip)('validation part (aggregates only)', async () => {
    const s = await scoreFiles(withTruth(parts.validation));
    console.log(`XLSX validation part: ${summary(s)}`);
    expect(s.sheetsOk).toBe(s.sheets);
    expect(s.hiddenLeaked).toBe(0);
    expect(s.mergesFound / Math.max(1, s.merges)).toBeGreaterThanOrEqual(0.9);
    expect(s.charts.chartsExactDateAware / Math.max(1, s.charts.charts)).toBeGreaterThanOrEqual(0.85); // measured 7/8
    expect(s.cellsExact / s.cells).toBeGreaterThan(0.95);
  });
});
