import fs from 'node:fs';
import path from 'node:path';
import { normalizeLabel } from '@quire/models';
import { mapFormInstructionsByLabel } from './instructions/map.js';
import { corpusFiles } from '../../../scripts/lib/corpus.mjs';
import { clearForm } from './clear.js';
import { toFillableCells } from './convert.js';
import { detectForm } from './detect.js';
import { fillForm } from './fill.js';
import { qpdfCheck } from '../../../tests/fixtures/forms/test-helpers.js';
import { instructionsFor, readBack } from '../../../scripts/lib/form-instructions.mjs';
import type { DetectedCell } from './types.js';

// Real forms from ../shared/corpus (read in place, never copied); skipped when absent. The dev part is
// reported file by file, the validation part only in aggregate (scripts/lib/corpus.mjs). The floors are
// regression guards at the measured level, not goals (goals and figures: docs/accuracy.md, pnpm eval:forms).
const withFields = corpusFiles('pdf-forms', (f) => f.endsWith('.fields.json'));
const DIR = withFields.dir;
const maybe = withFields.dev.length ? describe : describe.skip;
// Measured on the validation part (aggregates): flat copies 0.95 recall, fill 0.91 landed, clear 96/97 or better,
// no form refused by fill or clear that detect read (forms read through formats/pdf; empty-password encryption is lifted).
const FLAT_VALIDATION_FLOOR = 0.9, FILL_DEV_FLOOR = 0.9, FILL_VALIDATION_FLOOR = 0.85, CLEAR_VALIDATION_FLOOR = 0.98, FILL_VALIDATION_REFUSED = 0;
const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : 'n/a');

interface GtField { name: string; page_number: number; type: string; radio: boolean; bounding_box: number[] }

const iou = (a: number[], b: number[]) => {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const i = w > 0 && h > 0 ? w * h : 0;
  const u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i;
  return u > 0 ? i / u : 0;
};
const inside = (p: number[], b: number[]) => p[0] >= b[0] - 1e-3 && p[0] <= b[2] + 1e-3 && p[1] >= b[1] - 1e-3 && p[1] <= b[3] + 1e-3;

/** Units: one per text/signature cell, one per checkbox box (a radio group has several). */
interface Unit { cell: DetectedCell; type: string; page: number; centre: number[]; box?: number[] }
function units(cells: DetectedCell[]): Unit[] {
  return cells.flatMap((c): Unit[] => c.type === 'checkbox'
    ? (c.checkbox_details ?? []).map((d) => ({ cell: c, type: 'checkbox', page: c.page_number, centre: d.center_coord, box: c.checkbox_details!.length === 1 ? c.bounding_box : undefined }))
    : [{ cell: c, type: c.type, page: c.page_number, centre: [(c.bounding_box[0] + c.bounding_box[2]) / 2, (c.bounding_box[1] + c.bounding_box[3]) / 2], box: c.bounding_box }]);
}

/**
 * detectForm of one corpus PDF, run once per file and handed out as a copy: the widget score and the fill
 * round trip both start from the same detection of the same bytes (deterministic), which is seconds per form.
 */
const detections = new Map<string, ReturnType<typeof detectForm>>();
async function detectFile(pdfName: string) {
  if (!detections.has(pdfName)) detections.set(pdfName, detectForm(new Uint8Array(fs.readFileSync(path.join(DIR, pdfName)))));
  return structuredClone(await detections.get(pdfName)!);
}

interface WidgetScore { gt: number; found: number; typeOk: number; buttons: number; rows: string[] }

/** Every ground-truth widget (push buttons aside) matched to a detected unit on its page, and its type. */
async function scoreWidgets(f: string): Promise<WidgetScore> {
  const gt = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as { fields: GtField[] };
  const { cells } = await detectFile(f.replace('.fields.json', '.pdf'));
  const us = units(cells);
  const matched = new Set<number>();
  const rows: string[] = [];
  let found = 0, typeOk = 0;
  const widgets = gt.fields.filter((g) => g.type !== 'button');
  for (const g of widgets) {
    const want = g.type === 'choice' ? 'text' : g.type;
    let best = -1, bestScore = 0;
    us.forEach((u, i) => {
      if (u.page !== g.page_number || matched.has(i)) return;
      const s = u.box ? iou(u.box, g.bounding_box) : inside(u.centre, g.bounding_box) ? 0.75 : 0;
      const s2 = Math.max(s, inside(u.centre, g.bounding_box) ? 0.5 : 0);
      if (s2 > bestScore) { bestScore = s2; best = i; }
    });
    if (best < 0) { rows.push(`  missed ${g.name} (${g.type})`); continue; }
    matched.add(best); found++;
    if (us[best].type === want) typeOk++; else rows.push(`  type ${g.name}: ${g.type} → ${us[best].type}`);
  }
  return { gt: widgets.length, found, typeOk, buttons: gt.fields.length - widgets.length, rows };
}

async function widgetTotals(files: string[], perFile: string[] | undefined) {
  const t = { gt: 0, found: 0, typeOk: 0, buttons: 0 };
  for (const f of files) {
    const s = await scoreWidgets(f);
    t.gt += s.gt; t.found += s.found; t.typeOk += s.typeOk; t.buttons += s.buttons;
    perFile?.push(`${f}: widgets ${s.gt}, found ${s.found}, type ok ${s.typeOk}`, ...s.rows);
  }
  return t;
}

maybe('corpus: AcroForm widgets are found with the right type', () => {
  it('dev part', async () => {
    const rows: string[] = [];
    const t = await widgetTotals(withFields.dev, rows);
    console.log([...rows, `DEV widgets ${t.gt} (push buttons excluded: ${t.buttons}); recall ${pct(t.found, t.gt)}%; type accuracy ${pct(t.typeOk, t.found)}%`].join('\n'));
    expect(t.found / t.gt).toBeGreaterThanOrEqual(0.99);
    expect(t.typeOk / t.found).toBeGreaterThanOrEqual(0.99);
  });
  (withFields.validation.length ? it : it.skip)('validation part (aggregates only)', async () => {
    const t = await widgetTotals(withFields.validation, undefined);
    console.log(`VALIDATION widgets ${t.gt} in ${withFields.validation.length} forms; recall ${pct(t.found, t.gt)}%; type accuracy ${pct(t.typeOk, t.found)}%`);
    expect(t.found / t.gt).toBeGreaterThanOrEqual(0.95);
    expect(t.typeOk / t.found).toBeGreaterThanOrEqual(0.97);
  });
});

/**
 * Flat copies of corpus forms (flattened / appearance-burnt: NAME.flat.pdf or NAME.flattened.pdf beside
 * NAME.fields.json): drawn-cell detection against the original field list.
 */
const flats = corpusFiles('pdf-forms', (f) => /\.(flat|flattened)\.pdf$/.test(f) && fs.existsSync(path.join(DIR, `${f.split('.')[0]}.fields.json`)));

async function scoreFlat(p: string) {
  const gt = (JSON.parse(fs.readFileSync(path.join(DIR, `${p.split('.')[0]}.fields.json`), 'utf8')) as { fields: GtField[] }).fields.filter((g) => g.type !== 'button');
  const { cells } = await detectForm(new Uint8Array(fs.readFileSync(path.join(DIR, p))));
  const us = units(cells);
  const used = new Set<number>();
  let found = 0;
  for (const g of gt) {
    let best = -1, bestS = 0;
    us.forEach((u, i) => {
      if (used.has(i) || u.page !== g.page_number) return;
      const s = Math.max(u.box ? iou(u.box, g.bounding_box) : 0, inside(u.centre, g.bounding_box) ? 0.3 : 0);
      if (s > bestS) { bestS = s; best = i; }
    });
    if (best < 0 || bestS < 0.1) continue;
    used.add(best); found++;
  }
  const pages = new Set(gt.map((g) => g.page_number));
  return { fields: gt.length, found, detectedOnPages: us.filter((u) => pages.has(u.page)).length };
}

async function flatTotals(files: string[], perFile: string[] | undefined) {
  const t = { fields: 0, found: 0, detectedOnPages: 0 };
  for (const p of files) {
    const s = await scoreFlat(p);
    t.fields += s.fields; t.found += s.found; t.detectedOnPages += s.detectedOnPages;
    perFile?.push(`${p}: fields ${s.fields}; recall ${pct(s.found, s.fields)}%; precision ${pct(s.found, s.detectedOnPages)}%`);
  }
  return t;
}

(flats.dev.length ? describe : describe.skip)('corpus: flat copies of AcroForms', () => {
  // general drawn-cell rules (boxes, open-sided rows, underlines, leaders, combs, squares, circles)
  it('dev part', async () => {
    const rows: string[] = [];
    const t = await flatTotals(flats.dev, rows);
    console.log([...rows, `DEV flat copies: recall ${pct(t.found, t.fields)}%, precision ${pct(t.found, t.detectedOnPages)}%`].join('\n'));
    // measured 0.48 / 0.88 on the grown corpus's flat copies (issue: flat government forms); guard, not goal
    expect(t.found / t.fields).toBeGreaterThanOrEqual(0.45);
    expect(t.found / Math.max(1, t.detectedOnPages)).toBeGreaterThanOrEqual(0.85);
  });
  (flats.validation.length ? it : it.skip)('validation part (aggregates only)', async () => {
    const t = await flatTotals(flats.validation, undefined);
    console.log(`VALIDATION flat copies (${flats.validation.length}): recall ${pct(t.found, t.fields)}%, precision ${pct(t.found, t.detectedOnPages)}%`);
    expect(t.found / t.fields).toBeGreaterThanOrEqual(FLAT_VALIDATION_FLOOR);
  });
});

/** Filling and clearing every corpus form is minutes of work on a loaded 2-core machine, not a unit test's 60 s. */
const CORPUS_FILL_TIMEOUT_MS = 300_000;

/**
 * Fill per corpus form from generated plain-language instructions (one "label: value" line per text
 * cell, "check 'option' for label" per checkbox), read back from the output; then clear.
 */
/** One form: instructions generated from its detected labels, filled, read back, then cleared. */
async function fillAndClear(f: string) {
  const pdf = new Uint8Array(fs.readFileSync(path.join(DIR, f)));
  const { cells } = await detectFile(f);
  const { text, expected } = instructionsFor(cells, normalizeLabel);
  const answer = mapFormInstructionsByLabel({ instructions: text, cells: toFillableCells(cells) });
  const r = await fillForm(pdf, cells, answer.assignments);
  const after = (await detectForm(r.pdf)).cells;
  let landed = 0;
  for (const [i, v] of expected) if (readBack(after[i]) === v) landed++;
  const q = qpdfCheck(r.pdf);
  const cl = await clearForm(r.pdf, after, { overlays: r.overlays });
  const left = (await detectForm(cl.pdf)).cells.filter((c) => (c.type === 'checkbox' ? c.checkbox_details?.some((d) => d.selected) : c.text.trim()));
  return { asked: expected.size, landed, unmatched: answer.unmatched.length, unapplied: r.unapplied.length, cells: after.length, left: left.length, qpdfOk: !q || [0, 3].includes(q.status) };
}

async function fillTotals(files: string[], perFile: string[] | undefined) {
  const t = { asked: 0, landed: 0, cells: 0, cleared: 0, qpdfFailures: 0, refused: 0 };
  for (const f of files) {
    // a form that detect read but fill or clear refused (e.g. FILE_003 on an encrypted PDF) counts apart
    const s = await fillAndClear(f).catch((e: Error) => { t.refused++; perFile?.push(`${f}: refused: ${e.message}`); return undefined; });
    if (!s) continue;
    t.asked += s.asked; t.landed += s.landed; t.cells += s.cells; t.cleared += s.cells - s.left; t.qpdfFailures += s.qpdfOk ? 0 : 1;
    perFile?.push(`${f}: instructed ${s.asked}, landed ${s.landed}, unmatched ${s.unmatched}, unapplied ${s.unapplied}; after clear ${s.left} cell(s) still show a value${s.qpdfOk ? '' : '; qpdf --check failed'}`);
  }
  return t;
}

/**
 * Fill per corpus form from generated plain-language instructions (one "label: value" line per text
 * cell, "check 'option' for label" per checkbox), read back from the output; then clear.
 */
maybe('corpus: fill from generated instructions, then clear', () => {
  const pdfs = (files: string[]) => files.map((f) => f.replace('.fields.json', '.pdf'));
  it('dev part', async () => {
    const rows: string[] = [];
    const t = await fillTotals(pdfs(withFields.dev), rows);
    console.log([...rows, `DEV FILL: ${t.landed}/${t.asked} instructed values landed in the right field (${pct(t.landed, t.asked)}%); CLEAR: ${t.cleared}/${t.cells} cells empty after clear; refused ${t.refused}`].join('\n'));
    expect(t.refused).toBe(0);
    expect(t.qpdfFailures).toBe(0);
    expect(t.landed / t.asked).toBeGreaterThanOrEqual(FILL_DEV_FLOOR);
    expect(t.cleared / t.cells).toBeGreaterThanOrEqual(0.99);
  }, CORPUS_FILL_TIMEOUT_MS);
  (withFields.validation.length ? it : it.skip)('validation part (aggregates only)', async () => {
    const t = await fillTotals(pdfs(withFields.validation), undefined);
    console.log(`VALIDATION FILL: ${t.landed}/${t.asked} instructed values landed (${pct(t.landed, t.asked)}%); CLEAR: ${t.cleared}/${t.cells} cells empty after clear; qpdf failures ${t.qpdfFailures}; refused by fill or clear ${t.refused}`);
    expect(t.refused).toBeLessThanOrEqual(FILL_VALIDATION_REFUSED);
    expect(t.qpdfFailures).toBe(0);
    expect(t.landed / t.asked).toBeGreaterThanOrEqual(FILL_VALIDATION_FLOOR);
    expect(t.cleared / t.cells).toBeGreaterThanOrEqual(CLEAR_VALIDATION_FLOOR);
  }, CORPUS_FILL_TIMEOUT_MS);
});
