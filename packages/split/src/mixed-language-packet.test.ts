import { PDFDocument } from 'pdf-lib';
import { extractDocument } from '@quire/extract';
import type { Document } from '@quire/core';
import { splitBuiltin } from './split.js';
import { CALIBRATION_PIPELINES, makeCalibrationSet } from '../../../tests/fixtures/pdf/calibration-set.js';

/**
 * A packet assembled from the generated calibration set: invoices in Polish, Italian and Spanish between a
 * table report, a French fillable form and a German letter. Each invoice has item tables and figures, so
 * its layout speaks for the table report; its language-independent cues (invoice word, VAT number,
 * amounts) must keep it an invoice, and the letter's greeting and close must make it a letter.
 */
const ORDER = ['invoice-pl', 'table-report-housing', 'invoice-it', 'form-widgets-fr', 'letter-de', 'invoice-es'];

describe('splitBuiltin on a mixed-language packet', () => {
  let doc: Document;
  let expected: [string, number[]][];
  beforeAll(async () => {
    const set = new Map((await makeCalibrationSet()).map((d) => [d.name, d]));
    const packet = await PDFDocument.create();
    expected = [];
    for (const name of ORDER) {
      const d = set.get(name)!;
      const src = await PDFDocument.load(d.pdf);
      const indices = (d.pages ?? src.getPageIndices().map((i) => i + 1)).map((p) => p - 1);
      const first = packet.getPageCount() + 1;
      for (const p of await packet.copyPages(src, indices)) packet.addPage(p);
      expected.push([d.type!, indices.map((_, i) => first + i)]);
    }
    doc = await extractDocument(await packet.save(), 'pdf');
  }, 300_000);

  it('the copied fillable page keeps its widgets', () => {
    const formPage = expected.find(([t]) => t === 'form')![1][0];
    expect(Number(doc.pages[formPage - 1].extra?.form_fields ?? 0)).toBeGreaterThan(0);
  });

  it('labels every invoice an invoice and keeps each document apart', () => {
    const topics = CALIBRATION_PIPELINES.filter((p) => p.id !== 'contract').map((p) => ({ name: p.id, description: p.description }));
    const out = splitBuiltin({ document: doc, topics });
    expect(out.groups.map((g) => [g.topic, g.pages])).toEqual(expected);
  });
});
