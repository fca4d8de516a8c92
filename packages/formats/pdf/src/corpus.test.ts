import fs from 'node:fs';
import path from 'node:path';
import { readPdf } from './index.js';

// Real born-digital PDFs from the shared corpus (read in place, never copied). Skipped when absent.
const DIR = '/work/shared/corpus/pdf-text';
const cases = fs.existsSync(DIR)
  ? fs.readdirSync(DIR).filter((f) => f.endsWith('.expected.txt')).map((f) => f.replace(/\.expected\.txt$/, '')).filter((b) => fs.existsSync(path.join(DIR, `${b}.pdf`)))
  : [];

const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

(cases.length ? describe : describe.skip)('corpus pdf-text', () => {
  test.each(cases)('%s: first-page words contain words of the expected text', async (base) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(DIR, `${base}.pdf`)));
    const r = await readPdf(bytes, { pages: [1] });
    expect(r.pages[0].error).toBeUndefined();
    const got = new Set(r.pages[0].words.map((w) => norm(w.text)));
    const expected = fs.readFileSync(path.join(DIR, `${base}.expected.txt`), 'utf8').split(/\s+/).map(norm).filter((w) => w.length >= 4);
    const sample = [...new Set(expected)].slice(0, 40);
    const found = sample.filter((w) => got.has(w));
    expect(sample.length).toBeGreaterThan(5);
    expect(found.length / sample.length).toBeGreaterThan(0.8);
    for (const w of r.pages[0].words) {
      expect(w.box.x1).toBeGreaterThanOrEqual(w.box.x0);
      expect(w.box.y1).toBeGreaterThan(w.box.y0);
    }
  });
});

if (!cases.length) test.skip('corpus pdf-text absent: skipped', () => undefined);
