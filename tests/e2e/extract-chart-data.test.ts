import { startTestServer, formWith, type TestServer } from '../support/embedded.js';
import { CHART_ONLY_PPTX, makeChartOnlyPptx } from '../fixtures/office/make-pptx.js';

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

describe('embedded: extensions.chart_data through HTTP', () => {
  let t: TestServer;
  let pptx: Uint8Array;
  beforeAll(async () => { t = await startTestServer(); pptx = await makeChartOnlyPptx(); });
  afterAll(() => t.close());

  it('a chart-only slide: the placeholder alone by default, the title and series table with chart_data', async () => {
    const extract = async (fields: Record<string, string>) => {
      const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pptx, name: 'chart.pptx', type: PPTX }, fields) });
      expect(res.status).toBe(200);
      return (await res.json()) as { markdown: string; markdown_with_ids: string; bounding_boxes: { Images: { id: string }[] } };
    };
    expect((await extract({})).markdown).toBe(`[Chart: ${CHART_ONLY_PPTX.title}]`);
    const body = await extract({ extensions: JSON.stringify({ chart_data: true }) });
    expect(body.markdown).toContain(`[Chart: ${CHART_ONLY_PPTX.title}]\n\n|  | Hardware | Services |\n| --- | --- | --- |\n| Europe | 41.5 | 18 |`);
    expect(body.markdown_with_ids).toContain(`<table data-bb-image-id="${body.bounding_boxes.Images[0].id}">`);
  }, 120_000);
});
