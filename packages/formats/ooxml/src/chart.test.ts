import { parseChartXml } from './chart.js';
import { parseXmlTree } from './tree.js';

const wrap = (plots: string, title = '') => `<c:chartSpace xmlns:c="c" xmlns:a="a"><c:chart>${title}<c:autoTitleDeleted val="0"/><c:plotArea>${plots}</c:plotArea></c:chart></c:chartSpace>`;
const num = (f: string, pts: [number, number][], count: number, fmt = 'General') =>
  `<c:numRef><c:f>${f}</c:f><c:numCache><c:formatCode>${fmt}</c:formatCode><c:ptCount val="${count}"/>${pts.map(([i, v]) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:numCache></c:numRef>`;

describe('chart parts', () => {
  it('reads a combo chart with gaps, date categories and per-series plot types', () => {
    const xml = wrap(
      `<c:barChart><c:barDir val="bar"/><c:ser><c:tx><c:v>Literal</c:v></c:tx><c:cat>${num('S!$A$2:$A$4', [[0, 45292], [1, 45293], [2, 45294]], 3, 'm/d/yyyy')}</c:cat><c:val>${num('S!$B$2:$B$4', [[0, 1], [2, 3]], 3)}</c:val></c:ser></c:barChart>`
      + `<c:lineChart><c:ser><c:tx><c:strRef><c:f>S!$C$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>Trend</c:v></c:pt></c:strCache></c:strRef></c:tx><c:val><c:numLit><c:ptCount val="2"/><c:pt idx="0"><c:v>5</c:v></c:pt><c:pt idx="1"><c:v>6</c:v></c:pt></c:numLit></c:val></c:ser></c:lineChart>`,
      '<c:title><c:tx><c:rich><a:p><a:r><a:t>Two </a:t></a:r><a:r><a:t>plots</a:t></a:r></a:p></c:rich></c:tx></c:title>',
    );
    const c = parseChartXml(xml);
    expect(c.chartType).toBe('combo');
    expect(c.title).toBe('Two plots');
    expect(c.series.map((s) => [s.name, s.plotType])).toEqual([['Literal', 'bar'], ['Trend', 'line']]);
    expect(c.series[0].categories).toEqual(['1/1/2024', '1/2/2024', '1/3/2024']);
    expect(c.series[0].values).toEqual([1, null, 3]);
    expect(c.series[1].values).toEqual([5, 6]);
    expect(c.sourceRanges).toEqual(['S!$A$2:$A$4', 'S!$B$2:$B$4', 'S!$C$1']);
  });

  it('reads scatter x values and bubble sizes, and titles a single-series chart by its series', () => {
    const xml = wrap(`<c:bubbleChart><c:ser><c:tx><c:v>Sizes</c:v></c:tx><c:xVal>${num('S!$A$2:$A$3', [[0, 0.5], [1, 1.5]], 2)}</c:xVal><c:yVal>${num('S!$B$2:$B$3', [[0, 2], [1, 4]], 2)}</c:yVal><c:bubbleSize>${num('S!$C$2:$C$3', [[0, 10], [1, 20]], 2)}</c:bubbleSize></c:ser></c:bubbleChart>`, '<c:title/>');
    const c = parseChartXml(xml);
    expect(c.chartType).toBe('bubble');
    expect(c.title).toBe('Sizes');
    expect(c.series[0].xValues).toEqual([0.5, 1.5]);
    expect(c.series[0].values).toEqual([2, 4]);
    expect(c.series[0].bubbleSizes).toEqual([10, 20]);
    expect(c.series[0].refs).toEqual({ categories: 'S!$A$2:$A$3', values: 'S!$B$2:$B$3', bubbleSizes: 'S!$C$2:$C$3' });
  });

  it('refuses XML nested past the depth limit', () => {
    const deep = `${'<a>'.repeat(40)}${'</a>'.repeat(40)}`;
    expect(() => parseXmlTree(deep, 'deep', 20)).toThrow(expect.objectContaining({ code: 'FILE_003' }));
    expect(parseXmlTree(deep, 'deep', 64).local).toBe('a');
  });
});
