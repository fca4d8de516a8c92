import { AcroFields } from './acroform-fill.js';
import { FontPicker } from './fonts.js';
import { detailBoxes } from './cell-boxes.js';
import { save } from './fill.js';
import { removeOverlays } from './overlay.js';
import { loadEditablePdf } from '@quire/format-pdf';
import { pdfLibPageFrame } from './page-frame.js';
import { hasValue, refreshCells } from './refresh.js';
import { removeTypedContent, type RemovalTarget } from './text-removal.js';
import type { ClearLineage, ClearResult, DetectedCell } from './types.js';

/**
 * Strips filled-in values and keeps the printed template:
 * - AcroForm fields are emptied (text and choices removed, checkboxes and radios off) with fresh
 *   appearance streams;
 * - Quire's overlays are removed by name (QuireOverlayN, recorded in the lineage; the name alone
 *   identifies them, so a Quire-filled PDF uploaded again is cleared too);
 * - on flat pages, text typed by other tools inside the detected cells is removed from the content
 *   streams, and check marks drawn inside checkbox squares;
 * - scanned pages: Quire's overlays go as anywhere else; values that are pixels of the scan
 *   (handwriting, ticks, typed text scanned with the form) stay and are reported in `warnings`.
 * `cleared` counts the cells that showed a value before and show none after.
 */
export async function clearForm(pdf: Uint8Array, cells: DetectedCell[], lineage: ClearLineage = {}): Promise<ClearResult> {
  const doc = await loadEditablePdf(pdf);
  const warnings: string[] = [];
  const pages = doc.getPages();
  const targetPages = [...new Set(cells.map((c) => c.page_number))].filter((n) => n >= 1 && n <= pages.length);
  const removed = new Set<string>();
  for (const n of targetPages.length ? targetPages : pages.map((_, i) => i + 1)) {
    for (const name of removeOverlays(doc, pages[n - 1])) removed.add(`${n}:${name}`);
  }
  const missing = (lineage.overlays ?? []).filter((o) => !removed.has(`${o.page_number}:${o.xobject}`));
  if (missing.length) warnings.push(`${missing.length} recorded overlay(s) were no longer in the PDF`);
  const acroCells = cells.filter((c) => c.source.kind === 'acroform' && c.source.fieldType !== 'signature');
  if (acroCells.length) {
    const fields = new AcroFields(doc, new FontPicker(doc));
    for (const name of new Set(acroCells.map((c) => (c.source.kind === 'acroform' ? c.source.fieldName : '')))) {
      // one field pdf-lib fails on (a damaged dictionary) is reported, as fill reports its values unapplied
      const failure = await fields.clear(name).then((ok) => (ok ? undefined : ''), (e: unknown) => `: ${e instanceof Error ? e.message : String(e)}`);
      if (failure !== undefined) warnings.push(`Field "${name}" could not be cleared${failure}`);
    }
    warnings.push(...fields.notes);
  }
  const byPage = new Map<number, RemovalTarget[]>();
  for (const c of cells) {
    if (!hasValue(c) || (c.source.kind === 'acroform' && c.type !== 'signature')) continue;
    const t: RemovalTarget[] = c.type === 'checkbox'
      ? detailBoxes(c).filter((_, k) => c.checkbox_details?.[k]?.selected).map((box) => ({ box, kind: 'check' }))
      : [{ box: c.bounding_box, kind: 'text' }];
    byPage.set(c.page_number, [...(byPage.get(c.page_number) ?? []), ...t]);
  }
  for (const [n, targets] of byPage) {
    const page = pages[n - 1];
    if (page) removeTypedContent(doc, page, pdfLibPageFrame(page), targets);
  }
  const bytes = await save(doc);
  const refreshed = await refreshCells(bytes, cells, cells.map(emptied));
  const left = refreshed.filter(hasValue);
  const onScans = left.filter((c) => c.scan && (c.scan.text || c.scan.selected?.some(Boolean)));
  if (onScans.length) warnings.push(`${onScans.length} cell(s) on scanned pages still show a value that is part of the scanned image (pixels cannot be cleared)`);
  if (left.length > onScans.length) warnings.push(`${left.length - onScans.length} cell(s) still show a value (text drawn in a way Quire cannot separate from the template)`);
  // cleared: cells that showed a value and show none now (a value that is pixels of a scan stays)
  return { pdf: bytes, cells: refreshed, cleared: cells.filter((c, i) => hasValue(c) && !hasValue(refreshed[i])).length, warnings };
}

const emptied = (c: DetectedCell): DetectedCell => ({
  ...c, text: '', ...(c.checkbox_details ? { checkbox_details: c.checkbox_details.map((d) => ({ ...d, selected: false })) } : {}),
});
