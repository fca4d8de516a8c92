import fs from 'node:fs';
import path from 'node:path';
import { QuireError } from '@quire/core';
import { mapFormInstructionsByLabel } from './instructions/map.js';
import { clearForm } from './clear.js';
import { toFillableCells } from './convert.js';
import { detectForm } from './detect.js';
import { fillForm } from './fill.js';
import type { DetectedCell } from './types.js';

const DIR = '/work/shared/corpus/pdf-forms';
const have = fs.existsSync(DIR);
const maybe = have ? describe : describe.skip;
if (!have) console.warn(`skipping the corpus form round trip: ${DIR} is absent`);

/** Instructions for the first few labelled cells, written the way a person would. */
function instructionsFor(cells: DetectedCell[]): string {
  return cells.filter((c) => c.label.trim()).slice(0, 4).map((c) => (c.type === 'checkbox'
    ? `check '${c.checkbox_details?.[0]?.text ?? c.label}' for ${c.label}`
    : `${c.label}: Test value`)).join('\n');
}

/** A failure a client would see as 5xx: anything but a QuireError with a 4xx status. */
const serverSide = (e: unknown) => !(e instanceof QuireError) || e.status >= 500;

/**
 * Every corpus PDF that detect accepts goes through the whole form workflow: detect → fill → detect →
 * clear → detect, none of which may fail (a form detect reads is never refused later as unreadable);
 * a PDF detect refuses must be refused with a client error, never a server error.
 */
maybe('corpus: the form workflow never fails on a form detect accepts', () => {
  const files = have ? fs.readdirSync(DIR).filter((f) => f.endsWith('.pdf')).sort() : [];
  it.each(files)('%s', async (f) => {
    const pdf = new Uint8Array(fs.readFileSync(path.join(DIR, f)));
    let cells: DetectedCell[];
    try {
      cells = (await detectForm(pdf)).cells;
    } catch (e) {
      if (serverSide(e)) throw e;
      return; // refused as a client error: nothing further to check
    }
    const answer = mapFormInstructionsByLabel({ instructions: instructionsFor(cells), cells: toFillableCells(cells) });
    const filled = await fillForm(pdf, cells, answer.assignments);
    const after = (await detectForm(filled.pdf)).cells;
    const cleared = await clearForm(filled.pdf, after, { overlays: filled.overlays });
    expect((await detectForm(cleared.pdf)).cells.length).toBe(after.length);
  });
});
