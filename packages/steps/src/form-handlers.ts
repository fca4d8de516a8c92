import { clearForm, fillForm, toFillableCells, type DetectedCell } from '@quire/forms';
import { defineJobHandler } from '@quire/jobs';
import { cellsToWorkOn, detectCells, onRequestedPages, openFormSource, type FormSource } from './forms/form-source.js';
import { saveForm, type FormRun } from './forms/save-form.js';

export type { FormArtifactData } from './forms/form-source.js';

/**
 * The form calls. Each reads its PDF (the upload, the downloaded file_url, or the PDF of a form_id),
 * works on the requested pages, and saves the result PDF as a new form_id (see saveForm).
 */

/** POST /form/detect: the cells read off the PDF (a form_id's cached cells help re-read its scanned pages). */
export const formDetectHandler = defineJobHandler('form_detect', async (ctx) => {
  const src = await openFormSource(ctx);
  await ctx.checkpoint(0, 2);
  const { cells, warnings } = await detectCells(ctx, src);
  await ctx.checkpoint(1, 2);
  await ctx.checkpoint(2, 2); // the operation's step, empty for detect (fill and clear count 3 steps)
  return saveForm(ctx, src, 'detect', { pdf: src.pdf, cells, overlays: src.parent?.data.overlays ?? [], warnings });
});

/** POST /form/fill: the language model maps the instructions onto the cells of the requested pages. */
export const formFillHandler = defineJobHandler('form_fill', async (ctx) => {
  const { request } = ctx.job;
  const src = await openFormSource(ctx);
  await ctx.checkpoint(0, 3);
  const start = await cellsToWorkOn(ctx, src, request.form_fields);
  await ctx.checkpoint(1, 3);
  const model = ctx.services.languageModel;
  const inRange = onRequestedPages(src);
  const fillable = toFillableCells(start.cells).filter((c) => inRange({ page_number: c.page }));
  const answer = await model.mapFormInstructions({ instructions: request.instructions, cells: fillable });
  const assignments = answer.assignments.map((a) => ({ cellIndex: a.cellIndex, value: a.value }));
  const r = await fillForm(src.pdf, start.cells, assignments, { overlays: src.parent?.data.overlays ?? [] });
  await ctx.checkpoint(2, 3);
  const notes = answer.assignments.filter((a) => a.note).map((a) => ({ field: describe(r.cells[a.cellIndex]), note: a.note }));
  // the same record whichever engine mapped: which fragment went to which field, with its score
  const mapping = answer.assignments.map((a) => ({ instruction: a.instruction, field: describe(r.cells[a.cellIndex]), value: a.value, score: a.confidence }));
  const unplaced: { instruction: string; value?: string; reason: string }[] = answer.unplaced ?? answer.unmatched.map((instruction) => ({ instruction, reason: 'the model matched it to no field' }));
  return saveForm(ctx, src, 'fill', {
    pdf: r.pdf, cells: r.cells, overlays: r.overlays, warnings: start.warnings,
    counts: { fields_filled: r.filled },
    details: {
      model: model.id,
      unmatched_instructions: answer.unmatched,
      mapping,
      unapplied: [
        ...unplaced.map((u) => ({ instruction: u.instruction, field: null, ...(u.value !== undefined ? { value: u.value } : {}), reason: u.reason })),
        ...r.unapplied.map((u) => ({ field: describe(r.cells[u.cellIndex]), value: u.value, reason: u.reason })),
      ],
      ...(notes.length ? { adjusted: notes } : {}),
    },
  });
});

/** POST /form/clear: empties the cells of the requested pages and removes Quire's overlays there. */
export const formClearHandler = defineJobHandler('form_clear', async (ctx) => {
  const src = await openFormSource(ctx);
  await ctx.checkpoint(0, 3);
  const start = await cellsToWorkOn(ctx, src, ctx.job.request.form_fields);
  await ctx.checkpoint(1, 3);
  const cleared = await clearCells(src, start.cells);
  await ctx.checkpoint(2, 3);
  return saveForm(ctx, src, 'clear', { ...cleared, warnings: [...start.warnings, ...cleared.warnings] });
});

async function clearCells(src: FormSource, cells: DetectedCell[]): Promise<FormRun> {
  const inRange = onRequestedPages(src);
  const overlays = src.parent?.data.overlays ?? [];
  const targets = cells.map((c, i) => ({ c, i })).filter(({ c }) => inRange(c));
  if (!targets.length && src.pages) return { pdf: src.pdf, cells, overlays, counts: { fields_cleared: 0 }, warnings: [] };
  const r = await clearForm(src.pdf, targets.map((t) => t.c), { overlays: overlays.filter(inRange) });
  // clearForm removes every Quire overlay on the pages of the cells it got (all pages when it got none)
  const swept = new Set(targets.length ? targets.map((t) => t.c.page_number) : Array.from({ length: src.pageCount }, (_, k) => k + 1));
  const next = [...cells];
  targets.forEach((t, k) => { next[t.i] = r.cells[k]; });
  return { pdf: r.pdf, cells: next, overlays: overlays.filter((o) => !swept.has(o.page_number)), counts: { fields_cleared: r.cleared }, warnings: r.warnings };
}

const describe = (c: DetectedCell | undefined) => (c ? { label: c.label, page_number: c.page_number, type: c.type } : null);
