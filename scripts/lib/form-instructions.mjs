// Plain-language fill instructions generated from detected form cells, shared by eval:forms and the
// forms corpus test so that both score the same thing. `normalizeLabel` is passed in because the
// script runs on the built dist and the test on src.

const shortLabel = (label) => label.split(/[.;(]|\s[-–]\s/)[0].replace(/[:?]+$/, '').trim();

/** What a cell reads as after filling: its text, or the selected options of a checkbox group joined by '|'. */
export const readBack = (c) => (c.type === 'checkbox' ? (c.checkbox_details ?? []).filter((d) => d.selected).map((d) => d.text).join('|') : c.text);

/**
 * One instruction per cell with a usable, distinct label ("<label>: <value>" for text, "check '<option>'
 * for <label>" for checkboxes); returns the instructions and what each instructed cell should read afterwards.
 */
export function instructionsFor(cells, normalizeLabel) {
  const lines = [], expected = new Map(), seen = new Set();
  cells.forEach((c, i) => {
    const label = shortLabel(c.label);
    if (!label || seen.has(normalizeLabel(label)) || /^\d*$/.test(label)) return;
    seen.add(normalizeLabel(label));
    if (c.type === 'checkbox') {
      const opts = (c.checkbox_details ?? []).map((d) => d.text);
      const pick = opts.length > 1 ? opts[opts.length - 1] : '';
      lines.push(pick ? `check '${pick}' for ${label}` : `${label}: yes`);
      expected.set(i, pick || opts[0]);
    } else {
      const v = c.options?.length ? c.options[c.options.length - 1] : `V${i}x`.slice(0, c.maxLength ?? 10);
      lines.push(`${label}: ${v}`);
      expected.set(i, v);
    }
  });
  return { text: lines.join('\n'), expected };
}

/**
 * The label a person reads next to the field, without a leading line number or the parenthesised help ("1 Name (as shown …)" → "Name").
 * A cell found in the drawing of a flat form has only printed text for a label.
 */
const printedLabel = (c) => {
  const p = c.labels?.printed ?? (c.source?.kind === 'drawn' ? c.label : undefined);
  if (!p) return '';
  return shortLabel(p.replace(/^\s*(?:line\s+)?\d+[a-z]?\b[.):]?\s+/i, '')).replace(/\s+/g, ' ');
};

/** A value of the kind the field asks for (digits for an identification number, an address for email), distinct per cell. */
function valueFor(c, i, label) {
  if (c.options?.length) return c.options[c.options.length - 1];
  const cut = (v) => v.slice(0, c.maxLength ?? v.length);
  if (/\bsocial security\b|\bssn\b|\bidentification number\b|\bein\b|\btin\b/i.test(label)) return cut(String(100000000 + i * 7919).slice(-9));
  if (/\be-?mail\b/i.test(label)) return cut(`v${i}@example.com`);
  return cut(`Val${i}q`);
}

/**
 * Instructions written from the printed labels only (never field names or tooltips), in one of three
 * styles people use: `lines` ("Label: value" per line), `sentence` (one sentence: "label value, label
 * value and check …"), `paragraph` (about the person: "My label is value. I am option."). Cells without
 * a printed label, or whose label repeats another's, are left out. Returns the text and, per instructed
 * cell, what it should read afterwards.
 */
export function labelledInstructions(cells, normalizeLabel, style) {
  const items = [], expected = new Map(), seen = new Set();
  cells.forEach((c, i) => {
    const label = printedLabel(c);
    if (!label || label.length < 2 || seen.has(normalizeLabel(label)) || !/[a-z]{2}/i.test(label) || c.type === 'signature') return;
    seen.add(normalizeLabel(label));
    if (c.type === 'checkbox') {
      const opts = (c.checkbox_details ?? []).map((d) => d.text);
      const pick = opts.length > 1 ? opts[opts.length - 1] : '';
      if (opts.length > 1 && (!pick || normalizeLabel(pick) === normalizeLabel(label))) return;
      items.push(pick
        ? { lines: `${label}: ${pick}`, sentence: `check '${pick}' for ${label}`, paragraph: `My ${label.toLowerCase()} is ${pick}.` }
        : { lines: `${label}: yes`, sentence: `check the box for ${label}`, paragraph: `Check the box for ${label}.` });
      expected.set(i, pick || opts[0]);
    } else {
      const v = valueFor(c, i, c.labels?.printed ?? c.label);
      items.push({ lines: `${label}: ${v}`, sentence: `${label.toLowerCase()} ${v}`, paragraph: `My ${label.toLowerCase()} is ${v}.` });
      expected.set(i, v);
    }
  });
  const parts = items.map((it) => it[style]);
  const text = style === 'lines' ? parts.join('\n')
    : style === 'sentence' ? (parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}.` : `${parts.join('')}.`)
      : parts.join(' ');
  return { text, expected };
}
