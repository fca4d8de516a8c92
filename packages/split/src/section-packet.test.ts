import { extractDocument } from '@quire/extract';
import type { Document } from '@quire/core';
import { boundaryProbabilities, pageSignals } from './boundaries.js';
import { splitBuiltin } from './split.js';
import { classifyBuiltin } from '@quire/classify';
import { page } from '../../../tests/fixtures/documents/builder.js';
import { SECTION_PACKET_PARTS, SECTION_PACKET_TOPICS, makeSectionPacketPdf } from '../../../tests/fixtures/pdf/section-packet.js';

describe('section-page numbers ("3 - 1")', () => {
  const footer = (n: number, text: string) => page(n, [
    { text: 'The bank reported deposits and loans in its assessment area during the period.', at: [0.1, 0.2, 0.9, 0.25] },
    { text, at: [0.47, 0.94, 0.53, 0.96], category: 'Footer' },
  ]);

  it('are read from the footer as the page within a section', () => {
    expect(pageSignals(footer(1, '3 - 1'))).toMatchObject({ pageOf: [1, undefined], section: '3' });
    expect(pageSignals(footer(1, 'A-12'))).toMatchObject({ pageOf: [12, undefined], section: 'A' });
    // a section number heading at the top of a page is no page number
    const heading = page(1, [{ text: '2-1', at: [0.1, 0.05, 0.15, 0.07], category: 'Header' }, { text: 'Scope of the survey and the regions it covers.', at: [0.1, 0.1, 0.9, 0.12] }]);
    expect(pageSignals(heading).pageOf).toBeUndefined();
  });

  it('a restart at 1 after other numbering starts a document; the next page of a section and the next chapter do not', () => {
    const b = boundaryProbabilities([footer(1, '7'), footer(2, '3 - 1'), footer(3, '3 - 2'), footer(4, '4 - 1')].map(pageSignals));
    expect(b[1]).toBeGreaterThan(0.5);
    expect(b[2]).toBeLessThan(0.05);
    expect(b[3]).toBeLessThan(0.3);
  });
});

describe('splitBuiltin on a packet with a fillable page that prints nothing and a section-numbered report', () => {
  let doc: Document;
  beforeAll(async () => { doc = await extractDocument(await makeSectionPacketPdf(), 'pdf'); }, 120_000);

  it('the fillable page has its widgets and no printed text', () => {
    expect(doc.pages[1].extra?.form_fields).toBe(4);
    expect(doc.pages[1].elements).toHaveLength(0);
  });

  it('the report\'s first page starts a document by its section-page number', () => {
    const signals = doc.pages.map(pageSignals);
    expect(signals.slice(2).map((s) => [s.pageOf?.[0], s.section])).toEqual([[1, '3'], [2, '3']]);
    const b = boundaryProbabilities(signals);
    const blind = boundaryProbabilities(signals.map((s) => ({ ...s, pageOf: undefined, section: undefined })));
    expect(b[2]).toBeGreaterThan(0.5);
    expect(b[2]).toBeGreaterThan(blind[2] + 0.3);
    expect(b[3]).toBeLessThan(0.1);
  });

  it('classifies the report\'s first page as a table report: "formed" names no form, "total assets of $4.2 billion" makes no invoice', () => {
    const out = classifyBuiltin({ document: { ...doc, pages: [doc.pages[2]] }, pipelines: SECTION_PACKET_TOPICS.map((t) => ({ id: t.name, ...t })), maxPages: 1 });
    expect(out.pipelineId).toBe('table_report');
    // a name stemmed like "formed" would lend the form pipeline a third of the probability
    expect(out.scores.find((s) => s.pipelineId === 'form')!.score).toBeLessThan(0.15);
    expect(out.scores.find((s) => s.pipelineId === 'table_report')!.score).toBeGreaterThan(0.7);
  });

  it('keeps the report apart from the form and labels it a table report, not an invoice', () => {
    const out = splitBuiltin({ document: doc, topics: SECTION_PACKET_TOPICS });
    expect(out.groups.map((g) => [g.topic, g.pages])).toEqual(SECTION_PACKET_PARTS.map((p) => [p.topic, [...p.pages]]));
  });
});
