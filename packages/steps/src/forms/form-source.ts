import { z } from 'zod';
import { QuireError, parsePageRange } from '@quire/core';
import { detectForm, fromSpecFormCells, type DetectedCell, type OverlayRecord } from '@quire/forms';
import type { JobRequest } from '@quire/queue';
import type { JobContext } from '@quire/jobs';

export type FormKind = 'form_detect' | 'form_fill' | 'form_clear';

const isObject = (v: unknown) => typeof v === 'object' && v !== null;

/** What a form artifact (type 'form', id = the job id = the form_id) keeps for chaining. */
const FormArtifactDataSchema = z.object({
  /** The PDF this form_id stands for: `<org>/<job>/out/form.pdf`, also served by GET /results/{job}/pdf. */
  pdf_blob: z.string(),
  page_count: z.number().int(),
  /** The cells with their internal bindings (field names, drawn shapes, labels), not only the spec's shape. */
  cells: z.array(z.custom<DetectedCell>(isObject)),
  /** Lineage: the overlays Quire has drawn on this PDF (QuireOverlayN XObjects), so clear and re-fill can remove exactly them. */
  overlays: z.array(z.custom<OverlayRecord>(isObject)),
  operation: z.enum(['detect', 'fill', 'clear']),
  /** Pages this run worked on (all when absent). */
  pages: z.array(z.number().int()).optional(),
});
export type FormArtifactData = z.infer<typeof FormArtifactDataSchema>;

/** The PDF one form call works on and the pages it covers. */
export interface FormSource {
  pdf: Uint8Array;
  pageCount: number;
  /** The requested pages; all when undefined. */
  pages?: number[];
  /** The form_id this call continues from: its cached cells and the overlays drawn so far. */
  parent?: { id: string; data: FormArtifactData };
}

/** Reads the call's PDF: the staged upload or download, or the PDF of its form_id. */
export async function openFormSource(ctx: JobContext<FormKind>): Promise<FormSource> {
  const { request, input } = ctx.job;
  const requested = (pageCount: number) => (request.pages !== undefined ? parsePageRange(request.pages, pageCount) : undefined);
  if ('form_id' in input) {
    const { data, pdf } = await loadForm(ctx, input.form_id);
    return { pdf, pageCount: data.page_count, pages: requested(data.page_count), parent: { id: input.form_id, data } };
  }
  const pdf = await ctx.blobs.getBytes(input.blob_key);
  return { pdf, pageCount: input.page_count, pages: requested(input.page_count) };
}

/** Whether a cell or overlay lies on the requested pages. */
export const onRequestedPages = (src: FormSource) => (c: { page_number: number }): boolean => !src.pages || src.pages.includes(c.page_number);

/**
 * The cells read off the PDF. Scanned pages are OCR'd (words, raster rulings and checkbox squares)
 * when the worker has an engine; without one, a form_id's scanned cells are re-read from what the
 * scan showed plus overlays.
 */
export async function detectCells(ctx: JobContext, src: FormSource): Promise<{ cells: DetectedCell[]; warnings: string[] }> {
  const { cells, warnings } = await detectForm(src.pdf, { pages: src.pages, ocr: ctx.services.ocr, knownCells: src.parent?.data.cells });
  return { cells, warnings };
}

/**
 * The cells a fill or clear works with: hand-edited form_fields (joined to the form_id's cells, else
 * to detected ones), else the form_id's cached cells, else detection.
 */
export async function cellsToWorkOn(ctx: JobContext, src: FormSource, formFields: JobRequest<'form_fill' | 'form_clear'>['form_fields']): Promise<{ cells: DetectedCell[]; warnings: string[] }> {
  if (formFields !== undefined) {
    const known = src.parent?.data.cells ?? (await detectCells(ctx, src)).cells;
    const cells = fromSpecFormCells(formFields, known);
    const outside = cells.find((c) => c.page_number > src.pageCount);
    if (outside) throw new QuireError('REQ_003', `form_fields names page ${outside.page_number} but the PDF has ${src.pageCount} page(s)`, { page_count: src.pageCount });
    return { cells, warnings: [] };
  }
  if (src.parent) return { cells: src.parent.data.cells, warnings: [] };
  return detectCells(ctx, src);
}

/** The form_id's artifact and PDF; checked again here since it may have expired while the job waited. */
async function loadForm(ctx: JobContext, formId: string): Promise<{ data: FormArtifactData; pdf: Uint8Array }> {
  const artifact = await ctx.store.artifacts.getForOrg(ctx.org.id, 'form', formId);
  if (!artifact) throw new QuireError('STORAGE_002', `form_id ${formId} not found`, { field: 'form_id', id: formId });
  const expired = () => new QuireError('STORAGE_005', `form_id ${formId} has expired and its PDF was removed by the retention policy`, { field: 'form_id', id: formId });
  if (artifact.expired) throw expired();
  const parsed = FormArtifactDataSchema.safeParse(artifact.data);
  if (!parsed.success) throw new QuireError('JOB_005', `form_id ${formId} does not hold a saved form: ${z.prettifyError(parsed.error)}`, { field: 'form_id', id: formId });
  if (!(await ctx.blobs.head(parsed.data.pdf_blob))) throw expired();
  return { data: parsed.data, pdf: await ctx.blobs.getBytes(parsed.data.pdf_blob) };
}
