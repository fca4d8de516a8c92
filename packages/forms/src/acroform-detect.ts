import { PDFArray, PDFDict, type PDFDocument, PDFHexString, PDFName, PDFString, type PDFObject } from 'pdf-lib';
import { type FieldWidget, loadEditablePdf } from '@quire/format-pdf';
import { buildPhrases, centreIn, cleanLabel, datePatternFromActions, findDatePattern, nearestLabel, prettifyFieldName, type Phrase, type PtBox, type PtWord } from './labels.js';
import { roundBox, type PageFrame } from './page-frame.js';
import type { CheckboxDetail, DetectedCell } from './types.js';

/**
 * Choice fields (dropdown / list box) become cells of type "text" whose `options` lists the display
 * values; the cell text is the selected display value(s) joined with ", ". Radio groups become ONE
 * checkbox cell with one checkbox_details entry per button; push buttons are not cells.
 */
export function widgetCells(pageNumber: number, frame: PageFrame, annots: FieldWidget[], words: PtWord[], widgetCount = new Map<string, number>(), rules: PtBox[] = []): DetectedCell[] {
  const widgets = annots.filter((a) => !a.pushButton);
  const ptBox = (r: number[]) => {
    const [l, t, rr, b] = rectNorm(frame, r);
    return { x0: l * frame.width, y0: t * frame.height, x1: rr * frame.width, y1: b * frame.height };
  };
  const boxes = widgets.map((w) => ptBox(w.rect));
  const free = words.filter((w) => !boxes.some((b) => centreIn(w.box, b)));
  const phrases = buildPhrases(free);
  const inside = (b: PtBox) => words.filter((w) => centreIn(w.box, b)).map((w) => w.text).join(' ');
  const cells: DetectedCell[] = [];
  const radios = new Map<string, number[]>();
  widgets.forEach((w, i) => {
    const name = w.fieldName;
    const widgetIndex = widgetCount.get(name) ?? 0;
    widgetCount.set(name, widgetIndex + 1);
    const box = boxes[i];
    const bbox = rectNorm(frame, w.rect);
    const printed = nearestLabel(box, phrases, { blockers: boxes, rules });
    const tooltip = (w.alternativeText ?? '').trim();
    const label = tooltip || printed || prettifyFieldName(name);
    const labels = labelSources(printed, tooltip, name);
    if (w.fieldType === 'Btn' && (w.radioButton || isGroupedCheckbox(w, widgets))) {
      radios.set(name, [...(radios.get(name) ?? []), i]);
      return;
    }
    if (w.fieldType === 'Btn') {
      const on = w.exportValue ?? 'Yes';
      const selected = String(w.fieldValue ?? 'Off') === on && on !== 'Off';
      const ownPrinted = nearestLabel(box, phrases, { preferRight: true });
      const ownLabel = tooltip || ownPrinted || prettifyFieldName(name);
      cells.push({
        page_number: pageNumber, type: 'checkbox', bounding_box: bbox, text: selected ? ownLabel : '', label: ownLabel, labels: labelSources(ownPrinted, tooltip, name),
        checkbox_details: [{ center_coord: centre(bbox), selected, text: ownLabel }],
        source: { kind: 'acroform', fieldName: name, widgetIndex, fieldType: 'checkbox', exportValues: [on] },
      });
      return;
    }
    if (w.fieldType === 'Sig') {
      cells.push({ page_number: pageNumber, type: 'signature', bounding_box: bbox, text: inside(box), label, labels, source: { kind: 'acroform', fieldName: name, widgetIndex, fieldType: 'signature' } });
      return;
    }
    const cell: DetectedCell = {
      page_number: pageNumber, type: 'text', bounding_box: bbox, text: '', label, labels,
      source: { kind: 'acroform', fieldName: name, widgetIndex, fieldType: w.fieldType === 'Ch' ? 'choice' : 'text' },
    };
    if (w.fieldType === 'Ch') {
      const opts = (w.options ?? []).map((o) => o.displayValue || o.exportValue);
      cell.options = opts;
      const vals = (Array.isArray(w.fieldValue) ? w.fieldValue : [w.fieldValue]).filter((v) => typeof v === 'string' && v !== '') as string[];
      cell.text = vals.map((v) => w.options?.find((o) => o.exportValue === v)?.displayValue || v).join(', ');
    } else {
      cell.text = typeof w.fieldValue === 'string' ? w.fieldValue : '';
      if (w.maxLen) cell.maxLength = w.maxLen;
      if (w.comb) cell.comb = true;
      if (w.multiLine) cell.multiline = true;
    }
    const dp = datePatternFromActions(w.actions) ?? findDatePattern(label) ?? findDatePattern(nearestLabel(box, phrases, { allowBelow: true }));
    if (dp) cell.datePattern = dp;
    cells.push(cell);
  });
  for (const [name, idxs] of radios) cells.push(radioCell(pageNumber, frame, name, idxs.map((i) => widgets[i]), idxs.map((i) => boxes[i]), phrases));
  addSections(cells, frame, phrases);
  return cells;
}

/**
 * The section heading each cell stands under: the nearest phrase above it, printed at least 1.2 times the
 * page's body size, that starts left of the cell's right edge (a heading in a column to its right is another part's).
 */
function addSections(cells: DetectedCell[], frame: PageFrame, phrases: Phrase[]) {
  const sizes = phrases.map((p) => p.fontSize).sort((a, b) => a - b);
  const body = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const headings = phrases.filter((p) => body > 0 && p.fontSize >= 1.2 * body && /\p{L}{3,}/u.test(p.text));
  if (!headings.length) return;
  for (const c of cells) {
    const y0 = c.bounding_box[1] * frame.height, x1 = c.bounding_box[2] * frame.width;
    const over = headings.filter((h) => h.box.y1 <= y0 + 1 && h.box.x0 < x1 && h.text !== c.labels?.printed)
      .sort((a, b) => b.box.y1 - a.box.y1)[0];
    if (over) c.labels = { ...c.labels, section: cleanLabel(over.text) };
  }
}

/** Each text a person or the PDF gives the field, kept apart so that instructions can trust the printed one most. */
function labelSources(printed: string, tooltip: string, fieldName: string): NonNullable<DetectedCell['labels']> {
  const out: NonNullable<DetectedCell['labels']> = { name: prettifyFieldName(fieldName) };
  if (printed) out.printed = printed;
  if (tooltip) out.tooltip = tooltip;
  return out;
}

/** A checkbox field with several widgets carrying different on-values behaves like a radio group. */
function isGroupedCheckbox(w: FieldWidget, all: FieldWidget[]): boolean {
  if (!w.checkBox) return false;
  const sibs = all.filter((o) => o.fieldName === w.fieldName);
  return sibs.length > 1 && new Set(sibs.map((o) => o.exportValue)).size > 1;
}

const MEANINGLESS = /^(choice|option|opt|radio|button|btn|on|off|value|kid|item|group)?\s*[_-]?\d*$/i;

function radioCell(page: number, frame: PageFrame, name: string, ws: FieldWidget[], boxes: PtBox[], phrases: ReturnType<typeof buildPhrases>): DetectedCell {
  const exportValues: string[] = [];
  const details: CheckboxDetail[] = ws.map((w, k) => {
    const ev = (w.radioButton ? w.buttonValue : w.exportValue) ?? String(k);
    exportValues.push(ev);
    const printed = nearestLabel(boxes[k], phrases, { preferRight: true });
    const text = !MEANINGLESS.test(ev) ? ev : printed || ev;
    const value = String(w.fieldValue ?? 'Off');
    return { center_coord: centre(rectNorm(frame, w.rect)), selected: value === ev && ev !== 'Off', text };
  });
  const union: PtBox = { x0: Math.min(...boxes.map((b) => b.x0)), y0: Math.min(...boxes.map((b) => b.y0)), x1: Math.max(...boxes.map((b) => b.x1)), y1: Math.max(...boxes.map((b) => b.y1)) };
  const optionTexts = new Set(details.map((d) => d.text));
  const question = nearestLabel(union, phrases.filter((p) => !optionTexts.has(p.text)));
  const tooltip = (ws[0].alternativeText ?? '').trim();
  const label = tooltip || question || prettifyFieldName(name);
  return {
    page_number: page, type: 'checkbox', labels: labelSources(question, tooltip, name),
    bounding_box: roundBox([union.x0 / frame.width, union.y0 / frame.height, union.x1 / frame.width, union.y1 / frame.height]),
    text: details.filter((d) => d.selected).map((d) => d.text).join(', '), label,
    checkbox_details: details, options: details.map((d) => d.text),
    source: { kind: 'acroform', fieldName: name, fieldType: 'radio', exportValues },
  };
}

function rectNorm(frame: PageFrame, r: number[]): [number, number, number, number] {
  const x0 = Math.min(r[0], r[2]), x1 = Math.max(r[0], r[2]), y0 = Math.min(r[1], r[3]), y1 = Math.max(r[1], r[3]);
  const pts = [[x0, y0], [x1, y1], [x0, y1], [x1, y0]].map(([x, y]) => [frame.toDisplay[0] * x + frame.toDisplay[2] * y + frame.toDisplay[4], frame.toDisplay[1] * x + frame.toDisplay[3] * y + frame.toDisplay[5]]);
  const xs = pts.map((p) => p[0] / frame.width), ys = pts.map((p) => p[1] / frame.height);
  return roundBox([Math.max(0, Math.min(...xs)), Math.max(0, Math.min(...ys)), Math.min(1, Math.max(...xs)), Math.min(1, Math.max(...ys))]);
}

const centre = (b: [number, number, number, number]): [number, number] => [Math.round(((b[0] + b[2]) / 2) * 1e5) / 1e5, Math.round(((b[1] + b[3]) / 2) * 1e5) / 1e5];

/**
 * Tooltips (/TU) by fully qualified field name. pdf.js reads /TU only from the widget dictionary;
 * forms whose field and widget are separate objects keep it on the field (or an ancestor).
 */
export async function fieldTooltips(pdf: Uint8Array): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let doc: PDFDocument;
  try { doc = await loadEditablePdf(pdf); } catch { return out; } // tooltips are extras: detection goes on without them
  const text = (o: unknown) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : undefined);
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (const ref of annots?.asArray() ?? []) {
      let d: PDFObject | undefined = doc.context.lookup(ref);
      const parts: string[] = [];
      let tu: string | undefined;
      for (let depth = 0; d instanceof PDFDict && depth < 32; depth++) {
        const t = text(d.lookup(PDFName.of('T')));
        if (t !== undefined) parts.unshift(t);
        tu ??= text(d.lookup(PDFName.of('TU')))?.trim() || undefined;
        const p: PDFObject | undefined = d.get(PDFName.of('Parent'));
        d = p ? doc.context.lookup(p) : undefined;
      }
      if (tu && parts.length && !out.has(parts.join('.'))) out.set(parts.join('.'), tu);
    }
  }
  return out;
}
