import type { ChartData, FigureElement, TableCell, TableElement } from '@quire/core';

const fmt = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/**
 * A chart's cached series as a table, values exactly as stored: category charts get one row per
 * category and one column per series; scatter and bubble charts (numeric x) one row per point with the
 * x value, then each series' y (and bubble size). Series of different lengths leave cells empty.
 */
export function chartToTable(fig: FigureElement, chart: ChartData): TableElement {
  const xy = chart.series.some((s) => s.xValues && s.xValues.length);
  const header: string[] = [];
  const body: string[][] = [];
  if (xy) {
    for (const s of chart.series) {
      header.push(`${s.name || 'Series'} (x)`, s.name || 'Series');
      if (s.bubbleSizes?.length) header.push(`${s.name || 'Series'} (size)`);
    }
    const n = Math.max(...chart.series.map((s) => Math.max(s.values.length, s.xValues?.length ?? 0)));
    for (let i = 0; i < n; i++) {
      const row: string[] = [];
      for (const s of chart.series) {
        row.push(fmt(s.xValues?.[i] ?? s.categories[i]), fmt(s.values[i]));
        if (s.bubbleSizes?.length) row.push(fmt(s.bubbleSizes[i]));
      }
      body.push(row);
    }
  } else {
    header.push(chart.axes?.x?.title ?? 'Category', ...chart.series.map((s, i) => s.name || `Series ${i + 1}`));
    const cats: (string | number)[] = [];
    const seen = new Set<string>();
    for (const s of chart.series) for (const c of s.categories) if (!seen.has(String(c))) { seen.add(String(c)); cats.push(c); }
    const n = cats.length || Math.max(0, ...chart.series.map((s) => s.values.length));
    for (let i = 0; i < n; i++) {
      const cat = cats.length ? cats[i] : i + 1;
      body.push([fmt(cat), ...chart.series.map((s) => {
        const k = s.categories.length ? s.categories.findIndex((c) => String(c) === String(cat)) : i;
        return k >= 0 ? fmt(s.values[k]) : '';
      })]);
    }
  }
  const rows = [header, ...body];
  const cells: TableCell[] = [];
  rows.forEach((row, r) => row.forEach((text, c) => cells.push({
    id: `${fig.id}-r${r}c${c}`, row: r, col: c, rowSpan: 1, colSpan: 1, text, box: null, isHeader: r === 0, confidence: 1,
  })));
  return {
    kind: 'table', id: fig.id, page: fig.page, box: fig.box, rows: rows.length, cols: header.length, cells,
    confidence: 1, headerRows: 1, headerCols: xy ? 0 : 1, extra: { chartType: chart.chartType, ...(chart.title ? { title: chart.title } : {}) },
  };
}
