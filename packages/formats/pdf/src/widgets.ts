import type { RawWidget } from '@quire/core';
import { type Matrix, applyMatrix, normalizedBox } from './matrix.js';

/** The fields of a pdf.js annotation object that describe an AcroForm widget. */
export interface AnnotationLike {
  subtype?: string;
  fieldType?: string;
  fieldName?: string;
  rect?: number[];
  fieldValue?: unknown;
  checkBox?: boolean;
  radioButton?: boolean;
  pushButton?: boolean;
  exportValue?: string;
  buttonValue?: string;
}

/** Widget annotations → RawWidget with the box on the displayed page (rotation applied). */
export function toWidgets(annotations: readonly AnnotationLike[], viewport: Matrix, W: number, H: number): RawWidget[] {
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

function widgetType(a: AnnotationLike): RawWidget['fieldType'] | null {
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
