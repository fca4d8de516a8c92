import { QuireError, creditsFor, parsePageRange, type OcrEngine } from '@quire/core';
import {
  clearForm, detectForm, fillForm, fromSpecFormCells, toFillableCells, toSpecFormCells,
  type DetectedCell, type OverlayRecord,
} from '@quire/forms';
import { languageModelFor } from './language-model.js';
import type { JobContext, JobHandler, JobOutcome } from '@quire/runtime';

type FormOp = 'detect' | 'fill' | 'clear';

/** What a form artifact (type 'form', id = the job id = the form_id) keeps for chaining. */
export interface FormArtifactData {
  /** The PDF this form_id stands for: `<org>/<job>/out/form.pdf`, also served by GET /results/{job}/pdf. */
  pdf_blob: string;
  page_count: number;
  /** The cells with their internal bindings (field names, drawn shapes, labels), not only the spec's shape. */
  cells: DetectedCell[];
  /** Lineage: the overlays Quire has drawn on this PDF (QuireOverlayN XObjects), so clear and re-fill can remove exactly them. */
  overlays: OverlayRecord[];
  operation: FormOp;
  /** Pages this run worked on (all when absent). */
  pages?: number[];
}

interface FormInput { blob_key?: string; form_id?: string; page_count: number }

/**
 * One handler per form call. Each run reads its PDF (the upload, the downloaded file_url, or the PDF
 * of a form_id), works on the requested pages, writes the result PDF to `<prefix>out/form.pdf` and
 * saves a 'form' artifact whose id (the job id) is the new form_id.
 */
function formHandler(op: FormOp): JobHandler {
  return async (ctx: JobContext): Promise<JobOutcome> => {
    const { job, blobs, blobPrefix } = ctx;
    const req = job.request as { instructions?: string; form_fields?: unknown; pages?: string; base_url?: string };
    const input = job.input as unknown as FormInput;
    const parent = input.form_id ? await loadForm(ctx, input.form_id) : undefined;
    const pdf = parent ? parent.pdf : await blobs.getBytes(String(input.blob_key));
    const pageCount = parent?.data.page_count ?? input.page_count;
    const pages = req.pages ? parsePageRange(req.pages, pageCount) : undefined;
    const inRange = (c: { page_number: number }) => !pages || pages.includes(c.page_number);
    const steps = op === 'detect' ? 2 : 3;
    await ctx.checkpoint(0, steps);

    const warnings: string[] = [];
    // The cells this run works with: hand-edited form_fields, else the form_id's cached cells (fill/clear), else detection.
    let cells: DetectedCell[];
    if (op === 'detect' || (!parent && req.form_fields === undefined)) {
      // scanned pages are OCR'd (words, raster rulings and checkbox squares) when the worker has an
      // engine; without one, a form_id's scanned cells are re-read from what the scan showed plus overlays
      const d = await detectForm(pdf, { pages, ocr: ctx.services.ocr as OcrEngine | undefined, knownCells: parent?.data.cells });
      cells = d.cells;
      warnings.push(...d.warnings);
    } else if (req.form_fields !== undefined) {
      const known = parent?.data.cells ?? (await detectForm(pdf, { pages, ocr: ctx.services.ocr as OcrEngine | undefined })).cells;
      cells = fromSpecFormCells(req.form_fields, known);
      const outside = cells.filter((c) => c.page_number > pageCount);
      if (outside.length) throw new QuireError('REQ_003', `form_fields names page ${outside[0].page_number} but the PDF has ${pageCount} page(s)`, { page_count: pageCount });
    } else {
      cells = parent!.data.cells;
    }
    await ctx.checkpoint(1, steps);

    let out = pdf;
    let overlays = parent?.data.overlays ?? [];
    const result: Record<string, unknown> = {};
    const details: Record<string, unknown> = {};
    if (op === 'fill') {
      const instructions = String(req.instructions ?? '');
      const model = languageModelFor(ctx);
      const fillable = toFillableCells(cells).filter((c) => inRange({ page_number: c.page }));
      const answer = await model.mapFormInstructions({ instructions, cells: fillable });
      const r = await fillForm(pdf, cells, answer.assignments.map((a) => ({ cellIndex: a.cellIndex, value: a.value })), { overlays });
      out = r.pdf;
      overlays = r.overlays;
      cells = r.cells;
      result.fields_filled = r.filled;
      details.model = model.id;
      details.unmatched_instructions = answer.unmatched;
      details.unapplied = r.unapplied.map((u) => ({ field: describe(cells[u.cellIndex]), value: u.value, reason: u.reason }));
      const notes = answer.assignments.filter((a) => a.note).map((a) => ({ field: describe(cells[a.cellIndex]), note: a.note }));
      if (notes.length) details.adjusted = notes;
    } else if (op === 'clear') {
      const targets = cells.map((c, i) => ({ c, i })).filter(({ c }) => inRange(c));
      if (targets.length || !pages) {
        const r = await clearForm(pdf, targets.map((t) => t.c), { overlays: overlays.filter(inRange) });
        out = r.pdf;
        // clearForm removes every Quire overlay on the pages of the cells it got (all pages when it got none)
        const swept = new Set(targets.length ? targets.map((t) => t.c.page_number) : Array.from({ length: pageCount }, (_, k) => k + 1));
        overlays = overlays.filter((o) => !swept.has(o.page_number));
        const next = [...cells];
        targets.forEach((t, k) => { next[t.i] = r.cells[k]; });
        cells = next;
        result.fields_cleared = r.cleared;
        warnings.push(...r.warnings);
      } else {
        result.fields_cleared = 0;
      }
    }
    await ctx.checkpoint(2, steps);

    const pdfBlob = `${blobPrefix}out/form.pdf`;
    await blobs.put(pdfBlob, out, { contentType: 'application/pdf' });
    const processed = pages?.length ?? pageCount;
    if (warnings.length) details.warnings = warnings;
    const data: FormArtifactData = { pdf_blob: pdfBlob, page_count: pageCount, cells, overlays, operation: op, ...(pages ? { pages } : {}) };
    return {
      result: {
        form_id: job.id,
        page_count: pageCount,
        pdf_url: `${String(req.base_url ?? '')}/results/${job.id}/pdf`,
        form_fields: toSpecFormCells(cells.filter(inRange)),
        ...result,
        ...(Object.keys(details).length ? { details } : {}),
      },
      credits: creditsFor(`form_${op}`, { pages: processed }),
      pages: processed,
      artifacts: [{ id: job.id, type: 'form', parentId: parent ? input.form_id : null, data: data as unknown as Record<string, unknown> }],
    };
  };
}

/** The form_id's artifact and PDF; checked again here since it may have expired while the job waited. */
async function loadForm(ctx: JobContext, formId: string): Promise<{ data: FormArtifactData; pdf: Uint8Array }> {
  const artifact = await ctx.store.artifacts.getForOrg(ctx.org.id, 'form', formId);
  if (!artifact) throw new QuireError('STORAGE_002', `form_id ${formId} not found`, { field: 'form_id', id: formId });
  const data = artifact.data as unknown as FormArtifactData;
  const expired = () => new QuireError('STORAGE_005', `form_id ${formId} has expired and its PDF was removed by the retention policy`, { field: 'form_id', id: formId });
  if (artifact.expired) throw expired();
  if (!(await ctx.blobs.head(data.pdf_blob))) throw expired();
  return { data, pdf: await ctx.blobs.getBytes(data.pdf_blob) };
}

const describe = (c: DetectedCell | undefined) => (c ? { label: c.label, page_number: c.page_number, type: c.type } : null);


export const formDetectHandler = formHandler('detect');
export const formFillHandler = formHandler('fill');
export const formClearHandler = formHandler('clear');
