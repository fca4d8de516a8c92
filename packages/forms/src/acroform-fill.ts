import {
  PDFAcroForm, PDFArray, PDFCheckBox, PDFDict, PDFDropdown, PDFHexString, PDFName, PDFString, PDFOptionList, PDFRadioGroup, PDFRef, PDFTextField,
  type PDFDocument, type PDFField, type PDFFont, type PDFForm, type PDFObject,
} from 'pdf-lib';
import { labelSimilarity, normalizeLabel } from '@quire/models';
import { coverable, type FontPicker } from './fonts.js';

/**
 * Writes values into AcroForm fields with pdf-lib and regenerates their appearance streams with a
 * font that covers the text (so every viewer shows the value; NeedAppearances is never relied on).
 * Buttons are set at the dictionary level (V on the field, AS on each widget) so their existing
 * on/off appearances are kept.
 */
export class AcroFields {
  readonly form: PDFForm;
  readonly notes: string[] = [];

  constructor(private readonly doc: PDFDocument, private readonly fonts: FontPicker) {
    const acro = doc.catalog.getOrCreateAcroForm();
    if (acro.dict.has(PDFName.of('XFA'))) {
      // XFA-aware viewers would show the XFA data instead of the fields we write
      acro.dict.delete(PDFName.of('XFA'));
      this.notes.push('Removed the XFA form description so that viewers show the AcroForm values');
    }
    adoptOrphanWidgets(doc);
    const malformed = dropUnbuildableFields(doc);
    if (malformed.length) this.notes.push(`Field(s) ${malformed.join(', ')} have a malformed dictionary and cannot be changed`);
    this.form = doc.getForm();
  }

  field(name: string): PDFField | undefined {
    return this.form.getFieldMaybe(name);
  }

  /** Sets a text field; returns the text actually stored (truncated to MaxLen). */
  async setText(name: string, value: string): Promise<string> {
    const f = this.field(name);
    if (!(f instanceof PDFTextField)) throw new Error(`no text field named "${name}"`);
    const max = f.getMaxLength();
    const text = max !== undefined && value.length > max ? value.slice(0, max) : value;
    f.setText(text);
    await this.refresh(f, text);
    return text;
  }

  /** Selects options of a dropdown / list box by display or export value; returns the display values chosen. */
  async setChoice(name: string, values: string[]): Promise<string[]> {
    const f = this.field(name);
    if (!(f instanceof PDFDropdown) && !(f instanceof PDFOptionList)) throw new Error(`no choice field named "${name}"`);
    const opts = f.acroField.getOptions().map((o) => ({ value: o.value.decodeText(), display: (o.display ?? o.value).decodeText() }));
    const chosen: { value: string; display: string }[] = [];
    for (const v of values) {
      if (!v) continue;
      const hit = opts.find((o) => o.display === v || o.value === v) ??
        opts.map((o) => ({ o, s: Math.max(labelSimilarity(o.display, v), labelSimilarity(o.value, v)) })).filter((x) => x.s >= 0.8).sort((a, b) => b.s - a.s)[0]?.o;
      if (hit) chosen.push(hit);
      else if (f instanceof PDFDropdown && f.isEditable()) chosen.push({ value: v, display: v });
      else throw new Error(`"${v}" is not one of the options (${opts.map((o) => o.display).join(', ')})`);
    }
    if (chosen.length > 1 && !(f instanceof PDFOptionList ? f.isMultiselect() : false)) chosen.splice(1);
    this.dropStrayValues(f.getName());
    f.acroField.setValues(chosen.map((c) => PDFHexString.fromText(c.value)));
    f.acroField.dict.delete(PDFName.of('I'));
    this.form.markFieldAsDirty(f.ref);
    await this.refresh(f, chosen.map((c) => c.display).join(' '));
    return chosen.map((c) => c.display);
  }

  /** Turns a checkbox / radio group to the given on-value, or off when `on` is null. */
  setButton(name: string, on: string | null): void {
    const f = this.field(name);
    if (!(f instanceof PDFCheckBox) && !(f instanceof PDFRadioGroup)) throw new Error(`no checkbox or radio field named "${name}"`);
    const value = on ?? 'Off';
    f.acroField.dict.set(PDFName.of('V'), PDFName.of(value));
    for (const w of f.acroField.getWidgets()) {
      const wOn = w.getOnValue()?.decodeText();
      w.setAppearanceState(PDFName.of(wOn !== undefined && wOn === value ? value : 'Off'));
    }
    if (f.needsAppearancesUpdate()) {
      try { f.defaultUpdateAppearances(); } catch { /* keep the state; some viewers will draw it */ }
    }
  }

  /** Empties every field of that name (text/choice emptied, buttons off). Returns false when none could be cleared. */
  async clear(name: string): Promise<boolean> {
    // separate field objects can share one name (the same logical field); clear them all
    const same = this.form.getFields().filter((x) => x.getName() === name);
    let ok = false;
    for (const f of same) ok = (await this.clearOne(f)) || ok;
    return ok;
  }

  /**
   * /V left on widget dictionaries or intermediate nodes (found walking up from each page widget)
   * would still show after the field is emptied; they are removed.
   */
  private dropStrayValues(name: string) {
    for (const page of this.doc.getPages()) {
      for (const ref of page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? []) {
        const chain: PDFDict[] = [];
        let d: PDFObject | undefined = this.doc.context.lookup(ref);
        for (let depth = 0; d instanceof PDFDict && depth < 32; depth++) {
          chain.push(d);
          const p: PDFObject | undefined = d.get(PDFName.of('Parent'));
          d = p ? this.doc.context.lookup(p) : undefined;
        }
        const full = chain.map((x) => x.lookup(PDFName.of('T'))).filter((t): t is PDFString | PDFHexString => t instanceof PDFString || t instanceof PDFHexString).map((t) => t.decodeText()).reverse().join('.');
        // /I (selected option indices) on a widget also overrides the value in some readers
        if (full === name) chain.forEach((x, k) => { if (k < chain.length - 1) x.delete(PDFName.of('V')); x.delete(PDFName.of('I')); });
      }
    }
  }

  private async clearOne(f: PDFField): Promise<boolean> {
    this.dropStrayValues(f.getName());
    const name = f.getName();
    // some producers repeat /V on the widget dictionaries, where readers find it first
    for (const kid of f.acroField.Kids()?.asArray() ?? []) {
      const d = this.doc.context.lookup(kid);
      if (d instanceof PDFDict) d.delete(PDFName.of('V'));
    }
    // an explicit empty /V: with no /V at all, readers such as pdf.js fall back to the default (/DV)
    const empty = () => f!.acroField.dict.set(PDFName.of('V'), PDFHexString.fromText(''));
    if (f instanceof PDFTextField) { f.setText(undefined); empty(); await this.refresh(f, ''); return true; }
    if (f instanceof PDFDropdown || f instanceof PDFOptionList) {
      empty();
      f.acroField.dict.delete(PDFName.of('I'));
      this.form.markFieldAsDirty(f.ref);
      await this.refresh(f, '');
      return true;
    }
    if (f instanceof PDFCheckBox || f instanceof PDFRadioGroup) {
      f.acroField.dict.set(PDFName.of('V'), PDFName.of('Off'));
      for (const w of f.acroField.getWidgets()) w.setAppearanceState(PDFName.of('Off'));
      return true;
    }
    return false;
  }

  /** Multi-line text at the declared size, or smaller when it would overflow the box (or the size is auto). */
  private multilineAppearance(f: PDFTextField, font: PDFFont, text: string) {
    const da = f.acroField.getDefaultAppearance();
    const declared = da ? Number(/([\d.]+)\s+Tf/.exec(da)?.[1] ?? 0) : 0;
    const fit = fitMultiline(f, font, text);
    if (declared === 0 || declared > fit) f.setFontSize(fit);
    f.updateAppearances(font);
  }

  private async refresh(f: PDFTextField | PDFDropdown | PDFOptionList, text: string) {
    const font = await this.fonts.for(text);
    // pdf-lib rewrites /DA with the font it drew with; the field's own declaration is kept for viewers that regenerate
    const da = f.acroField.getDefaultAppearance();
    if (f instanceof PDFTextField && text && coverable(font, text) !== text) this.notes.push(`Some characters of "${f.getName()}" are not in the font and are not shown`);
    try {
      if (f instanceof PDFTextField && f.isMultiline() && text) this.multilineAppearance(f, font, text);
      else f.updateAppearances(font);
    } catch {
      // fields without a usable /DA: give them one (auto-size) and retry
      f.acroField.setDefaultAppearance('/Helv 0 Tf 0 g');
      f.updateAppearances(font);
    }
    if (da) f.acroField.setDefaultAppearance(da);
  }
}

/**
 * pdf-lib's auto-size (DA size 0) for multi-line fields picks sizes that overflow the box; the size is
 * computed here to fit the wrapped text, used for the appearance, and the field's own /DA restored.
 */
function fitMultiline(f: PDFTextField, font: PDFFont, text: string): number {
  const r = f.acroField.getWidgets()[0]?.getRectangle();
  if (!r) return 10;
  const width = r.width - 6, height = r.height - 4;
  for (let size = Math.min(12, height); size > 4; size -= 0.5) {
    let lines = 0;
    for (const para of text.split('\n')) {
      let cur = '';
      lines++;
      for (const w of para.split(/\s+/).filter(Boolean)) {
        const next = cur ? `${cur} ${w}` : w;
        if (cur && font.widthOfTextAtSize(next, size) > width) { lines++; cur = w; } else cur = next;
      }
    }
    if (lines * size * 1.2 <= height) return size;
  }
  return 4;
}

/**
 * Widgets listed on pages but missing from /AcroForm /Fields (e.g. PDFs re-saved by Preview) are added so
 * they can be filled; a widget without a /Rect gets an empty one.
 */
function adoptOrphanWidgets(doc: PDFDocument) {
  const acro = doc.catalog.getOrCreateAcroForm();
  let fields = acro.dict.lookup(PDFName.of('Fields'));
  if (!(fields instanceof PDFArray)) { fields = doc.context.obj([]); acro.dict.set(PDFName.of('Fields'), fields); }
  const arr = fields as PDFArray;
  const known = new Set(arr.asArray().map((r) => r.toString()));
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (!annots) continue;
    for (const ref of annots.asArray()) {
      if (!(ref instanceof PDFRef)) continue;
      let cur: PDFRef = ref;
      let dict: PDFObject | undefined = doc.context.lookup(ref);
      if (!(dict instanceof PDFDict) || dict.lookup(PDFName.of('Subtype'))?.toString() !== '/Widget') continue;
      // a widget without a usable /Rect is read by pdf.js (detect) as an empty one at the origin; so it is
      // written, as pdf-lib cannot draw a widget without one
      const rect = dict.lookup(PDFName.of('Rect'));
      if (!(rect instanceof PDFArray) || rect.size() !== 4) dict.set(PDFName.of('Rect'), doc.context.obj([0, 0, 0, 0]));
      for (let depth = 0; depth < 32; depth++) {
        const parent: PDFObject | undefined = (dict as PDFDict).get(PDFName.of('Parent'));
        if (!(parent instanceof PDFRef)) break;
        const pd: PDFObject | undefined = doc.context.lookup(parent);
        if (!(pd instanceof PDFDict)) break;
        cur = parent; dict = pd;
      }
      // the root of the widget's field tree: a terminal field (/FT) or a non-terminal one that only names its kids (/T)
      const isField = (dict as PDFDict).has(PDFName.of('FT')) || (dict as PDFDict).has(PDFName.of('T'));
      if (!known.has(cur.toString()) && isField) { arr.push(cur); known.add(cur.toString()); }
    }
  }
}

/**
 * pdf-lib builds the whole field list at once and throws on the first field it cannot build (a /Parent
 * that is not a dictionary; a field whose type is only on its widgets, which pdf.js reads): one such field
 * would make every value of the form fail. A field whose type sits only on its widget kids gets it from
 * them; a root field pdf-lib still cannot build is left out of /Fields (its widgets stay on the page, as
 * detect reads them), so its values are reported unapplied. Returns the names of the fields left out.
 */
function dropUnbuildableFields(doc: PDFDocument): string[] {
  const fields = doc.catalog.getOrCreateAcroForm().dict.lookup(PDFName.of('Fields'));
  if (!(fields instanceof PDFArray)) return [];
  const dropped: string[] = [];
  for (let i = fields.size() - 1; i >= 0; i--) {
    const root = fields.get(i);
    const dict = root instanceof PDFRef ? doc.context.lookup(root) : root;
    if (dict instanceof PDFDict) typeFromKids(doc, dict);
    try {
      PDFAcroForm.fromDict(doc.context.obj({ Fields: [root] })).getAllFields();
    } catch {
      const t = dict instanceof PDFDict ? dict.lookup(PDFName.of('T')) : undefined;
      dropped.push(t instanceof PDFString || t instanceof PDFHexString ? `"${t.decodeText()}"` : `#${i + 1}`);
      fields.remove(i);
    }
  }
  return dropped.reverse();
}

/** A field without /FT whose kids are all widgets of one type takes that type (and the kids' flags). */
function typeFromKids(doc: PDFDocument, field: PDFDict): void {
  const kids = field.lookup(PDFName.of('Kids'));
  if (field.has(PDFName.of('FT')) || !(kids instanceof PDFArray) || kids.size() === 0) return;
  const dicts = kids.asArray().map((k) => doc.context.lookup(k)).filter((d): d is PDFDict => d instanceof PDFDict);
  if (dicts.length !== kids.size() || dicts.some((d) => d.has(PDFName.of('T')))) return; // non-terminal: kids are fields
  const types = new Set(dicts.map((d) => d.get(PDFName.of('FT'))?.toString()));
  const type = dicts[0].get(PDFName.of('FT'));
  if (types.size !== 1 || !(type instanceof PDFName)) return;
  field.set(PDFName.of('FT'), type);
  const flags = dicts[0].get(PDFName.of('Ff'));
  if (flags && !field.has(PDFName.of('Ff'))) field.set(PDFName.of('Ff'), flags);
}

/** Interprets a value for a checkbox cell: the indices of its boxes to select, or null when the value makes no sense. */
export function checkboxChoice(options: string[], value: string): number[] | null {
  const v = normalizeLabel(value);
  const exact = options.findIndex((o) => normalizeLabel(o) === v && v !== '');
  if (exact >= 0) return [exact];
  if (/^(false|no|n|off|unchecked|uncheck|unticked|none|0|clear|deselect(ed)?|not selected)$/.test(v) || v === '') return [];
  if (options.length === 1 && /^(true|yes|y|on|checked|check|ticked|tick|x|1|selected|select)$/.test(v)) return [0];
  if (value.trim() === '✓' || value.trim() === '✔') return options.length === 1 ? [0] : null;
  const scored = options.map((o, i) => ({ i, s: labelSimilarity(o, value) })).filter((x) => x.s >= 0.75).sort((a, b) => b.s - a.s);
  if (scored.length) return [scored[0].i];
  if (options.length > 1 && /^(true|yes|y)$/.test(v)) {
    const yes = options.findIndex((o) => /^yes\b/i.test(o.trim()));
    return yes >= 0 ? [yes] : null;
  }
  return null;
}
