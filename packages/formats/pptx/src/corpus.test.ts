import fs from 'node:fs';
import path from 'node:path';
import type { TableElement, TextElement } from '@quire/core';
import { chartsOf, emptyScore, scoreChart, type ExpectedChart } from '../../../../tests/fixtures/office/corpus-compare.js';
import { parse } from './index.js';

/** The shared corpus's PPTX files against their derived ground truth (skipped when the corpus is absent). */
const DIR = '/work/shared/corpus/pptx';
const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((f) => f.endsWith('.pptx') && fs.existsSync(path.join(DIR, f.replace(/\.pptx$/, '.expected.json')))) : [];
const maybe = files.length ? describe : describe.skip;

interface ExpShape { type: string; name?: string; paragraphs?: string[]; rows?: { text: string; hMerge?: string; vMerge?: string }[][] }
interface ExpSlide { slide: number; shapes: ExpShape[]; notes: string | null }

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

maybe('PPTX corpus', () => {
  it('matches slide texts, tables, notes and chart caches', async () => {
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
    console.log(`PPTX corpus: ${files.length} files, slides ${slides}/${slidesExpected}; paragraphs found ${parasFound}/${paras}; table cells exact ${cellsExact}/${cells}; notes ${notesExact}/${notes}\n`
      + `charts exact ${charts.chartsExact}/${charts.charts} (date categories accepted as shown: ${charts.chartsExactDateAware}/${charts.charts}); series exact ${charts.seriesExact}/${charts.series}; plot types ${charts.typesExact}/${charts.types}; explicit titles ${charts.titlesExact}/${charts.titles}`);
    expect(slides).toBe(slidesExpected);
    expect(parasFound).toBe(paras);
    expect(cellsExact).toBe(cells);
    expect(notesExact).toBe(notes);
    expect(charts.typesExact).toBe(charts.types);
    expect(charts.chartsExactDateAware).toBe(charts.charts);
    expect(charts.titlesExact).toBe(charts.titles);
  });
});
