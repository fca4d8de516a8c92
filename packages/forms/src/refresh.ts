import { boxIou } from './convert.js';
import { detectForm } from './detect.js';
import type { DetectedCell } from './types.js';

/** The value of a cell as one comparable string (text, or the selected boxes). */
export const cellValue = (c: DetectedCell) =>
  c.type === 'checkbox' ? (c.checkbox_details ?? []).map((d) => (d.selected ? '1' : '0')).join('') : c.text.trim();

export const hasValue = (c: DetectedCell) =>
  c.type === 'checkbox' ? (c.checkbox_details ?? []).some((d) => d.selected) : c.text.trim() !== '';

/**
 * Re-reads the values of `cells` from a PDF (after fill or clear), so the cells returned say what
 * the output really shows. Cells keep their own boxes, labels and bindings; only text and
 * selection states are updated. A cell with no counterpart keeps `fallback`'s value.
 */
export async function refreshCells(pdf: Uint8Array, cells: DetectedCell[], fallback: DetectedCell[]): Promise<DetectedCell[]> {
  const pages = [...new Set(cells.map((c) => c.page_number))];
  // scanned pages are re-read from what the scan showed plus the overlays now drawn (no OCR here)
  const { cells: now } = await detectForm(pdf, { pages, knownCells: cells.filter((c) => c.source.kind === 'drawn') });
  return cells.map((c, i) => {
    const m = counterpart(c, now);
    const src = m ?? fallback[i];
    const out: DetectedCell = { ...c, text: src.text };
    if (c.checkbox_details) {
      out.checkbox_details = c.checkbox_details.map((d, k) => {
        const md = m?.checkbox_details?.find((x) => Math.abs(x.center_coord[0] - d.center_coord[0]) < 0.01 && Math.abs(x.center_coord[1] - d.center_coord[1]) < 0.01);
        return { ...d, selected: md ? md.selected : fallback[i].checkbox_details?.[k]?.selected ?? d.selected };
      });
      out.text = out.checkbox_details.filter((d) => d.selected).map((d) => d.text).join(', ');
    }
    return out;
  });
}

function counterpart(c: DetectedCell, now: DetectedCell[]): DetectedCell | undefined {
  const same = now.filter((n) => n.page_number === c.page_number && n.type === c.type);
  if (c.source.kind === 'acroform') {
    const { fieldName, widgetIndex } = c.source;
    return same.find((n) => n.source.kind === 'acroform' && n.source.fieldName === fieldName && (n.source.widgetIndex ?? 0) === (widgetIndex ?? 0));
  }
  return same.map((n) => ({ n, s: boxIou(n.bounding_box, c.bounding_box) })).filter((x) => x.s >= 0.5).sort((a, b) => b.s - a.s)[0]?.n;
}
