import fs from 'node:fs';
import path from 'node:path';
import type { Document, TableElement, TextElement } from '@quire/core';
import { corpusFiles } from '../../../../scripts/lib/corpus.mjs';
import { report, scoreFiles, type FileScore } from '../../../../tests/support/corpus-scores.js';
import { htmlText, wordF1, words } from '../../../../tests/support/text-similarity.js';
import { parse } from './index.js';

// Real Word files with ground truth from ../shared/corpus (never copied into the repo); skipped when absent.
// The dev part is reported file by file; the validation part only in aggregate (scripts/lib/corpus.mjs).
// The floors are regression guards at the measured level, not goals (goals: docs/accuracy.md).
const { dir: DIR, dev, validation } = corpusFiles('docx', (f) => f.endsWith('.docx'));

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


/** Headings, list items and tables of one file against its derived JSON, and word F1 against the best reference. */
async function score(file: string): Promise<FileScore | undefined> {
  const base = file.replace(/\.docx$/, '');
  const d = await parse(new Uint8Array(fs.readFileSync(path.join(DIR, file))));
  const jsonPath = path.join(DIR, `${base}.expected.json`);
  if (!fs.existsSync(jsonPath)) return undefined;
  const blocks = (JSON.parse(fs.readFileSync(jsonPath, 'utf8')) as { blocks: Block[] }).blocks;
  const texts = elements(d).filter((e): e is TextElement => e.kind === 'text' && !e.extra?.running && e.category !== 'Footer');
  const problems: string[] = [];
  for (const b of blocks.filter((x) => x.type === 'paragraph' && x.text && w(x.text))) {
    const el = texts.find((e) => w(e.text).includes(w(b.text!)));
    const heading = /^(Heading(\d)|Title)$/.exec(b.style ?? '');
    if (heading && !el) problems.push(`heading missing: ${w(b.text!).slice(0, 40)}`);
    else if (heading && !['Title', 'Header'].includes(el!.category)) problems.push(`heading as ${el!.category}`);
    else if (heading?.[2] && el!.category === 'Header' && el!.level !== Number(heading[2])) problems.push(`heading level ${el!.level} for ${heading[2]}`);
    if (b.style === 'ListParagraph' && el?.category !== 'List Items') problems.push(`list item as ${el?.category ?? 'missing'}`);
  }
  const tables = elements(d).filter((e): e is TableElement => e.kind === 'table');
  const expectedTables = blocks.filter((b) => b.type === 'table');
  if (tables.length !== expectedTables.length) problems.push(`${tables.length} tables for ${expectedTables.length}`);
  else expectedTables.forEach((t, i) => {
    const mine = w(tables[i].cells.map((c) => c.text).join(' '));
    if ((t.rows ?? []).flat().some((c) => !mine.includes(w(c.text)))) problems.push(`table ${i + 1}: a cell's text is missing`);
  });
  const f1 = wordF1(docText(d), reference(base, blocks));
  if (f1 <= 0.6) problems.push(`word F1 ${f1.toFixed(3)}`);
  return { f1, problems };
}

(dev.length ? describe : describe.skip)('DOCX corpus', () => {
  it('dev part: headings, lists and tables come out with the right kinds', async () => {
    const scores = await scoreFiles(dev, score);
    console.log(report('DOCX', 'dev', scores));
    expect(scores.meanF1).toBeGreaterThan(0.9);
    expect(scores.clean).toBeGreaterThan(0.85);
  });

  (validation.length ? it : it.skip)('validation part (aggregates only)', async () => {
    const scores = await scoreFiles(validation, score);
    console.log(report('DOCX', 'validation', scores));
    expect(scores.meanF1).toBeGreaterThan(0.9);
    expect(scores.clean).toBeGreaterThan(0.8);
  });
});
