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
