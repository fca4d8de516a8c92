import fs from 'node:fs';
import path from 'node:path';
import type { Document, TextElement } from '@quire/core';
import { htmlText, wordF1, words } from '../../../../tests/support/text-similarity.js';
import { parse } from './index.js';

// Real pages with ground truth from ../shared/corpus (never copied into the repo); skipped when absent.
const DIR = '/work/shared/corpus/html';
const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((f) => f.endsWith('.html') && !f.includes('.expected')) : [];
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

(files.length ? describe : describe.skip)('HTML corpus', () => {
  const scores: string[] = [];
  afterAll(() => { if (scores.length) console.log(`HTML word F1 vs ground truth:\n${scores.join('\n')}`); });

  it.each(files)('%s: expected headings and list items come out with the right kinds', async (file) => {
    const base = file.replace(/\.html$/, '');
    const exp = expectedOf(base);
    const d = await parse(new Uint8Array(fs.readFileSync(path.join(DIR, file))));
    expect(d.pages[0].elements.length).toBeGreaterThan(0);
    if (!exp) return;
    const texts = d.pages[0].elements.filter((e): e is TextElement => e.kind === 'text');
    const headings = new Set(texts.filter((e) => e.category === 'Title' || e.category === 'Header').map((e) => norm(e.text)));
    const items = new Set(texts.filter((e) => e.category === 'List Items').map((e) => norm(e.text)));
    const sample = <T>(xs: T[]) => xs.filter((_, i) => i % Math.max(1, Math.floor(xs.length / 8)) === 0).slice(0, 8);
    const hs = sample(exp.headings.filter(Boolean));
    const foundH = hs.filter((h) => headings.has(h));
    // Ground truths differ on page chrome (docling keeps navigation, Readability drops it): most, not all.
    expect(foundH.length).toBeGreaterThanOrEqual(Math.ceil(hs.length * 0.6));
    const li = sample(exp.listItems.filter((x) => x.length > 3));
    expect(li.filter((x) => items.has(x)).length).toBeGreaterThanOrEqual(Math.ceil(li.length * 0.6));
    if (process.env.DEBUG_CORPUS) console.log(base, { hs, missingH: hs.filter((h) => !headings.has(h)), li, missingLi: li.filter((x) => !items.has(x)) });
    const f1 = wordF1(docText(d), exp.text);
    scores.push(`  ${base}: ${f1.toFixed(3)} (headings ${foundH.length}/${hs.length})`);
    expect(f1).toBeGreaterThan(0.5);
  });
});
