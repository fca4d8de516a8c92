import fs from 'node:fs';
import path from 'node:path';
import type { Document, TextElement } from '@quire/core';
import { corpusFiles } from '../../../../scripts/lib/corpus.mjs';
import { report, scoreFiles, type FileScore } from '../../../../tests/support/corpus-scores.js';
import { htmlText, wordF1, words } from '../../../../tests/support/text-similarity.js';
import { parse } from './index.js';

// Real pages with ground truth from ../shared/corpus (never copied into the repo); skipped when absent.
// The dev part is reported file by file; the validation part only in aggregate (scripts/lib/corpus.mjs).
// The floors are regression guards at the measured level, not goals (goals: docs/accuracy.md).
const { dir: DIR, dev, validation } = corpusFiles('html', (f) => f.endsWith('.html') && !f.includes('.expected'));
const norm = (s: string) => words(s).join(' ');

function expectedOf(base: string): { headings: string[]; listItems: string[]; text: string } | undefined {
  const md = path.join(DIR, `${base}.expected.md`), html = path.join(DIR, `${base}.expected.html`);
  if (fs.existsSync(md)) {
    const src = fs.readFileSync(md, 'utf8');
    const lines = src.split('\n');
    return {
      headings: lines.filter((l) => /^#{1,6} /.test(l)).map((l) => norm(l.replace(/^#+ /, ''))),
      listItems: lines.filter((l) => /^- (?!\[)/.test(l)).map((l) => norm(l.slice(2))),
      text: src,
    };
  }
  if (fs.existsSync(html)) {
    const src = fs.readFileSync(html, 'utf8');
    const headings = [...src.matchAll(/<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/g)].map((m) => norm(htmlText(m[1])));
    return { headings, listItems: [], text: htmlText(src) };
  }
  return undefined;
}

const docText = (d: Document) => d.pages.flatMap((p) => p.elements.map((e) => (e.kind === 'table' ? e.cells.map((c) => c.text).join(' ') : e.text))).join('\n');


/**
 * Word F1 against the ground truth, and a sample of its headings and list items found with the right
 * kinds. Ground truths differ on page chrome (docling keeps navigation, Readability drops it): most, not all.
 */
async function score(file: string): Promise<FileScore | undefined> {
  const base = file.replace(/\.html$/, '');
  const exp = expectedOf(base);
  const d = await parse(new Uint8Array(fs.readFileSync(path.join(DIR, file))));
  if (!d.pages[0].elements.length) return { f1: 0, problems: ['no elements'] };
  if (!exp) return undefined;
  const texts = d.pages[0].elements.filter((e): e is TextElement => e.kind === 'text');
  const headings = new Set(texts.filter((e) => e.category === 'Title' || e.category === 'Header').map((e) => norm(e.text)));
  const items = new Set(texts.filter((e) => e.category === 'List Items').map((e) => norm(e.text)));
  const sample = <T>(xs: T[]) => xs.filter((_, i) => i % Math.max(1, Math.floor(xs.length / 8)) === 0).slice(0, 8);
  const problems: string[] = [];
  const hs = sample(exp.headings.filter(Boolean));
  const foundH = hs.filter((h) => headings.has(h)).length;
  if (foundH < Math.ceil(hs.length * 0.6)) problems.push(`headings ${foundH}/${hs.length}`);
  const li = sample(exp.listItems.filter((x) => x.length > 3));
  const foundLi = li.filter((x) => items.has(x)).length;
  if (foundLi < Math.ceil(li.length * 0.6)) problems.push(`list items ${foundLi}/${li.length}`);
  const f1 = wordF1(docText(d), exp.text);
  if (f1 <= 0.5) problems.push(`word F1 ${f1.toFixed(3)}`);
  return { f1, problems };
}

(dev.length ? describe : describe.skip)('HTML corpus', () => {
  it('dev part: expected headings and list items come out with the right kinds', async () => {
    const scores = await scoreFiles(dev, score);
    console.log(report('HTML', 'dev', scores));
    expect(scores.meanF1).toBeGreaterThan(0.85);
    expect(scores.clean).toBeGreaterThan(0.9);
  });

  (validation.length ? it : it.skip)('validation part (aggregates only)', async () => {
    const scores = await scoreFiles(validation, score);
    console.log(report('HTML', 'validation', scores));
    expect(scores.meanF1).toBeGreaterThan(0.8);
    expect(scores.clean).toBeGreaterThan(0.85);
  });
});
