import type { Document, FigureElement, TableElement, TextElement } from '@quire/core';
import {
  buildDocx, cell, HEADING_STYLES, image, listPara, NUMBERING, para, PNG_1X1, row, run, styled, table, W_NS,
} from '../../../../tests/fixtures/office/docx-writer.js';
import { chartXml } from '../../../../tests/fixtures/office/chart-xml.js';
import { parse } from './index.js';

const texts = (d: Document) => d.pages.flatMap((p) => p.elements).filter((e): e is TextElement => e.kind === 'text');
const find = (d: Document, t: string) => texts(d).find((e) => e.text === t);

const HEADER = `<w:hdr ${W_NS}>${para(run('Company Confidential'))}</w:hdr>`;
const FOOTER = `<w:ftr ${W_NS}>${para(run('Page ') + '<w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple>')}${para(run('ACME Inc.'))}</w:ftr>`;
const FOOTNOTES = `<w:footnote w:type="separator" w:id="-1">${para('<w:r><w:separator/></w:r>')}</w:footnote>
  <w:footnote w:id="1">${para('<w:r><w:footnoteRef/></w:r>' + run(' A footnote.'))}</w:footnote>`;
const TEXT_BOX = `<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:docPr id="5" name="Text Box 5"/><a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent>${para(run('Boxed text'))}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>
  <mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${para(run('Boxed text'))}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`;
const CHECKBOX = (checked: boolean, label: string) => para(`<w:sdt><w:sdtPr><w14:checkbox><w14:checked w14:val="${checked ? 1 : 0}"/></w14:checkbox></w:sdtPr><w:sdtContent>${run(checked ? '☒' : '☐')}</w:sdtContent></w:sdt>${run(` ${label}`)}`);

function body(): string {
  return [
    styled('Title', 'Quarterly Report'),
    styled('Heading1', 'Overview'),
    para(`${run('Read ')}<w:hyperlink r:id="rIdLink">${run('the site')}</w:hyperlink>${run(' now.')}<w:r><w:footnoteReference w:id="1"/></w:r>`),
    styled('MyHeading', 'Custom heading'),
    para(run('Outline level heading'), '<w:outlineLvl w:val="2"/>'),
    listPara(1, 0, 'First'), listPara(1, 1, 'Sub a'), listPara(1, 1, 'Sub b'), listPara(1, 2, 'Deep'), listPara(1, 0, 'Second'),
    styled('ListBullet', 'Bullet via style'),
    table(3, [
      row(cell('Name') + cell('Q1') + cell('Q2'), true),
      row(cell('North', '<w:vMerge w:val="restart"/>') + cell('n/a', '<w:gridSpan w:val="2"/>')),
      row(cell('', '<w:vMerge/>') + cell('11') + cell('13')),
    ].join('')),
    para(image('rIdImg', 'Company logo')),
    styled('Caption', 'Figure 1: Logo'),
    para(run('Before box. ') + TEXT_BOX),
    para(`${run('Kept ')}<w:ins w:id="1" w:author="a">${run('inserted ')}</w:ins><w:del w:id="2" w:author="a"><w:r><w:delText>deleted </w:delText></w:r></w:del><w:moveFrom w:id="3" w:author="a">${run('moved away ')}</w:moveFrom>${run('end.')}`),
    CHECKBOX(true, 'Approved'), CHECKBOX(false, 'Rejected'),
    para(`${run('Dated ')}<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> DATE \\@ "yyyy-MM-dd" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${run('2024-01-01')}<w:r><w:fldChar w:fldCharType="end"/></w:r>`),
    para(run('Last on page one') + '<w:r><w:br w:type="page"/></w:r>'),
    para(run('On page two')),
    `<w:sectPr><w:headerReference w:type="default" r:id="rIdHdr"/><w:footerReference w:type="default" r:id="rIdFtr"/></w:sectPr>`,
  ].join('\n');
}

async function sample(): Promise<Document> {
  return parse(await buildDocx({
    body: body(), styles: HEADING_STYLES, numbering: NUMBERING, footnotes: FOOTNOTES,
    parts: { 'header1.xml': HEADER, 'footer1.xml': FOOTER }, media: { 'image1.png': PNG_1X1 },
    rels: [
      { id: 'rIdLink', type: 'hyperlink', target: 'https://example.com/q?a=1&b=2', external: true },
      { id: 'rIdImg', type: 'image', target: 'media/image1.png' },
      { id: 'rIdHdr', type: 'header', target: 'header1.xml' },
      { id: 'rIdFtr', type: 'footer', target: 'footer1.xml' },
    ],
  }));
}

describe('DOCX reader', () => {
  let d: Document;
  beforeAll(async () => { d = await sample(); });

  it('reads Title and heading levels from built-in styles, basedOn chains and outline levels', () => {
    expect(find(d, 'Quarterly Report')).toMatchObject({ category: 'Title', level: 1 });
    expect(find(d, 'Overview')).toMatchObject({ category: 'Header', level: 1 });
    expect(find(d, 'Custom heading')).toMatchObject({ category: 'Header', level: 2 });
    expect(find(d, 'Outline level heading')).toMatchObject({ category: 'Header', level: 3 });
  });

  it('reads nested numbered lists with markers from numbering.xml, and bullets from a list style', () => {
    const items = texts(d).filter((e) => e.category === 'List Items');
    expect(items.map((e) => [e.text, e.listDepth, e.listMarker, e.ordered])).toEqual([
      ['First', 0, '1.', true], ['Sub a', 1, 'a)', true], ['Sub b', 1, 'b)', true], ['Deep', 2, '1.b.1', true],
      ['Second', 0, '2.', true], ['Bullet via style', 0, '-', false],
    ]);
  });

  it('reads tables with gridSpan, vMerge and tblHeader rows', () => {
    const t = d.pages[0].elements.find((e): e is TableElement => e.kind === 'table')!;
    expect([t.rows, t.cols, t.headerRows, t.box]).toEqual([3, 3, 1, null]);
    const at = (r: number, c: number) => t.cells.find((x) => x.row === r && x.col === c);
    expect(at(0, 0)).toMatchObject({ text: 'Name', isHeader: true });
    expect(at(1, 0)).toMatchObject({ text: 'North', rowSpan: 2, colSpan: 1, isHeader: false });
    expect(at(1, 1)).toMatchObject({ text: 'n/a', colSpan: 2 });
    expect(at(2, 0)).toBeUndefined();
    expect(at(2, 2)).toMatchObject({ text: '13' });
    expect(t.cells).toHaveLength(7);
  });

  it('reads pictures with their bytes, alt text and caption', () => {
    const fig = d.pages[0].elements.find((e): e is FigureElement => e.kind === 'figure')!;
    expect(fig.image).toEqual({ bytes: PNG_1X1, mime: 'image/png' });
    expect(fig).toMatchObject({ text: 'Company logo', caption: 'Figure 1: Logo', visualType: 'image', box: null });
    expect(find(d, 'Figure 1: Logo')).toMatchObject({ category: 'caption', captionFor: fig.id });
  });

  it('keeps hyperlinks, footnote references and footnote text', () => {
    const p = find(d, 'Read the site now.[1]')!;
    expect(p.links).toEqual([{ text: 'the site', href: 'https://example.com/q?a=1&b=2' }]);
    const note = find(d, '1 A footnote.')!;
    expect(note.extra).toMatchObject({ footnote: true, symbol: '1' });
    expect(d.footnotes).toEqual([{ symbol: '1', footnoteTextId: note.id, referenceTextIds: [p.id] }]);
    expect(note.page).toBe(1); // at the end of the page of its reference
  });

  it('reads a text box once (not again from the VML fallback)', () => {
    expect(texts(d).filter((e) => e.text === 'Boxed text')).toHaveLength(1);
    expect(find(d, 'Boxed text')?.extra).toEqual({ textBox: true });
    expect(texts(d).findIndex((e) => e.text === 'Boxed text')).toBe(texts(d).findIndex((e) => e.text === 'Before box.') + 1);
  });

  it('resolves tracked changes to the accepted text and keeps field results', () => {
    expect(find(d, 'Kept inserted end.')).toBeDefined();
    expect(find(d, 'Dated 2024-01-01')).toBeDefined();
    expect(JSON.stringify(texts(d))).not.toMatch(/deleted|moved away|yyyy/);
  });

  it('reads content-control checkboxes as selected / unselected', () => {
    expect(find(d, '☒ Approved')?.selected).toBe(true);
    expect(find(d, '☐ Rejected')?.selected).toBe(false);
  });

  it('derives pages from explicit breaks and places headers, footers and page numbers', () => {
    expect(d.pageCount).toBe(2);
    expect(d.pages.map((p) => p.number)).toEqual([1, 2]);
    expect(find(d, 'Last on page one')?.page).toBe(1);
    expect(find(d, 'On page two')?.page).toBe(2);
    expect(d.pages[0].elements[0]).toMatchObject({ category: 'Header', text: 'Company Confidential', extra: { running: true } });
    const last = d.pages[1].elements.filter((e): e is TextElement => e.kind === 'text').slice(-2);
    expect(last.map((e) => [e.category, e.text])).toEqual([['Page Number', 'Page 1'], ['Footer', 'ACME Inc.']]);
    expect(texts(d).every((e) => e.box === null)).toBe(true);
  });

  it('assigns ids in reading order', () => {
    expect(texts(d)[0].id).toBe('txt-1');
    expect(d.pages.flatMap((p) => p.elements).filter((e) => e.kind === 'table').map((e) => e.id)).toEqual(['tbl-1']);
  });

  it('uses Word\'s rendered page breaks alone when the file has them (no double count with hard breaks)', async () => {
    const doc = await parse(await buildDocx({
      body: [
        para(run('One') + '<w:r><w:br w:type="page"/></w:r>'),
        para('<w:r><w:lastRenderedPageBreak/><w:t>Two</w:t></w:r>'),
        para(run('Still two, then') + '<w:r><w:lastRenderedPageBreak/><w:t>three</w:t></w:r>'),
        para(run('Three')),
      ].join(''),
    }));
    expect(doc.pageCount).toBe(3);
    expect(['One', 'Two', 'Still two, thenthree', 'Three'].map((t) => find(doc, t)?.page)).toEqual([1, 2, 2, 3]);
  });

  it('counts section breaks that start a new page, not continuous ones', async () => {
    const doc = await parse(await buildDocx({
      body: [
        para(run('A'), '<w:sectPr><w:type w:val="continuous"/></w:sectPr>'),
        para(run('B'), '<w:sectPr/>'),
        para(run('C')),
        '<w:sectPr><w:type w:val="nextPage"/></w:sectPr>',
      ].join(''),
    }));
    // A's section is followed by B's (nextPage by default) → break after A; B's is followed by a nextPage section → break after B.
    expect(['A', 'B', 'C'].map((t) => find(doc, t)?.page)).toEqual([1, 2, 3]);
  });

  it('refuses a package without word/document.xml and a non-zip', async () => {
    await expect(parse(await buildDocx({ body: '', omitDocument: true }))).rejects.toMatchObject({ code: 'FILE_003' });
    await expect(parse(new Uint8Array([1, 2, 3, 4]))).rejects.toMatchObject({ code: 'FILE_003' });
  });

  it('refuses a DOCTYPE in document.xml (entity expansion)', async () => {
    const bytes = await buildDocx({ body: para(run('x')) });
    const JSZip = (await import('jszip')).default;
    const zip = await JSZip.loadAsync(bytes);
    zip.file('word/document.xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><w:document><w:body/></w:document>');
    await expect(parse(await zip.generateAsync({ type: 'uint8array' }))).rejects.toMatchObject({ code: 'FILE_003' });
  });
});

describe('DOCX headings numbered through a multilevel list', () => {
  // Heading styles tied to the levels of one list (Word's "1 / 1.1 / 1.1.1" outline numbering)
  const STYLES = `${HEADING_STYLES}
    <w:style w:type="paragraph" w:styleId="NumHeading1"><w:name w:val="heading 1"/><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="7"/></w:numPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
    <w:style w:type="paragraph" w:styleId="NumHeading2"><w:name w:val="heading 2"/><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="7"/></w:numPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
    <w:style w:type="paragraph" w:styleId="NumHeading3"><w:name w:val="heading 3"/><w:pPr><w:numPr><w:ilvl w:val="2"/><w:numId w:val="7"/></w:numPr><w:outlineLvl w:val="2"/></w:pPr></w:style>`;
  const OUTLINE = `${NUMBERING}
    <w:abstractNum w:abstractNumId="7">
      <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1"/></w:lvl>
      <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>
      <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2.%3"/></w:lvl>
    </w:abstractNum>
    <w:num w:numId="7"><w:abstractNumId w:val="7"/></w:num>`;

  it('keeps each heading\'s number ("1.2.1"), from the style or the paragraph', async () => {
    const d = await parse(await buildDocx({
      styles: STYLES, numbering: OUTLINE,
      body: [
        styled('NumHeading1', 'Introduction'), para(run('Text.')),
        styled('NumHeading2', 'Background'), styled('NumHeading2', 'Scope'),
        styled('NumHeading3', 'Limits'), para(run('More text.')),
        styled('NumHeading1', 'Method'),
        para(run('Results'), '<w:pStyle w:val="Heading2"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="7"/></w:numPr>'),
      ].join(''),
    }));
    // (a document without a Title style takes its first top-level heading as its title)
    expect(texts(d).filter((e) => e.category === 'Header' || e.category === 'Title').map((e) => [e.text, e.level])).toEqual([
      ['1 Introduction', 1], ['1.1 Background', 2], ['1.2 Scope', 2], ['1.2.1 Limits', 3], ['2 Method', 1], ['2.1 Results', 2],
    ]);
    expect(texts(d).filter((e) => e.category === 'List Items')).toEqual([]);
  });

  it('reads a bullet typed in the Symbol font (private use U+F0B7) as the list marker of its text, also from a paragraph of its own', async () => {
    const symbolRun = (ch: string) => `<w:r><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr><w:t>${ch}</w:t></w:r><w:r><w:tab/></w:r>`;
    const d = await parse(await buildDocx({
      body: [
        para(run('Advantages:')),
        para(symbolRun('\uF0B7') + run('Speed of delivery')),
        para(symbolRun('\uF0A7') + run('Lower cost')),
        para('<w:r><w:sym w:font="Symbol" w:char="F0B7"/></w:r><w:r><w:tab/></w:r>' + run('Fewer steps')),
        para(symbolRun('\uF0B7')),
        para(run('Text after a bullet paragraph')),
        para(run('An ordinary closing paragraph.')),
      ].join(''),
    }));
    expect(texts(d).map((e) => [e.category, e.listMarker ?? null, e.text])).toEqual([
      ['Text', null, 'Advantages:'],
      ['List Items', '•', 'Speed of delivery'],
      ['List Items', '▪', 'Lower cost'],
      ['List Items', '•', 'Fewer steps'],
      ['List Items', '•', 'Text after a bullet paragraph'],
      ['Text', null, 'An ordinary closing paragraph.'],
    ]);
  });
});

describe('DOCX charts', () => {
  const chartRun = (rId: string) => `<w:r><w:drawing><wp:inline><wp:docPr id="2" name="Chart 2"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${rId}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  const series = [
    { name: 'North', nameRef: 'Sheet1!$B$1', cats: ['Q1', 'Q2'], catRef: 'Sheet1!$A$2:$A$3', vals: [4.3, 2.5], valRef: 'Sheet1!$B$2:$B$3' },
    { name: 'South', nameRef: 'Sheet1!$C$1', cats: ['Q1', 'Q2'], catRef: 'Sheet1!$A$2:$A$3', vals: [2.4, 4.4], valRef: 'Sheet1!$C$2:$C$3' },
  ];

  it('reads a chart\'s series, title and axis titles from its chart part (the caches Word saved), as pptx and xlsx charts', async () => {
    const d = await parse(await buildDocx({
      body: para(run('Sales by region')) + para(chartRun('rIdChart')),
      parts: { 'charts/chart1.xml': chartXml('lineChart', series, { title: 'Regional sales' }) },
      rels: [{ id: 'rIdChart', type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart', target: 'charts/chart1.xml' }],
    }));
    const fig = d.pages.flatMap((p) => p.elements).find((e): e is FigureElement => e.kind === 'figure')!;
    expect(fig.visualType).toBe('chart');
    expect(fig.text).toBe('Regional sales');
    expect(fig.chart).toMatchObject({ chartType: 'line', title: 'Regional sales', axes: { x: { title: 'Quarter' } } });
    expect(fig.chart!.series.map((s) => [s.name, s.categories, s.values, s.refs?.values])).toEqual([
      ['North', ['Q1', 'Q2'], [4.3, 2.5], 'Sheet1!$B$2:$B$3'],
      ['South', ['Q1', 'Q2'], [2.4, 4.4], 'Sheet1!$C$2:$C$3'],
    ]);
    expect(d.warnings).toEqual([]);
  });

  it('keeps a chart whose part is refused or missing as a chart without data, with a warning, and the text around it', async () => {
    const d = await parse(await buildDocx({
      body: para(run('Before')) + para(chartRun('rIdBad')) + para(chartRun('rIdGone')) + para(run('After')),
      parts: { 'charts/chart1.xml': '<!DOCTYPE x [<!ENTITY a "b">]><c:chartSpace>&a;</c:chartSpace>' }, // refused: entities are not processed
      rels: [
        { id: 'rIdBad', type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart', target: 'charts/chart1.xml' },
        { id: 'rIdGone', type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart', target: 'charts/chart9.xml' },
      ],
    }));
    const els = d.pages.flatMap((p) => p.elements);
    expect(els.map((e) => (e.kind === 'figure' ? `${e.visualType}:${e.chart ? 'data' : 'none'}` : e.kind === 'text' ? e.text : e.kind))).toEqual(['Before', 'chart:none', 'chart:none', 'After']);
    expect(d.warnings).toHaveLength(2);
    expect(d.warnings.join('\n')).toMatch(/chart1\.xml could not be read[\s\S]*chart9\.xml is missing/);
  });
});

describe('DOCX math', () => {
  const M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
  const r = (t: string) => `<m:r><m:t>${t}</m:t></m:r>`;
  const zone = (inner: string) => `<m:oMath ${M}>${inner}</m:oMath>`;
  const formulas = (d: Document) => texts(d).filter((e) => e.category === 'Formulas').map((e) => [e.text, e.extra?.latex]);

  it('reads math zones as LaTeX: inline in text as $…$, a paragraph of zones alone and m:oMathPara as displayed formulas, side-by-side zones apart', async () => {
    const d = await parse(await buildDocx({
      body: para(zone(r('a=b')) + zone(r('c=d')) + zone(r('e=f')))
        + para(run('Let ') + zone(r('x')) + run(' be given.'))
        + `<w:p><m:oMathPara ${M}>${zone(r('y=1'))}${zone(r('z=2'))}</m:oMathPara></w:p>`,
    }));
    expect(texts(d).filter((e) => e.category !== 'Formulas').map((e) => e.text)).toEqual(['Let $x$ be given.']);
    expect(formulas(d)).toEqual([['a=b', true], ['c=d', true], ['e=f', true], ['y=1', true], ['z=2', true]]);
  });

  it('writes the structure Word draws: fractions, scripts, radicals, n-ary operators, delimiters, functions, accents, matrices, normal text', async () => {
    const e = (x: string) => `<m:e>${x}</m:e>`;
    const body = [
      `<m:f><m:num>${r('a')}</m:num><m:den>${r('b')}</m:den></m:f>`,
      `<m:sSup>${e(r('x'))}<m:sup>${r('2')}</m:sup></m:sSup>`,
      `<m:sSub>${e(r('y'))}<m:sub>${r('i')}</m:sub></m:sSub>`,
      `<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/>${e(r('z'))}</m:rad>`,
      `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r('n=1')}</m:sub><m:sup>${r('∞')}</m:sup>${e(r('n'))}</m:nary>`,
      `<m:d>${e(r('p'))}${e(r('q'))}</m:d>`,
      `<m:func><m:fName>${r('sin')}</m:fName>${e(r('θ'))}</m:func>`,
      `<m:acc><m:accPr><m:chr m:val="\u20d7"/></m:accPr>${e(r('v'))}</m:acc>`,
      `<m:m><m:mr>${e(r('1'))}${e(r('0'))}</m:mr><m:mr>${e(r('0'))}${e(r('1'))}</m:mr></m:m>`,
      `<m:r><m:rPr><m:nor/></m:rPr><m:t>cost in %</m:t></m:r>`,
    ];
    const d = await parse(await buildDocx({ body: body.map((b) => para(zone(b))).join('') }));
    expect(formulas(d).map((f) => f[0])).toEqual([
      '\\frac{a}{b}', 'x^{2}', 'y_{i}', '\\sqrt{z}', '\\sum_{n=1}^{\\infty} n', '\\left(p | q\\right)', '\\sin \\theta',
      '\\vec{v}', '\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}', '\\text{cost in \\%}',
    ]);
  });
});
