import { splitBuiltin } from './split.js';
import { boundaryProbabilities, pageSignals } from './boundaries.js';
import { packetDocument, twoInvoicesDocument, PACKET_TOPICS } from '../../../tests/fixtures/documents/packet.js';

describe('splitBuiltin', () => {
  it('splits a three-document packet into contiguous topic groups', () => {
    const out = splitBuiltin({ document: packetDocument(), topics: PACKET_TOPICS });
    expect(out.groups.map((g) => [g.topic, g.pages])).toEqual([
      ['invoice', [1, 2]],
      ['tax_form', [3, 4, 5]],
      ['lab_report', [6, 7]],
    ]);
    for (const g of out.groups) {
      expect(g.confidence).toBeGreaterThan(0.6);
      expect(g.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('keeps two same-topic documents apart at a boundary', () => {
    const out = splitBuiltin({ document: twoInvoicesDocument(), topics: PACKET_TOPICS });
    expect(out.groups.map((g) => [g.topic, g.pages])).toEqual([
      ['invoice', [1, 2]],
      ['invoice', [3]],
      ['lab_report', [4, 5]],
    ]);
  });

  it('detects boundaries from page-number resets, headers and invoice numbers', () => {
    const b = boundaryProbabilities(packetDocument().pages.map(pageSignals));
    expect(b[0]).toBe(1);
    for (const i of [2, 5]) expect(b[i]).toBeGreaterThan(0.9); // pages 3 and 6 start documents
    for (const i of [1, 3, 4, 6]) expect(b[i]).toBeLessThan(0.1); // continuation pages
  });

  it('a page printing "3" makes the two unnumbered pages before it its document\'s pages 1 and 2', () => {
    const sig = (over: Partial<ReturnType<typeof pageSignals>>) => ({ header: '', footer: '', hasTopTitle: false, ...over });
    const pages = [
      sig({ pageOf: [1, 1], fillable: false, terms: new Set(['invoice', 'total', 'amount', 'vat', 'customer']) }),
      // a fillable first page, its instructions (a new title, no widgets), then numbered pages 3 and 4
      sig({ fillable: true, terms: new Set(['form', 'tax', 'withholding', 'employee', 'step']) }),
      sig({ fillable: false, hasTopTitle: true, topTitle: 'purpose of form', terms: new Set(['form', 'tax', 'withholding', 'employee', 'purpose']) }),
      sig({ pageOf: [3, undefined], fillable: true, terms: new Set(['form', 'tax', 'withholding', 'worksheet', 'step']) }),
      sig({ pageOf: [4, undefined], terms: new Set(['form', 'tax', 'withholding', 'table', 'married']) }),
    ];
    const b = boundaryProbabilities(pages);
    expect(b[1]).toBeGreaterThan(0.9); // the implied page 1 starts the form
    expect(b[2]).toBeLessThan(0.3); // the implied page 2 continues it
    expect(b[3]).toBeLessThan(0.5);
    // the numbers after it are what keeps the instructions page with its form
    expect(boundaryProbabilities(pages.slice(0, 3))[2]).toBeGreaterThan(b[2] + 0.1);
  });

  it('follows continuity when a page has no topical words', () => {
    // page 2 of the invoice ("terms and conditions") has no invoice vocabulary but stays with it
    const out = splitBuiltin({ document: packetDocument(), topics: PACKET_TOPICS });
    expect(out.groups[0].pages).toContain(2);
  });

  it('returns no groups without topics', () => {
    expect(splitBuiltin({ document: packetDocument(), topics: [] }).groups).toEqual([]);
  });
});

describe('splitsByTopic', () => {
  it('merges the documents of one topic and keeps request order', async () => {
    const { splitsByTopic } = await import('./by-topic.js');
    const out = splitsByTopic({ groups: [
      { topic: 'invoice', pages: [1, 2], confidence: 0.9 },
      { topic: 'invoice', pages: [3], confidence: 0.6 },
      { topic: 'lab_report', pages: [4, 5], confidence: 0.8 },
    ] }, [{ name: 'lab_report' }, { name: 'invoice' }, { name: 'contract' }], [1, 2, 3, 4, 5, 6]);
    expect(out.splits.map((s) => [s.name, s.pages, s.confidence, s.documents.length])).toEqual([
      ['lab_report', [4, 5], 0.8, 1],
      ['invoice', [1, 2, 3], 0.8, 2],
      ['contract', [], 0, 0],
    ]);
    expect(out.unassigned).toEqual([6]);
  });
});

describe('boundary evidence', () => {
  const sig = (over: Partial<import('./boundaries.js').PageSignals>) => ({ header: '', footer: '', hasTopTitle: false, ...over });
  it('a change of page size or a running header that appears raises the odds of a new document', () => {
    const same = boundaryProbabilities([sig({ size: [612, 792] }), sig({ size: [612, 792] })])[1];
    expect(boundaryProbabilities([sig({ size: [612, 792] }), sig({ size: [792, 612] })])[1]).toBeGreaterThan(same + 0.3);
    expect(boundaryProbabilities([sig({}), sig({ header: 'acme annual report' })])[1]).toBeGreaterThan(boundaryProbabilities([sig({}), sig({})])[1]);
  });
  it('a repeated title is no evidence; a new one is', () => {
    const t = (title: string) => sig({ hasTopTitle: true, topTitle: title });
    expect(boundaryProbabilities([t('form w 9'), t('form w 9')])[1]).toBeLessThan(boundaryProbabilities([t('form w 9'), t('water report')])[1]);
  });
  it('an unnumbered page followed by "page 2" starts a document', () => {
    const b = boundaryProbabilities([sig({ pageOf: [1, 1] }), sig({}), sig({ pageOf: [2, undefined] })]);
    expect(b[1]).toBeGreaterThan(0.5);
    expect(b[2]).toBeLessThan(0.2);
  });
});
