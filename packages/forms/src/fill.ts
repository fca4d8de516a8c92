import type { PDFDocument, PDFPage } from 'pdf-lib';
import { QuireError } from '@quire/core';
import { AcroFields, checkboxChoice } from './acroform-fill.js';
import { boxIou } from './convert.js';
import { FontPicker } from './fonts.js';
import { drawCheckOverlay, drawTextOverlay, removeOverlays } from './overlay.js';
import { loadEditablePdf } from '@quire/format-pdf';
import { pdfLibPageFrame, remapBox } from './page-frame.js';
import { cellValue, refreshCells } from './refresh.js';
import { detailBoxes } from './cell-boxes.js';
import { removeTypedContent } from './text-removal.js';
import type { DetectedCell, FillAssignment, FillOptions, FillResult, OverlayRecord, UnappliedAssignment } from './types.js';

type NBox = [number, number, number, number];

/**
 * Writes values into a PDF form: AcroForm fields get their values and new appearance streams;
 * drawn (flat) cells and signature fields get an overlay (a named Form XObject per cell, recorded
 * in `overlays`). Assignments that cannot be applied are returned in `unapplied` with the reason.
 * `filled` counts the cells whose value changed, read back from the output.
 */
export async function fillForm(pdf: Uint8Array, cells: DetectedCell[], assignments: FillAssignment[], opts: FillOptions = {}): Promise<FillResult> {
  const doc = await loadEditablePdf(pdf);
  const fonts = new FontPicker(doc, opts.fontBytes);
  let acro: AcroFields | undefined;
  const fields = () => (acro ??= new AcroFields(doc, fonts));
  let overlays: OverlayRecord[] = [...(opts.overlays ?? [])];
  const unapplied: UnappliedAssignment[] = [];
  const latest = new Map<number, string>();
  for (const a of assignments) latest.set(a.cellIndex, a.value);
  const pages = doc.getPages();
  for (const [idx, value] of latest) {
    const cell = cells[idx];
    const page = cell ? pages[cell.page_number - 1] : undefined;
    if (!cell || !page) { unapplied.push({ cellIndex: idx, value, reason: cell ? 'page not in the PDF' : 'no such cell' }); continue; }
    try {
      const ctx: Ctx = { doc, page, fonts, overlays, idx, fields };
      overlays = await applyOne(ctx, cell, value);
    } catch (e) {
      unapplied.push({ cellIndex: idx, value, reason: (e as Error).message });
    }
  }
  const bytes = await save(doc);
  const before = cells.map(cellValue);
  const refreshed = await refreshCells(bytes, cells, cells);
  const filled = refreshed.filter((c, i) => latest.has(i) && cellValue(c) !== before[i]).length;
  return { pdf: bytes, cells: refreshed, filled, overlays, unapplied };
}

interface Ctx { doc: PDFDocument; page: PDFPage; fonts: FontPicker; overlays: OverlayRecord[]; idx: number; fields: () => AcroFields }

async function applyOne(ctx: Ctx, cell: DetectedCell, value: string): Promise<OverlayRecord[]> {
  const src = cell.source;
  if (src.kind === 'acroform' && src.fieldType !== 'signature') {
    const f = ctx.fields();
    if (src.fieldType === 'text') await f.setText(src.fieldName, value);
    else if (src.fieldType === 'choice') await f.setChoice(src.fieldName, [value]);
    else {
      const options = (cell.checkbox_details ?? []).map((d) => d.text);
      const pick = checkboxChoice(options, value);
      if (pick === null) throw new Error(`"${value}" is not an option of this checkbox (${options.join(', ')})`);
      f.setButton(src.fieldName, pick.length ? src.exportValues?.[pick[0]] ?? 'Yes' : null);
    }
    return ctx.overlays;
  }
  const frame = pdfLibPageFrame(ctx.page);
  // overlays are drawn upright for the cell's text; boxes move into that frame
  const drawFrame = cell.readingRotation !== undefined ? pdfLibPageFrame(ctx.page, cell.readingRotation) : frame;
  const inDraw = (b: NBox): NBox => (drawFrame === frame ? b : remapBox(b, frame, drawFrame));
  // Quire's earlier drawing in this cell is replaced, never stacked
  const prior = ctx.overlays.filter((o) => o.page_number === cell.page_number && boxIou(o.bounding_box, cell.bounding_box) >= 0.5);
  if (prior.length) removeOverlays(ctx.doc, ctx.page, new Set(prior.map((o) => o.xobject)));
  const rest = ctx.overlays.filter((o) => !prior.includes(o));
  const record = (xobject: string, v: string): OverlayRecord[] => [...rest, { page_number: cell.page_number, cellIndex: ctx.idx, bounding_box: cell.bounding_box, xobject, value: v }];
  if (cell.type === 'checkbox') {
    const details = cell.checkbox_details ?? [];
    const pick = checkboxChoice(details.map((d) => d.text), value);
    if (pick === null) throw new Error(`"${value}" is not an option of this checkbox (${details.map((d) => d.text).join(', ')})`);
    const boxes = detailBoxes(cell);
    // marks made by other tools: removed where the box must end up empty, left alone where it stays selected
    const foreign = details.map((d) => d.selected && !prior.length);
    const unset = details.map((_, k) => k).filter((k) => foreign[k] && !pick.includes(k));
    const inked = unset.filter((k) => cell.scan?.selected?.[k]);
    if (inked.length) throw new Error(`${inked.map((k) => `"${details[k].text}"`).join(', ')} is ticked in the scanned image, which Quire cannot undo`);
    if (unset.length) {
      removeTypedContent(ctx.doc, ctx.page, frame, unset.map((k) => ({ box: boxes[k], kind: 'check' as const })));
    }
    const draw = pick.filter((k) => !foreign[k]);
    if (!draw.length) return rest;
    return record(drawCheckOverlay(ctx.doc, ctx.page, drawFrame, inDraw(cell.bounding_box), draw.map((k) => inDraw(boxes[k]))), pick.map((k) => details[k].text).join(', '));
  }
  const text = cell.maxLength && value.length > cell.maxLength ? value.slice(0, cell.maxLength) : value;
  if (cell.text.trim() && !prior.length) removeTypedContent(ctx.doc, ctx.page, frame, [{ box: cell.bounding_box, kind: 'text' }]);
  if (!text.trim()) return rest;
  const combBoxes = cell.comb && cell.source.kind === 'drawn' ? cell.source.boxes?.map(inDraw) : undefined;
  const name = await drawTextOverlay(ctx.doc, ctx.page, drawFrame, inDraw(cell.bounding_box), text, ctx.fonts, { multiline: cell.multiline, combBoxes });
  return record(name, text);
}

export async function save(doc: PDFDocument): Promise<Uint8Array> {
  try {
    return await doc.save({ updateFieldAppearances: false });
  } catch (e) {
    throw new QuireError('PROC_001', 'Writing the PDF failed', { reason: (e as Error).message });
  }
}
