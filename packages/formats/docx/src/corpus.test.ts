import fs from 'node:fs';
import path from 'node:path';
import type { Document, TableElement, TextElement } from '@quire/core';
import { htmlText, wordF1, words } from '../../../../tests/support/text-similarity.js';
import { parse } from './index.js';

// Real Word files with ground truth from ../shared/corpus (never copied into the repo); skipped when absent.
const DIR = '/work/shared/corpus/docx';
const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((f) => f.endsWith('.docx')) : [];

interface Block { type: 'paragraph' | 'table'; style?: string | null; text?: string; rows?: { text: string }[][] }
const w = (s: string) => words(s).join(' ');
const elements = (d: Document) => d.pages.flatMap((p) => p.elements);
// Page furniture is left out, as in the markdown (running headers, page footers, page numbers).
const isFurniture = (e: ReturnType<typeof elements>[number]) =>
  e.kind === 'text' && (e.category === 'Page Number' || (e.category === 'Footer' && !e.extra?.footnote) || e.extra?.running === true);
const docText = (d: Document) => elements(d).filter((e) => !isFurniture(e)).map((e) => (e.kind === 'table' ? e.cells.map((c) => c.text).join(' ') : e.text)).join('\n');

/** The best reference text: docling markdown, else mammoth HTML, else the derived JSON's paragraphs. */
function reference(base: string, blocks: Block[]): string {
  const md = path.join(DIR, `${base}.expected.md`), html = path.join(DIR, `${base}.expected.html`);
  if (fs.existsSync(md)) return fs.readFileSync(md, 'utf8');
  if (fs.existsSync(html)) return htmlText(fs.readFileSync(html, 'utf8'));
  return blocks.map((b) => b.text ?? (b.rows ?? []).flat().map((c) => c.text).join(' ')).join('\n');
}

(files.length ? describe : describe.skip)('DOCX corpus', () => {
  const scores: string[] = [];
  let paragraphs = 0, found = 0;
  afterAll(() => {
    if (scores.length) console.log(`DOCX word F1 vs ground truth:\n${scores.join('\n')}\nparagraphs found: ${found}/${paragraphs}`);
  });

  it.each(files)('%s: headings, lists and tables come out with the right kinds', async (file) => {
    const base = file.replace(/\.docx$/, '');
    const d = await parse(new Uint8Array(fs.readFileSync(path.join(DIR, file))));
    const jsonPath = path.join(DIR, `${base}.expected.json`);
    if (!fs.existsSync(jsonPath)) return;
    const blocks = (JSON.parse(fs.readFileSync(jsonPath, 'utf8')) as { blocks: Block[] }).blocks;
    const texts = elements(d).filter((e): e is TextElement => e.kind === 'text' && !e.extra?.running && e.category !== 'Footer');
    const byWords = (t: string) => texts.find((e) => w(e.text).includes(t));

    for (const b of blocks.filter((x) => x.type === 'paragraph' && x.text && w(x.text))) {
      const want = w(b.text!);
      const el = byWords(want);
      paragraphs++;
      if (el) found++;
      else if (process.env.DEBUG_CORPUS) console.log(base, 'missing paragraph:', want);
      const heading = /^(Heading(\d)|Title)$/.exec(b.style ?? '');
      if (heading) {
        expect(el).toBeDefined();
        expect(['Title', 'Header']).toContain(el!.category);
        if (heading[2] && el!.category === 'Header') expect(el!.level).toBe(Number(heading[2]));
      }
      if (b.style === 'ListParagraph') expect(el?.category).toBe('List Items');
    }

    const tables = elements(d).filter((e): e is TableElement => e.kind === 'table');
    const expectedTables = blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(expectedTables.length);
    expectedTables.forEach((t, i) => {
      const mine = w(tables[i].cells.map((c) => c.text).join(' '));
      for (const c of (t.rows ?? []).flat()) expect(mine).toContain(w(c.text));
    });

    const f1 = wordF1(docText(d), reference(base, blocks));
    scores.push(`  ${base}: ${f1.toFixed(3)}`);
    expect(f1).toBeGreaterThan(0.6);
  });
});
