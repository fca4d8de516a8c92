import type { OcrEngine, RawPage, RawWord } from '@quire/core';
import { MarkedContentReader, openDocument, loadPdfjs, readPageWords, readPdf } from './index.js';
import { garbledFonts, sharedWordShare } from './plausibility.js';
import { makeSubstitutedFontPdf } from '../../../../tests/fixtures/pdf/substituted-font.js';

const LINES = [
  'The quarterly report describes the results of the survey.',
  'Revenue grew in every region except the north, where prices fell.',
  'Vláda schválila návrh zákona o státním rozpočtu na příští rok.',
];
const TRUE_WORDS = LINES.join(' ').split(/\s+/);

const word = (text: string, fontName = 'F'): RawWord => ({ text, box: { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 }, fontSize: 11, confidence: 1, fontName });
const wordsOf = (text: string, fontName?: string) => text.split(/\s+/).map((t) => word(t, fontName));

/** A stand-in OCR engine that reads the given words off any page. */
function ocrReading(words: readonly string[]) {
  let calls = 0;
  const engine: OcrEngine = {
    async recognize(_image, page): Promise<RawPage> {
      calls++;
      return { number: page.number, width: page.widthPt, height: page.heightPt, words: words.map((t) => ({ ...word(t), confidence: 0.9 })), segments: [], rects: [], images: [], widgets: [], source: 'ocr' };
    },
  };
  return { engine, calls: () => calls };
}

describe('letters that spell no language (plausibility.ts)', () => {
  test('prose in several languages, tables of abbreviations and part numbers read as language', () => {
    for (const text of [
      LINES.join(' '),
      'Příliš žluťoučký kůň úpěl ďábelské ódy a vrba se sklonila nad vodou u mlýna.',
      'Die Rechnung ist innerhalb von vierzehn Tagen ohne Abzug zu bezahlen, Angstschweiß inbegriffen.',
      'Przez ostatnie dwa lata spółka zwiększyła sprzedaż w Polsce oraz w Niemczech.',
      'NCLB NCLB HTML SGML XML ZIP PSČ DPH IČO SKU-1234 REF-88 QTY',
    ]) expect(garbledFonts(wordsOf(text))).toBeUndefined();
  });

  test('codes read as characters: letters shifted into capitals, or substituted, are found per font', () => {
    // glyph ids of a whole TrueType font read as code points: every small letter becomes a capital three places on
    const shift = (text: string) => text.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 29));
    const czech = shift('Vláda schválila návrh zákona o státním rozpočtu na příští rok a sněmovna jej projedná');
    const e = garbledFonts([...wordsOf(czech, 'Body'), ...wordsOf('Annual Report', 'Heading')]);
    expect(e?.fonts).toEqual(['Body']);
    expect(e!.letterShare).toBeGreaterThan(0.8);
    expect(e!.reasons[0]).toMatch(/vowels make \d+% of the letters|words have capitals after small letters/);
    // in English the shift leaves a vowel share near the edge of the band; a font whose mapping pdf.js
    // guessed (no ToUnicode) is held to a narrower one
    const english = wordsOf(shift(LINES.slice(0, 2).join(' ')), 'Body');
    expect(garbledFonts(english, new Set(['Body']))?.fonts).toEqual(['Body']);
    expect(garbledFonts(wordsOf(LINES.slice(0, 2).join(' '), 'Body'), new Set(['Body']))).toBeUndefined();
    // a substitution that keeps small letters but scatters them over the alphabet
    const key = 'qwxzvbnmkjhgfdsplkjtrcvbnm';
    const substituted = LINES.slice(0, 2).join(' ').replace(/[a-z]/g, (c) => key[c.charCodeAt(0) - 97]);
    expect(garbledFonts(wordsOf(substituted))).toBeDefined();
  });

  test('shared words between a text layer and an OCR reading', () => {
    expect(sharedWordShare(wordsOf(LINES[0]), wordsOf(LINES[0].toUpperCase()))).toBe(1);
    expect(sharedWordShare(wordsOf('KHOOR ZRUOG'), wordsOf('hello world'))).toBe(0);
  });
});

describe('a composite font without ToUnicode, its TrueType program embedded', () => {
  test('each glyph\'s character comes from the program\'s own cmap read backwards, accents and all, without OCR', async () => {
    const ocr = ocrReading(['unused']);
    const r = await readPdf(await makeSubstitutedFontPdf(LINES), { ocr: ocr.engine });
    expect(ocr.calls()).toBe(0);
    expect(r.pages[0].source).toBe('text-layer');
    expect(r.pages[0].words.map((w) => w.text)).toEqual(TRUE_WORDS);
    expect(r.warnings).toEqual([]);
  });

  test('readers of a page\'s own drawing (forms) get the same recovered words', async () => {
    const bytes = await makeSubstitutedFontPdf(LINES);
    const doc = await openDocument(bytes);
    try {
      const page = await doc.getPage(1);
      const pdfjs = await loadPdfjs();
      const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
      const vp = page.getViewport({ scale: 1 });
      const words = await readPageWords(page, ops, { viewport: vp.transform as never, width: vp.width, height: vp.height, markedContent: new MarkedContentReader(bytes) });
      expect(words.map((w) => w.text)).toEqual(TRUE_WORDS);
    } finally {
      await doc.destroy();
    }
  });
});

describe('a composite font without ToUnicode or program (codes read as glyph ids, nothing to recover them)', () => {
  let pdf: Uint8Array;
  beforeAll(async () => { pdf = await makeSubstitutedFontPdf(LINES, { withoutProgram: true }); }, 30_000);

  test('the text layer is checked by OCR and replaced by its reading when they share no words', async () => {
    const ocr = ocrReading(TRUE_WORDS);
    const r = await readPdf(pdf, { ocr: ocr.engine });
    expect(ocr.calls()).toBe(1);
    expect(r.pages[0].source).toBe('ocr');
    expect(r.pages[0].words.map((w) => w.text)).toEqual(TRUE_WORDS);
    expect(r.warnings.join('\n')).toMatch(/Page 1: the text layer does not spell what the page shows \(font "LiberationSans[^"]*": vowels make \d+% of the letters; OCR reads other words\)/);
  });

  test('an OCR reading that agrees with the text layer keeps it (the letters only looked odd)', async () => {
    const before = await readPdf(pdf);
    const agreeing = ocrReading(before.pages[0].words.map((w) => w.text));
    const r = await readPdf(pdf, { ocr: agreeing.engine });
    expect(agreeing.calls()).toBe(1);
    expect(r.pages[0].source).toBe('text-layer');
    expect(r.pages[0].words.map((w) => w.text)).toEqual(before.pages[0].words.map((w) => w.text));
  });

  test('without OCR the text layer is kept and the response says its letters look substituted', async () => {
    const r = await readPdf(pdf);
    expect(r.pages[0].source).toBe('text-layer');
    expect(r.warnings.join('\n')).toMatch(/Page 1: the text layer's letters look substituted .*OCR is not configured, so it was kept/);
  });

  test('a page in a well-mapped font is never sent to OCR', async () => {
    const ocr = ocrReading(['unused']);
    const { makeSimplePdf } = await import('../../../../tests/fixtures/pdf/documents.js');
    const r = await readPdf(await makeSimplePdf(2), { ocr: ocr.engine });
    expect(ocr.calls()).toBe(0);
    expect(r.pages.every((p) => p.source === 'text-layer')).toBe(true);
  });
});
