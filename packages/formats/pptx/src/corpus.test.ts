import fs from 'node:fs';
import path from 'node:path';
import type { TableElement, TextElement } from '@quire/core';
import { corpusFiles } from '../../../../scripts/lib/corpus.mjs';
import { chartsOf, emptyScore, scoreChart, type ExpectedChart } from '../../../../tests/fixtures/office/corpus-compare.js';
import { parse } from './index.js';

/**
 * The shared corpus's PPTX files against their derived ground truth (skipped when the corpus is absent).
 * Both parts are scored in aggregate (the validation part only so: scripts/lib/corpus.mjs); the
 * expectations are regression guards at the measured level.
 */
const parts = corpusFiles('pptx', (f) => f.endsWith('.pptx'));
const DIR = parts.dir;
const withTruth = (files: string[]) => files.filter((f) => fs.existsSync(path.join(DIR, f.replace(/\.pptx$/, '.expected.json'))));
const maybe = withTruth(parts.dev).length ? describe : describe.skip;

interface ExpShape { type: string; name?: string; paragraphs?: string[]; rows?: { text: string; hMerge?: string; vMerge?: string }[][] }
interface ExpSlide { slide: number; shapes: ExpShape[]; notes: string | null }

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

async function scoreFiles(files: string[]) {
  const charts = emptyScore();
  let paras = 0, parasFound = 0, cells = 0, cellsExact = 0, notes = 0, notesExact = 0, slides = 0, slidesExpected = 0;
  for (const f of files) {
    const exp = JSON.parse(fs.readFileSync(path.join(DIR, f.replace(/\.pptx$/, '.expected.json')), 'utf8')) as { slides: ExpSlide[] };
    const doc = await parse(new Uint8Array(fs.readFileSync(path.join(DIR, f))));
    slidesExpected += exp.slides.length;
    if (doc.pageCount === exp.slides.length) slides += exp.slides.length;
    for (const s of exp.slides) {
      const page = doc.pages.find((p) => p.number === s.slide)!;
      const ours = page.elements.filter((e): e is TextElement => e.kind === 'text').map((e) => norm(e.text));
      const joined = ` ${ours.join(' ')} `;
      for (const sh of s.shapes) {
        if (sh.type === 'text') {
          for (const p of (sh.paragraphs ?? []).map(norm).filter(Boolean)) { paras++; if (ours.includes(p) || joined.includes(` ${p} `)) parasFound++; }
        } else if (sh.type === 'table') {
          const t = page.elements.find((e): e is TableElement => e.kind === 'table' && e.extra?.name === sh.name);
          (sh.rows ?? []).forEach((row, r) => row.forEach((cell, c) => {
            if (cell.hMerge || cell.vMerge) return;
            cells++;
            if (t?.cells.find((x) => x.row === r && x.col === c)?.text === norm(cell.text)) cellsExact++;
          }));
        } else if (sh.type === 'chart') {
          const mine = chartsOf(doc, s.slide);
          const got = mine.find((m) => m.extra?.name === sh.name) ?? mine[s.shapes.filter((x) => x.type === 'chart').indexOf(sh)];
          scoreChart(charts, sh as unknown as ExpectedChart, got?.chart);
        }
      }
      if (s.notes) { notes++; if (page.extra?.notes === s.notes) notesExact++; }
    }
  }
  return { files: files.length, charts, paras, parasFound, cells, cellsExact, notes, notesExact, slides, slidesExpected };
}

const summary = (s: Awaited<ReturnType<typeof scoreFiles>>) => {
  const { charts } = s;
  return `${s.files} files, slides ${s.slides}/${s.slidesExpected}; paragraphs found ${s.parasFound}/${s.paras}; table cells exact ${s.cellsExact}/${s.cells}; notes ${s.notesExact}/${s.notes}\n`
    + `charts exact ${charts.chartsExact}/${charts.charts} (date categories accepted as shown: ${charts.chartsExactDateAware}/${charts.charts}); series exact ${charts.seriesExact}/${charts.series}; plot types ${charts.typesExact}/${charts.types}; explicit titles ${charts.titlesExact}/${charts.titles}`;
};
const share = (a: number, b: number) => a / Math.max(1, b);

maybe('PPTX corpus', () => {
  it('dev part: slide texts, tables, notes and chart caches', async () => {
    const s = await scoreFiles(withTruth(parts.dev));
    console.log(`PPTX dev part: ${summary(s)}`);
    expect(s.slides).toBe(s.slidesExpected);
    expect(share(s.parasFound, s.paras)).toBeGreaterThanOrEqual(DEV.paragraphs);
    expect(share(s.cellsExact, s.cells)).toBeGreaterThanOrEqual(DEV.cells);
    expect(share(s.notesExact, s.notes)).toBeGreaterThanOrEqual(DEV.notes);
    expect(s.charts.typesExact).toBe(s.charts.types);
    expect(share(s.charts.chartsExactDateAware, s.charts.charts)).toBeGreaterThanOrEqual(DEV.charts);
    expect(s.charts.titlesExact).toBe(s.charts.titles);
  });

  (withTruth(parts.validation).length ? it : it.skip)('validation part (aggregates only)', async () => {
    const s = await scoreFiles(withTruth(parts.validation));
    console.log(`PPTX validation part: ${summary(s)}`);
    expect(s.slides).toBe(s.slidesExpected);
    expect(share(s.parasFound, s.paras)).toBeGreaterThanOrEqual(VALIDATION.paragraphs);
    expect(share(s.cellsExact, s.cells)).toBeGreaterThanOrEqual(VALIDATION.cells);
    expect(share(s.charts.chartsExactDateAware, s.charts.charts)).toBeGreaterThanOrEqual(VALIDATION.charts);
  });
});

// Measured: dev paragraphs 63/65, cells 115/115, charts 27/27 (date-aware), notes 2/6 (speaker notes of the
// grown corpus's new decks are not matched exactly: a known gap); validation paragraphs 8/9, cells 4/4, charts 6/6.
const DEV = { paragraphs: 0.95, cells: 0.99, charts: 0.95, notes: 0.3 };
const VALIDATION = { paragraphs: 0.85, cells: 0.99, charts: 0.95 };
