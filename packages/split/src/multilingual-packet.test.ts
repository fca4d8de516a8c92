import { extractDocument } from '@quire/extract';
import type { Document } from '@quire/core';
import { boundaryProbabilities, pageSignals } from './boundaries.js';
import { splitBuiltin } from './split.js';
import { MULTILINGUAL_PACKET_PARTS, MULTILINGUAL_PACKET_TOPICS, makeMultilingualPacketPdf, type InvoiceLanguage } from '../../../tests/fixtures/pdf/multilingual-packet.js';

describe.each<InvoiceLanguage>(['de', 'nl', 'sv'])('splitBuiltin on a packet with a %s invoice, a fillable page and an English report', (language) => {
  let doc: Document;
  beforeAll(async () => { doc = await extractDocument(await makeMultilingualPacketPdf(language), 'pdf'); }, 120_000);

  it('the extraction keeps the fillable page\'s widgets as form evidence', () => {
    expect(doc.pages[2].extra?.form_fields).toBe(4);
    for (const i of [0, 1, 3, 4]) expect(doc.pages[i].extra?.form_fields).toBeUndefined();
  });

  it('labels the invoice "invoice", the fillable page "form" and keeps the report apart', () => {
    const out = splitBuiltin({ document: doc, topics: MULTILINGUAL_PACKET_TOPICS });
    expect(out.groups.map((g) => [g.topic, g.pages])).toEqual(MULTILINGUAL_PACKET_PARTS.map((p) => [p.topic, [...p.pages]]));
  });

  it('a page that turns fillable is evidence of a new document', () => {
    const signals = doc.pages.map(pageSignals);
    expect(signals.map((s) => s.fillable)).toEqual([false, false, true, false, false]);
    const b = boundaryProbabilities(signals);
    const blind = boundaryProbabilities(signals.map((s) => ({ ...s, fillable: undefined })));
    expect(b[2]).toBeGreaterThan(blind[2]);
    expect(b[2]).toBeGreaterThan(0.5);
  });
});
