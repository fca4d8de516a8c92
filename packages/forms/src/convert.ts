import { z } from 'zod';
import { QuireError } from '@quire/core';
import { FormCellSchema, type FormCell } from '@quire/contracts';
import type { FillableCell } from '@quire/models';
import type { DetectedCell } from './types.js';

export type { FormCell };

/** The spec's FormCell JSON: internal fields (label, source, options…) are left out. */
export function toSpecFormCells(cells: DetectedCell[]): FormCell[] {
  return cells.map((c) => {
    const o: FormCell = { page_number: c.page_number, type: c.type, bounding_box: c.bounding_box, text: c.text };
    if (c.row !== undefined) o.row = c.row;
    if (c.col !== undefined) o.col = c.col;
    if (c.table_idx !== undefined) o.table_idx = c.table_idx;
    if (c.checkbox_details) o.checkbox_details = c.checkbox_details.map((d) => ({ center_coord: d.center_coord, selected: d.selected, text: d.text }));
    return o;
  });
}

/** What LanguageModel.mapFormInstructions reads; `index` is the position in `cells`. */
export function toFillableCells(cells: DetectedCell[]): FillableCell[] {
  return cells.map((c, index) => {
    const f: FillableCell = { index, label: c.label, type: c.type, page: c.page_number, currentText: c.text };
    const opts = c.type === 'checkbox' ? (c.checkbox_details ?? []).map((d) => d.text) : c.options;
    if (opts?.length && !(c.type === 'checkbox' && opts.length === 1 && opts[0] === c.label)) f.options = opts;
    if (c.maxLength) f.maxLength = c.maxLength;
    if (c.datePattern) f.datePattern = c.datePattern;
    if (c.labels?.printed) f.printedLabel = c.labels.printed;
    if (c.labels?.tooltip) f.tooltip = c.labels.tooltip;
    if (c.labels?.name) f.fieldName = c.labels.name;
    if (c.labels?.section) f.section = c.labels.section;
    if (c.comb) f.comb = true;
    f.box = c.bounding_box;
    return f;
  });
}

const iou = (a: number[], b: number[]) => {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const i = w > 0 && h > 0 ? w * h : 0;
  const u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i;
  return u > 0 ? i / u : 0;
};
export { iou as boxIou };

/**
 * Validates hand-edited FormCell JSON (the fill request's form_fields) and joins it to detected cells:
 * a cell matching a detected one (same page and type, box IoU ≥ 0.5) keeps that cell's field binding
 * and label; any other cell becomes a drawn cell Quire overlays into. Throws REQ_002 when malformed.
 */
export function fromSpecFormCells(input: unknown, detected: DetectedCell[] = []): DetectedCell[] {
  const parsed = z.array(FormCellSchema).safeParse(input);
  if (!parsed.success) {
    throw new QuireError('REQ_002', 'form_fields is not a valid array of form cells', { issues: parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })) });
  }
  return parsed.data.map((s) => {
    const match = detected.filter((d) => d.page_number === s.page_number && d.type === s.type)
      .map((d) => ({ d, s: iou(d.bounding_box, s.bounding_box) })).filter((x) => x.s >= 0.5).sort((a, b) => b.s - a.s)[0]?.d;
    const base: DetectedCell = match
      ? { ...match }
      : { page_number: s.page_number, type: s.type, bounding_box: s.bounding_box, text: '', label: '', source: { kind: 'drawn', shape: s.type === 'checkbox' ? 'square' : 'box' } };
    const cell: DetectedCell = { ...base, page_number: s.page_number, type: s.type, bounding_box: s.bounding_box, text: s.text };
    for (const k of ['row', 'col', 'table_idx'] as const) if (s[k] !== undefined) cell[k] = s[k];
    if (s.checkbox_details) cell.checkbox_details = s.checkbox_details;
    return cell;
  });
}
