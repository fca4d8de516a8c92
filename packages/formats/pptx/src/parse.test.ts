import JSZip from 'jszip';
import type { FigureElement, TableElement, TextElement } from '@quire/core';
import { makePptx, PPTX_CHART } from '../../../../tests/fixtures/office/make-pptx.js';
import { parse } from './index.js';

const texts = (els: unknown[]) => (els as TextElement[]).filter((e) => e.kind === 'text');

describe('PPTX reader', () => {
  let bytes: Uint8Array;
  beforeAll(async () => { bytes = await makePptx(); });

  it('orders slides by sldIdLst, not zip order, and sizes pages in points', async () => {
    const doc = await parse(bytes);
    expect(doc.format).toBe('pptx');
    expect(doc.pageCount).toBe(2);
    expect(doc.pages.map((p) => p.number)).toEqual([1, 2]);
    expect(texts(doc.pages[0].elements)[0].text).toBe('Quarterly Review');
    expect(texts(doc.pages[1].elements)[0].text).toBe('Details');
    expect(doc.pages[0].width).toBe(720);
    expect(doc.pages[0].height).toBe(540);
  });

  it('reads the title first, bullets with depth, groups with their transform, then footer text', async () => {
    const [slide] = (await parse(bytes)).pages;
    const t = texts(slide.elements);
    expect(t.map((e) => [e.category, e.text, e.listDepth])).toEqual([
      ['Title', 'Quarterly Review', undefined],
      ['List Items', 'Revenue grew', 0],
      ['List Items', 'Europe up 12%', 1],
      ['List Items', 'Asia flat', 1],
      ['List Items', 'Costs fell', 0],
      ['Text', 'No bullet here', undefined],
      ['Text', 'Group left', undefined],
      ['Text', 'Group right', undefined],
      ['Text', 'Confidential', undefined],
    ]);
    expect(t[0].level).toBe(1);
    // Title has no xfrm of its own: its box comes from the layout placeholder.
    expect(t[0].box!.x0).toBeCloseTo(457200 / 9144000, 4);
    expect(t[0].box!.y0).toBeCloseTo(300000 / 6858000, 4);
    // Group: chExt is twice the group's ext, so children are halved and shifted to the group's offset.
    const right = t.find((e) => e.text === 'Group right')!;
    expect(right.box!.x0).toBeCloseTo(2000000 / 9144000, 4);
    expect(right.box!.x1).toBeCloseTo(3000000 / 9144000, 4);
    expect(right.box!.y0).toBeCloseTo(5000000 / 6858000, 4);
    expect(right.box!.y1).toBeCloseTo(6000000 / 6858000, 4);
    expect(slide.extra?.notes).toBe('Mention the Europe numbers.\nThen take questions.');
    expect(slide.elements.every((e) => e.id)).toBe(true);
  });

  it('reads tables with spans, pictures with bytes and charts from their caches', async () => {
    const slide = (await parse(bytes)).pages[1];
    expect(slide.elements.map((e) => e.kind)).toEqual(['text', 'figure', 'table', 'figure']);
    const table = slide.elements[2] as TableElement;
    expect([table.rows, table.cols, table.headerRows]).toEqual([3, 3, 1]);
    expect(table.cells.map((c) => `${c.row},${c.col}:${c.rowSpan}x${c.colSpan}:${c.text}`)).toEqual([
      '0,0:1x1:Region', '0,1:1x2:Sales', '1,0:2x1:North', '1,1:1x1:Q1', '1,2:1x1:Q2', '2,1:1x1:10', '2,2:1x1:12',
    ]);
    expect(table.cells.filter((c) => c.isHeader).map((c) => c.text)).toEqual(['Region', 'Sales']);
    expect(table.cells[1].box!.x1).toBeCloseTo((457200 + 6000000) / 9144000, 4);
    const pic = slide.elements[1] as FigureElement;
    expect(pic.visualType).toBe('image');
    expect(pic.image?.mime).toBe('image/png');
    expect(pic.image?.bytes.length).toBeGreaterThan(20);
    expect(pic.extra?.altText).toBe('Company logo');
    const chart = slide.elements[3] as FigureElement;
    expect(chart.visualType).toBe('chart');
    expect(chart.chart?.chartType).toBe('column');
    expect(chart.chart?.title).toBe('Sales by quarter');
    expect(chart.chart?.axes?.x?.title).toBe('Quarter');
    expect(chart.chart?.series.map((s) => s.name)).toEqual(['North', 'South']);
    expect(chart.chart?.series[0].categories).toEqual(PPTX_CHART.categories);
    expect(chart.chart?.series.map((s) => s.values)).toEqual(PPTX_CHART.series.map((s) => s.vals));
    expect(chart.chart?.sourceRanges).toContain('Sheet1!$B$2:$B$4');
  });

  it('filters pages by original slide number', async () => {
    const doc = await parse(bytes, { pages: [2] });
    expect(doc.pageCount).toBe(2);
    expect(doc.pages.map((p) => p.number)).toEqual([2]);
    expect(texts(doc.pages[0].elements)[0].text).toBe('Details');
  });

  it('reports progress per slide', async () => {
    const seen: [number, number][] = [];
    await parse(bytes, { onPage: (d, t) => { seen.push([d, t]); } });
    expect(seen).toEqual([[1, 2], [2, 2]]);
  });

  it('refuses corrupt archives and keeps going past a broken slide', async () => {
    await expect(parse(new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]))).rejects.toMatchObject({ code: 'FILE_003' });
    const zip = await JSZip.loadAsync(bytes);
    zip.file('ppt/slides/slide1.xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><p:sld/>');
    const doc = await parse(await zip.generateAsync({ type: 'uint8array' }));
    expect(doc.pages[1].error?.code).toBe('PROC_005');
    expect(texts(doc.pages[0].elements)[0].text).toBe('Quarterly Review');
  });
});
