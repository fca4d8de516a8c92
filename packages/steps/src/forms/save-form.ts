import { creditsFor } from '@quire/core';
import { toSpecFormCells, type DetectedCell, type OverlayRecord } from '@quire/forms';
import type { JobContext, JobOutcome } from '@quire/jobs';
import { onRequestedPages, type FormArtifactData, type FormKind, type FormSource } from './form-source.js';

/** What one form operation made of its source. */
export interface FormRun {
  pdf: Uint8Array;
  cells: DetectedCell[];
  overlays: OverlayRecord[];
  /** The operation's own result members (fields_filled, fields_cleared). */
  counts?: Record<string, number>;
  /** The operation's own details; warnings are added after them. */
  details?: Record<string, unknown>;
  warnings: string[];
}

/**
 * Writes the run's PDF to `<prefix>out/form.pdf` and answers with a 'form' artifact whose id (the job
 * id) is the new form_id, its cells on the requested pages in the spec's shape, and the credits of
 * the pages it worked on.
 */
export async function saveForm(ctx: JobContext<FormKind>, src: FormSource, operation: FormArtifactData['operation'], run: FormRun): Promise<JobOutcome> {
  const { job, blobs, blobPrefix } = ctx;
  const pdfBlob = `${blobPrefix}out/form.pdf`;
  await blobs.put(pdfBlob, run.pdf, { contentType: 'application/pdf' });
  const processed = src.pages?.length ?? src.pageCount;
  const details = { ...run.details, ...(run.warnings.length ? { warnings: run.warnings } : {}) };
  const data: FormArtifactData = {
    pdf_blob: pdfBlob, page_count: src.pageCount, cells: run.cells, overlays: run.overlays, operation, ...(src.pages ? { pages: src.pages } : {}),
  };
  return {
    result: {
      form_id: job.id,
      page_count: src.pageCount,
      pages_processed: processed,
      pdf_url: `${job.request.base_url}/results/${job.id}/pdf`,
      form_fields: toSpecFormCells(run.cells.filter(onRequestedPages(src))),
      ...run.counts,
      ...(Object.keys(details).length ? { details } : {}),
    },
    credits: creditsFor(job.kind, { pages: processed }),
    pages: processed,
    artifacts: [{ id: job.id, type: 'form', parentId: src.parent?.id ?? null, data }],
  };
}
