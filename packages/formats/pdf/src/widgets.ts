import type { RawWidget } from '@quire/core';
import { type Matrix, applyMatrix, normalizedBox } from './matrix.js';
import type { PDFPageProxy } from './pdfjs.js';

/** The fields of a pdf.js annotation object that describe an AcroForm widget (what extract and forms read). */
export interface WidgetAnnotation {
  subtype?: string;
  id?: string;
  rect?: number[];
  fieldType?: string;
  /** The fully qualified field name (parent names joined with "."). */
  fieldName?: string;
  fieldValue?: unknown;
  /** The tooltip (/TU) when it is on the widget's own dictionary. */
  alternativeText?: string;
  checkBox?: boolean;
  radioButton?: boolean;
  pushButton?: boolean;
  exportValue?: string;
  buttonValue?: string;
  options?: { exportValue: string; displayValue: string }[];
  maxLen?: number;
  comb?: boolean;
  multiLine?: boolean;
  actions?: unknown;
  hidden?: boolean;
}

/** A form field's widget: a named widget of a text, button, choice or signature field. */
export type FieldWidget = WidgetAnnotation & { subtype: 'Widget'; fieldName: string; fieldType: string; rect: number[] };

const FIELD_TYPES = new Set(['Tx', 'Btn', 'Ch', 'Sig']);

export const isFieldWidget = (a: WidgetAnnotation): a is FieldWidget =>
  a.subtype === 'Widget' && !!a.fieldName && FIELD_TYPES.has(a.fieldType ?? '') && Array.isArray(a.rect) && a.rect.length === 4;

/** The form field widgets of a page, as pdf.js reads them for display (hidden widgets left out). */
export async function readFieldWidgets(page: PDFPageProxy): Promise<FieldWidget[]> {
  return ((await page.getAnnotations({ intent: 'display' })) as WidgetAnnotation[]).filter(isFieldWidget);
}

/** Widget annotations → RawWidget with the box on the displayed page (rotation applied). */
export function toWidgets(annotations: readonly WidgetAnnotation[], viewport: Matrix, W: number, H: number): RawWidget[] {
  const out: RawWidget[] = [];
  for (const a of annotations) {
    if (a.subtype !== 'Widget' || !a.rect || a.rect.length !== 4) continue;
    const fieldType = widgetType(a);
    if (!fieldType) continue;
    const [x0, y0, x1, y1] = a.rect;
    const box = normalizedBox([applyMatrix(viewport, x0, y0), applyMatrix(viewport, x1, y1)], W, H);
    const w: RawWidget = { fieldType, name: a.fieldName ?? '', box };
    const value = valueText(a.fieldValue);
    if (fieldType === 'checkbox') {
      w.checked = value !== undefined && value !== 'Off' && (a.exportValue === undefined || value === a.exportValue);
      if (value !== undefined) w.value = value;
    } else if (fieldType === 'radio') {
      w.checked = value !== undefined && value !== 'Off' && value === a.buttonValue;
      if (a.buttonValue !== undefined) w.value = a.buttonValue;
    } else if (value !== undefined) {
      w.value = value;
    }
    out.push(w);
  }
  return out;
}

function widgetType(a: WidgetAnnotation): RawWidget['fieldType'] | null {
  switch (a.fieldType) {
    case 'Tx': return 'text';
    case 'Ch': return 'choice';
    case 'Sig': return 'signature';
    case 'Btn': return a.checkBox ? 'checkbox' : a.radioButton ? 'radio' : a.pushButton ? 'button' : 'checkbox';
    default: return null;
  }
}

function valueText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return v.length ? v.map(String).join(', ') : undefined;
  const s = String(v);
  return s === '' ? undefined : s;
}
