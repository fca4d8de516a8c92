import fs from 'node:fs';
import path from 'node:path';
import { mapFormInstructionsBuiltin, normalizeLabel } from '@quire/models';
import { clearForm } from './clear.js';
import { toFillableCells } from './convert.js';
import { detectForm } from './detect.js';
import { fillForm } from './fill.js';
import { qpdfCheck } from '../../../tests/fixtures/forms/test-helpers.js';
import { instructionsFor, readBack } from '../../../scripts/lib/form-instructions.mjs';
import type { DetectedCell } from './types.js';

const DIR = '/work/shared/corpus/pdf-forms';
const have = fs.existsSync(DIR);
const maybe = have ? describe : describe.skip;
if (!have) console.warn(`skipping corpus form test: ${DIR} is absent`);

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

maybe('corpus: AcroForm widgets are found with the right type', () => {
  const files = have ? fs.readdirSync(DIR).filter((f) => f.endsWith('.fields.json')) : [];
  const totals = { gt: 0, found: 0, typeOk: 0, det: 0, detMatched: 0, iouSum: 0, iouN: 0, buttons: 0, detOnWidgetPages: 0 };
  const rows: string[] = [];
  it.each(files)('%s', async (f) => {
    const gt = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as { fields: GtField[] };
    const pdf = new Uint8Array(fs.readFileSync(path.join(DIR, f.replace('.fields.json', '.pdf'))));
    const { cells } = await detectForm(pdf);
    const us = units(cells);
    const matched = new Set<number>();
    let found = 0, typeOk = 0;
    const widgets = gt.fields.filter((g) => g.type !== 'button');
    totals.buttons += gt.fields.length - widgets.length;
    for (const g of widgets) {
      const want = g.type === 'choice' ? 'text' : g.type;
      let best = -1, bestScore = 0;
      us.forEach((u, i) => {
        if (u.page !== g.page_number || matched.has(i)) return;
        const s = u.box ? iou(u.box, g.bounding_box) : inside(u.centre, g.bounding_box) ? 0.75 : 0;
        const s2 = Math.max(s, inside(u.centre, g.bounding_box) ? 0.5 : 0);
        if (s2 > bestScore) { bestScore = s2; best = i; }
      });
      if (best < 0) { rows.push(`  missed ${f} ${g.name} (${g.type})`); continue; }
      matched.add(best); found++;
      if (us[best].type === want) typeOk++; else rows.push(`  type ${f} ${g.name}: ${g.type} → ${us[best].type}`);
      if (us[best].box) { totals.iouSum += iou(us[best].box!, g.bounding_box); totals.iouN++; }
    }
    const widgetPages = new Set(widgets.map((g) => g.page_number));
    totals.detOnWidgetPages += us.filter((u) => widgetPages.has(u.page)).length;
    totals.gt += widgets.length; totals.found += found; totals.typeOk += typeOk; totals.det += us.length; totals.detMatched += matched.size;
    rows.push(`${f}: widgets ${widgets.length}, found ${found}, type ok ${typeOk}, detected units ${us.length}`);
    expect(found).toBe(widgets.length);
    expect(typeOk).toBe(widgets.length);
  });
  afterAll(() => {
    const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : 'n/a');
    console.log([...rows, `TOTAL widgets ${totals.gt} (push buttons excluded: ${totals.buttons}); recall ${pct(totals.found, totals.gt)}%; precision on pages with widgets ${pct(totals.detMatched, totals.detOnWidgetPages)}% (drawn cells found on pages without widgets: ${totals.det - totals.detOnWidgetPages}); type accuracy ${pct(totals.typeOk, totals.found)}%; mean box IoU ${(totals.iouSum / Math.max(1, totals.iouN)).toFixed(3)} over ${totals.iouN}`].join('\n'));
  });
});

/** Flat copies of corpus forms (flattened / appearance-burnt): drawn-cell detection against the original field list. */
maybe('corpus: flat copies of AcroForms', () => {
  const pairs = [['irs-fw9-2018.flat.pdf', 'irs-fw9-2018.fields.json'], ['form_to_flatten.flattened.pdf', 'form_to_flatten.fields.json']]
    .filter(([p]) => have && fs.existsSync(path.join(DIR, p)));
  it.each(pairs)('%s', async (p, j) => {
    const gt = (JSON.parse(fs.readFileSync(path.join(DIR, j), 'utf8')) as { fields: GtField[] }).fields.filter((g) => g.type !== 'button');
    const { cells } = await detectForm(new Uint8Array(fs.readFileSync(path.join(DIR, p))));
    const us = units(cells);
    const used = new Set<number>();
    let found = 0, typeOk = 0, iouSum = 0, iouN = 0;
    for (const g of gt) {
      const want = g.type === 'choice' ? 'text' : g.type;
      let best = -1, bestS = 0;
      us.forEach((u, i) => {
        if (used.has(i) || u.page !== g.page_number) return;
        const s = Math.max(u.box ? iou(u.box, g.bounding_box) : 0, inside(u.centre, g.bounding_box) ? 0.3 : 0);
        if (s > bestS) { bestS = s; best = i; }
      });
      if (best < 0 || bestS < 0.1) continue;
      used.add(best); found++;
      if (us[best].type === want) typeOk++;
      if (us[best].box) { iouSum += iou(us[best].box!, g.bounding_box); iouN++; }
    }
    const pages = new Set(gt.map((g) => g.page_number));
    const onPages = us.filter((u) => pages.has(u.page)).length;
    console.log(`${p}: fields ${gt.length}; recall ${(100 * found / gt.length).toFixed(1)}%; precision ${(100 * used.size / Math.max(1, onPages)).toFixed(1)}% (${onPages} detected on those pages); type accuracy ${(100 * typeOk / Math.max(1, found)).toFixed(1)}%; mean IoU ${(iouSum / Math.max(1, iouN)).toFixed(3)}`);
    // general drawn-cell rules (boxes, open-sided rows, underlines, leaders, combs, squares, circles) find nearly all fields
    expect(found / gt.length).toBeGreaterThanOrEqual(0.9);
    expect(used.size / Math.max(1, onPages)).toBeGreaterThanOrEqual(0.9);
  });
});

/**
 * Fill per corpus form from generated plain-language instructions (one "label: value" line per text
 * cell, "check 'option' for label" per checkbox), read back from the output; then clear.
 */
maybe('corpus: fill from generated instructions, then clear', () => {
  const files = have ? fs.readdirSync(DIR).filter((f) => f.endsWith('.fields.json')).map((f) => f.replace('.fields.json', '.pdf')) : [];
  const tally = { asked: 0, landed: 0, cleared: 0, clearTotal: 0 };
  it.each(files)('%s', async (f) => {
    const pdf = new Uint8Array(fs.readFileSync(path.join(DIR, f)));
    const { cells } = await detectForm(pdf);
    const { text, expected } = instructionsFor(cells, normalizeLabel);
    const answer = mapFormInstructionsBuiltin({ instructions: text, cells: toFillableCells(cells) });
    const r = await fillForm(pdf, cells, answer.assignments);
    const after = (await detectForm(r.pdf)).cells;
    let landed = 0;
    for (const [i, v] of expected) {
      if (readBack(after[i]) === v) landed++;
    }
    tally.asked += expected.size; tally.landed += landed;
    const q = qpdfCheck(r.pdf);
    if (q) expect([0, 3]).toContain(q.status);
    const cl = await clearForm(r.pdf, after, { overlays: r.overlays });
    const left = (await detectForm(cl.pdf)).cells.filter((c) => (c.type === 'checkbox' ? c.checkbox_details?.some((d) => d.selected) : c.text.trim()));
    tally.clearTotal += after.length; tally.cleared += after.length - left.length;
    console.log(`${f}: instructed ${expected.size}, landed ${landed}, unmatched ${answer.unmatched.length}, unapplied ${r.unapplied.length}; after clear ${left.length} cell(s) still show a value`);
    expect(landed / Math.max(1, expected.size)).toBeGreaterThanOrEqual(0.5);
  });
  afterAll(() => console.log(`FILL: ${tally.landed}/${tally.asked} instructed values landed in the right field (${(100 * tally.landed / Math.max(1, tally.asked)).toFixed(1)}%); CLEAR: ${tally.cleared}/${tally.clearTotal} cells empty after clear`));
});
