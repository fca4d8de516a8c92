import { renderExtraction } from '@quire/render';
import { CHART_ONLY_PPTX, makeChartOnlyPptx } from '../../../tests/fixtures/office/make-pptx.js';
import { CHART_ONLY_XLSX, makeChartOnlyXlsx, makeXlsx, XLSX_CHARTS } from '../../../tests/fixtures/office/make-xlsx.js';
import { extractDocument } from './pipeline.js';

/** Class 11 of issue #16: a page whose only content is an office chart still tells the reader its data. */
describe('office charts in markdown (chart_data)', () => {
  it('without chart_data a chart is its placeholder only', async () => {
    expect(renderExtraction(await extractDocument(await makeChartOnlyPptx(), 'pptx')).markdown).toBe(`[Chart: ${CHART_ONLY_PPTX.title}]`);
  });

  it('a chart-only slide shows the chart title and its categories × series table, with the figure id', async () => {
    const out = renderExtraction(await extractDocument(await makeChartOnlyPptx(), 'pptx'), { chartData: true });
    const [fig] = out.bounding_boxes.Images ?? [];
    expect(fig).toMatchObject({ visual_type: 'chart', chart_title: CHART_ONLY_PPTX.title });
    expect(out.markdown).toBe([
      `[Chart: ${CHART_ONLY_PPTX.title}]`,
      '',
      '|  | Hardware | Services |',
      '| --- | --- | --- |',
      '| Europe | 41.5 | 18 |',
      '| Americas | 77 | 23.25 |',
      '| Pacific | 12 | 9 |',
    ].join('\n'));
    // markdown_with_ids: the placeholder and the data table both carry the chart's element id
    expect(out.markdown_with_ids).toContain(`<span data-bb-image-id="${fig.id}">[Chart: ${CHART_ONLY_PPTX.title}]</span>`);
    expect(out.markdown_with_ids).toContain(`<table data-bb-image-id="${fig.id}"><tr><th></th><th>Hardware</th><th>Services</th></tr><tr><td>Europe</td><td>41.5</td><td>18</td></tr>`);
    // return_html shows the same table inside the figure
    expect(renderExtraction(await extractDocument(await makeChartOnlyPptx(), 'pptx'), { chartData: true, returnHtml: true }).html)
      .toContain('<figure><table><tr><th></th><th>Hardware</th><th>Services</th></tr>');
    // the chunk holding the chart cites it
    expect(out.chunks.find((c) => c.content.includes('| Americas | 77 | 23.25 |'))?.element_ids).toContain(fig.id);
  });

  it('a workbook with only a chartsheet (data on a hidden sheet) shows the chart title and its series table', async () => {
    const out = renderExtraction(await extractDocument(await makeChartOnlyXlsx(), 'xlsx'), { chartData: true });
    const [online, store] = CHART_ONLY_XLSX.series;
    expect(out.markdown).toContain(`[Chart: ${CHART_ONLY_XLSX.title}]`);
    expect(out.markdown).toContain(`|  | ${online.name} | ${store.name} |`);
    online.cats.forEach((month, i) => expect(out.markdown).toContain(`| ${month} | ${online.vals[i]} | ${store.vals[i]} |`));
    const fig = out.bounding_boxes.Images?.find((f) => f.visual_type === 'chart');
    expect(out.markdown_with_ids).toContain(`<table data-bb-image-id="${fig?.id}">`);
  });

  it('a workbook chart over cells the markdown already shows as a table is not repeated under the chart', async () => {
    const out = renderExtraction(await extractDocument(await makeXlsx(), 'xlsx'), { chartData: true });
    const [units, price] = XLSX_CHARTS.bar;
    expect(out.markdown).toContain('[Chart');
    expect(out.markdown).not.toContain(`|  | ${units.name} | ${price.name} |`);
  });
});
