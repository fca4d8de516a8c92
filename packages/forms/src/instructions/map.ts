import { findDate, formatDate, labelSimilarity, labelTokens, normalizeLabel, type FillableCell, type FormAssignment, type FormInstructionsAnswer, type FormInstructionsRequest } from '@quire/models';
import { bestAssignment } from './assignment.js';
import { fieldMeaning, meaningsClash, shapeFits, splitAddress, splitPersonName, valueShape, type Meaning } from './meaning.js';
import { parseClause, splitClauses, type Clause } from './parse.js';

/** Below this a label does not name a field. */
const MIN_SCORE = 0.72;
/** How much each source of a field's label is trusted: the printed text a person reads, then the tooltip, then the field name. */
const TRUST = { printed: 1, label: 0.97, tooltip: 0.94, name: 0.86, section: 0.99 } as const;

/** One value to place: a clause, or one part of a clause (a name's first name, an address's city). */
interface Want {
  fragment: string;
  /** Words naming the field, if the writer gave them. */
  label?: string;
  value: string;
  kind: 'value' | 'choose' | 'sign';
  option?: string;
  target?: string;
  /** The option with the words read as its target ("Head of household"), tried too. */
  whole?: string;
  on?: boolean;
  /** The clause was a fact about the person ("I am single"). */
  fact?: boolean;
}

interface Field {
  cell: FillableCell;
  sources: { text: string; trust: number }[];
  meaning?: Meaning;
  /** The longest of its sources, in normalized characters and in words: a phrase far longer cannot name it. */
  size: { chars: number; tokens: number };
  /** labelMatch of the phrases tried so far. */
  scores: Map<string, number>;
}

interface Candidate { score: number; value: string; note?: string }

/**
 * The built-in instruction mapper: clauses read from the instructions, each matched to fields by the
 * printed label (then tooltip, then field name), the meaning of the words and the shape of the value,
 * and placed by the best one-value-per-field assignment over all of them. Every value placed says which
 * fragment it came from and its score; every value not placed says why (`unplaced`).
 */
export function mapFormInstructionsByLabel(req: FormInstructionsRequest): FormInstructionsAnswer {
  const fields: Field[] = req.cells.map((cell) => {
    const sources: Field['sources'] = [];
    if (cell.printedLabel) sources.push({ text: cell.printedLabel, trust: TRUST.printed });
    if (cell.tooltip) sources.push({ text: cell.tooltip, trust: TRUST.tooltip });
    if (cell.fieldName) sources.push({ text: cell.fieldName, trust: TRUST.name });
    if (!cell.printedLabel && !cell.tooltip && cell.label) sources.unshift({ text: cell.label, trust: TRUST.label });
    // the printed label under its section heading ("Spouse" + "First name"): just under the label alone, so
    // it decides only where the writer named the section ("spouse's first name")
    const own = cell.printedLabel ?? (cell.tooltip ? undefined : cell.label);
    if (cell.section && own) sources.push({ text: `${cell.section} ${own}`, trust: TRUST.section });
    const meaning = sources.map((s) => fieldMeaning(s.text)).find(Boolean);
    const size = {
      chars: Math.max(0, ...sources.map((s) => normalizeLabel(s.text).length)),
      tokens: Math.max(0, ...sources.flatMap((s) => [labelTokens(s.text).length, labelTokens(s.text.toLowerCase()).length])),
    };
    return { cell, sources, size, scores: new Map(), ...(meaning ? { meaning } : {}) };
  });
  // a writer may copy a whole printed label, however long ("Did you … and … or …?"): leading words are
  // tried as a label up to the longest label's length (and a possessive), not a fixed count
  const longest = labelWords(fields);
  // past 16 words, only the lengths of the form's long labels (give or take two words) are tried: splitting a
  // sentence asks this at every comma, and every length up to the longest label would cost several times more
  const longLengths = new Set(fields.flatMap((f) => f.sources.map((s) => s.text.trim().split(/\s+/).length)).filter((n) => n > 14)
    .flatMap((n) => [n - 2, n - 1, n, n + 1, n + 2]));
  const tried = (k: number) => k <= 16 || longLengths.has(k);
  /** How well the phrase's leading words (at least `fromWord` of them, a value left after) name a field; 0 when they do not. */
  const namesField = (phrase: string, fromWord = 1) => {
    const words = phrase.split(/\s+/);
    let best = 0;
    for (let k = Math.min(words.length - 1, longest); k >= fromWord; k--) {
      if (!tried(k)) continue;
      const s = namingScore(words.slice(0, k).join(' '), fields);
      if (s >= (k > 1 ? 0.85 : 0.9) && s > best) best = s;
    }
    return best;
  };
  const wants = splitClauses(req.instructions, namesField).flatMap((t) => toWants(parseClause(t), fields, longest));
  const expanded = wants.flatMap((w) => expandParts(w, fields));
  const scores = expanded.map((w) => fields.map((f) => candidate(w, f)));
  // "select your favorite planet Pluto": a verb that opens a printed label rather than naming a box to tick
  expanded.forEach((w, i) => {
    if (w.kind !== 'choose' || w.fact || scores[i].some((c) => c && c.score >= MIN_SCORE)) return;
    const asValue = loose(w.fragment, fields, longest);
    const row = fields.map((f) => candidate(asValue, f));
    if (asValue.label && row.some((c) => c && c.score >= MIN_SCORE)) { expanded[i] = asValue; scores[i] = row; }
  });
  // equal scores (one printed label over several fields: "Amount" in each row) go to the first in reading order
  const pick = bestAssignment(scores.map((row) => row.map((c, j) => (c ? c.score - j * 1e-7 : 0))), MIN_SCORE);
  const assignments: FormAssignment[] = [];
  const unplaced: NonNullable<FormInstructionsAnswer['unplaced']> = [];
  const taken = new Map<number, number>(); // field → want
  pick.forEach((j, i) => { if (j >= 0) taken.set(j, i); });
  pick.forEach((j, i) => {
    const w = expanded[i];
    if (j < 0) { unplaced.push({ instruction: w.fragment, value: w.value, reason: whyNot(w, i, scores, fields, taken, expanded) }); return; }
    const c = scores[i][j]!;
    const split = splitAcrossBoxes(fields, j, w.value, taken) ?? splitDollarsCents(fields, j, c.value, taken);
    if (split) {
      split.forEach(({ index, part }) => {
        assignments.push({ cellIndex: fields[index].cell.index, value: part, confidence: round(c.score), instruction: w.fragment, note: `split across ${split.length} boxes` });
        taken.set(index, i);
      });
      return;
    }
    assignments.push({ cellIndex: fields[j].cell.index, value: c.value, confidence: round(c.score), instruction: w.fragment, ...(c.note ? { note: c.note } : {}) });
  });
  const unmatched = [...new Set(unplaced.map((u) => u.instruction))];
  return { assignments: assignments.sort((a, b) => a.cellIndex - b.cellIndex), unmatched, unplaced };
}

/**
 * The best labelMatch of a phrase over the fields, where it can reach MIN_SCORE: a phrase with far more
 * characters and words than a field's longest label scores under it by string and by word similarity
 * alike (at most 1/1.6 and 2/2.8), so that field is not scored (the leading words of a long sentence
 * are tried against every field).
 */
function namingScore(phrase: string, fields: Field[]): number {
  const chars = normalizeLabel(phrase).length, tokens = labelTokens(phrase).length;
  let best = 0;
  for (const f of fields) {
    if (chars > 1.6 * f.size.chars + 8 && tokens > 1.8 * f.size.tokens + 1) continue;
    best = Math.max(best, labelMatch(phrase, f));
  }
  return best;
}

/** How well a phrase names a field: the best of its label sources, each weighted by how much it is trusted. */
function labelMatch(phrase: string, f: Field): number {
  // splitting a sentence tries the same leading words again and again: each field keeps its scores
  const known = f.scores.get(phrase);
  if (known !== undefined) return known;
  let best = 0;
  for (const s of f.sources) best = Math.max(best, s.trust * labelScore(phrase, s.text));
  f.scores.set(phrase, best);
  return best;
}

/** Similarity, containment ("name" in "Name (as shown on your return)"), or a line / box number ("line 1", "box 3a"). */
export function labelScore(phrase: string, label: string): number {
  const num = /^(?:line|box|item|question|q|field|no\.?|number|part)\s*#?\s*(\d+[a-z]?)$/i.exec(phrase.trim());
  if (num) return new RegExp(`^\\s*(?:line|box|item|question|q)?\\s*${num[1]}\\b(?![./-]\\d)`, 'i').test(label) ? 0.96 : 0;
  const head = label.replace(/\([^)]*\)?/g, ' ').replace(/\.\s+[A-Z].*$|\s+see\s+(?:the\s+)?instructions\b.*$/i, '').replace(/^\s*\d+[a-z]?\b[.):]?\s+/i, '').replace(/[.:]+\s*$/, '').trim();
  let best = 0;
  // also compared in lower case when either has an inner capital: a writer types "linkedin" or "mcdonald"
  // for a printed "LinkedIn", which normalizeLabel would part at that capital ("linked in")
  for (const text of head && head !== label ? [label, head] : [label]) {
    const inner = /\p{Ll}\p{Lu}/u.test(phrase) || /\p{Ll}\p{Lu}/u.test(text);
    for (const [p, t] of inner ? [[phrase, text], [phrase.toLowerCase(), text.toLowerCase()]] : [[phrase, text]]) {
      const sim = labelSimilarity(p, t);
      const a = wordStems(p), b = wordStems(t);
      const contained = a.length && b.length && a.every((w) => b.includes(w)) ? 0.74 + 0.2 * (a.length / b.length) : 0;
      best = Math.max(best, sim, contained);
    }
  }
  // the same words in another order ("Name of child" for "Child name") tie with the words in the writer's
  // order; the field printed as the writer wrote it wins
  return best >= 1 && !sameOrder(phrase, label, head) ? 0.99 : best;
}

/** The same words (small words aside) in the same order. */
const sameOrder = (phrase: string, ...labels: string[]) => labels.some((l) => l && (sameTokens(l, phrase) || sameTokens(l.toLowerCase(), phrase.toLowerCase())));
const sameTokens = (a: string, b: string) => labelTokens(a).join(' ') === labelTokens(b).join(' ');

const POSSESSIVE_START = /^(?:my|his|her|their|our|your|the)\s+/i;

/** Label words compared without possessives and plurals ("Requester's", "number(s)", "Account numbers"). */
const wordStems = (s: string) => labelTokens(s).map((t) => t.replace(/['’]s$/, '')).filter((t) => t.length > 1 || /\d/.test(t)).map((t) => (t.length > 3 ? t.replace(/s$/, '') : t));

/** Words in the longest label any field has, two more for the writer's own ("my", "the"). */
const labelWords = (fields: Field[]) => 2 + Math.max(1, ...fields.flatMap((f) => f.sources.map((s) => s.text.trim().split(/\s+/).length)));

function toWants(cl: Clause, fields: Field[], longest: number): Want[] {
  switch (cl.kind) {
    case 'sign': return [{ fragment: cl.text, kind: 'sign', value: cl.value }];
    case 'choose': return [{ fragment: cl.text, kind: 'choose', value: cl.option, option: cl.option, target: cl.target, on: cl.on, ...(cl.whole ? { whole: cl.whole } : {}) }];
    case 'fact': return [{ fragment: cl.text, kind: 'choose', value: cl.value, option: cl.value, on: !cl.negated, fact: true }];
    case 'value': {
      // "Text is alpha only: X" read as "<label> is <value>" may have cut a label holding "is": the longer label wins
      const said = cl.label ? Math.max(0, ...fields.map((f) => labelMatch(cl.label!, f))) : 0;
      // "Note: your name: Jo": the colon that ends a field's label, not the first one
      const colons = [...cl.text.matchAll(/[:=]/g)].map((m) => m.index!);
      if (colons.length > 1) {
        const alt = colons.map((i) => ({ label: cl.text.slice(0, i).trim(), value: cl.text.slice(i + 1).trim() }))
          .filter((a) => a.label && a.value).map((a) => ({ ...a, s: Math.max(0, ...fields.map((f) => labelMatch(a.label, f))) }))
          .sort((a, b) => b.s - a.s)[0];
        if (alt && alt.s > said + 0.02) return [{ fragment: cl.text, kind: 'value', label: alt.label, value: alt.value.replace(/^["'“‘«]+|["'”’»]+$/g, '') }];
      }
      if (said < 0.95 && !/[:=]/.test(cl.text)) {
        const l = loose(cl.text.replace(POSSESSIVE_START, ''), fields, longest);
        if (l.label && Math.max(0, ...fields.map((f) => labelMatch(l.label!, f))) > said + 0.05) return [{ ...l, fragment: cl.text }];
      }
      return [{ fragment: cl.text, kind: 'value', label: cl.label, value: cl.value }];
    }
    case 'loose': return [loose(cl.text, fields, longest)];
  }
}

/** "first name John": the longest leading words that name a field are the label, the rest the value; else the value alone. */
function loose(text: string, fields: Field[], longest: number): Want {
  const words = text.split(/\s+/);
  let top: { label: string; value: string; score: number } | undefined;
  for (let k = Math.min(words.length - 1, longest); k >= 1; k--) {
    const label = words.slice(0, k).join(' ');
    const score = namingScore(label, fields);
    if (score >= MIN_SCORE && (!top || score > top.score + 1e-9)) top = { label, value: words.slice(k).join(' '), score };
  }
  if (top) return { fragment: text, kind: 'value', label: top.label, value: top.value.replace(/^(?:is|of|as|to|:|-)\s+/i, '') };
  return { fragment: text, kind: 'value', value: text };
}

const has = (fields: Field[], m: Meaning) => fields.some((f) => f.meaning === m && f.cell.type === 'text');

/** A whole name for a form with first / middle / last cells, an address for street / city / state / ZIP cells: one want per part. */
function expandParts(w: Want, fields: Field[]): Want[] {
  if (w.kind !== 'value') return [w];
  const said = w.label ? fieldMeaning(w.label) : undefined;
  const plainName = fields.some((f) => f.meaning === 'name' && w.label && labelMatch(w.label, f) >= 0.9);
  if (said === 'name' && !plainName && has(fields, 'firstName') && has(fields, 'lastName')) {
    const n = splitPersonName(w.value);
    if (n) {
      return [
        { ...w, label: 'first name', value: n.first },
        ...(n.middle && has(fields, 'middleName') ? [{ ...w, label: 'middle name', value: n.middle }] : []),
        { ...w, label: 'last name', value: n.middle && !has(fields, 'middleName') ? `${n.last}` : n.last },
      ];
    }
  }
  if (said === 'address' || (!said && valueShape(w.value) === 'address')) {
    const a = splitAddress(w.value);
    if (!a) return [w];
    const street = { ...w, label: w.label ?? 'address', value: a.street };
    if (has(fields, 'city') && (has(fields, 'zip') || has(fields, 'state'))) {
      return [street, { ...w, label: 'city', value: a.city }, { ...w, label: 'state', value: a.state }, { ...w, label: 'zip code', value: a.zip }];
    }
    if (has(fields, 'cityStateZip')) return [street, { ...w, label: 'city, state, and ZIP code', value: `${a.city}, ${a.state} ${a.zip}` }];
  }
  return [w];
}

/** The score and the value as the field takes it, or undefined when the want cannot go there. */
function candidate(w: Want, f: Field): Candidate | undefined {
  const c = f.cell;
  if (w.kind === 'sign') {
    if (c.type === 'signature') return { score: 0.9 + 0.1 * Math.max(0, ...f.sources.map((s) => labelScore('signature', s.text))), value: w.value };
    const s = labelMatch('signature', f);
    return c.type === 'text' && s >= MIN_SCORE ? { score: s, value: w.value } : undefined;
  }
  if (w.kind === 'choose') {
    const asSaid = chooseIn(w, f);
    const whole = w.whole ? chooseIn({ ...w, option: w.whole, target: undefined, whole: undefined }, f) : undefined;
    return whole && (!asSaid || whole.score > asSaid.score) ? whole : asSaid;
  }
  if (c.type === 'signature' && !w.label) return undefined;
  const shape = valueShape(w.value);
  let score: number;
  if (w.label) {
    score = labelMatch(w.label, f);
    const said = fieldMeaning(w.label);
    // "SSN" for "Social security number", "phone" for "Daytime telephone": the same meaning names the field
    // (only for meanings one form rarely has twice; "address" or "date" say too little to pick a field)
    if (said && said === f.meaning && SPECIFIC.has(said)) score = Math.max(score, 0.88);
    if (meaningsClash(said, f.meaning)) score *= 0.6;
  } else {
    // a value alone: only its shape can name the field ("555-0100" for the phone)
    score = shape && f.meaning && shapeFits(shape, f.meaning) && shape === f.meaning ? 0.8 : 0;
  }
  // a value whose shape is unmistakable (an SSN) never goes where it does not fit; a plain value into an id or
  // email field the writer named loses a little (the writer's words outrank the value's look)
  if (!fits(w.value, shape, f.meaning)) score *= shape ? 0.5 : 0.85;
  if (score < MIN_SCORE) {
    // "Marital status: single" may name an option rather than a field
    return undefined;
  }
  if (c.type === 'checkbox') {
    const v = checkboxValue(c, w.value);
    // "Marital status: married": the value names the box to tick under the named question
    if (v === undefined) return w.label ? chooseIn({ ...w, kind: 'choose', option: w.value, target: w.label, on: true }, f) : undefined;
    return { score, value: v };
  }
  return { score, ...formatValue(c, w.value) };
}

const SPECIFIC = new Set<Meaning>(['ssn', 'ein', 'tin', 'phone', 'email', 'zip']);

/** Does the value fit the field's meaning: by its shape when it has one, else no letters in an id and an @ in an email. */
function fits(value: string, shape: Meaning | undefined, field: Meaning | undefined): boolean {
  if (shape) return shapeFits(shape, field);
  if (field === 'ssn' || field === 'ein' || field === 'tin') return !/[a-z]/i.test(value);
  if (field === 'email') return value.includes('@');
  return true;
}

function optionsOf(c: FillableCell): string[] {
  return c.options?.length ? c.options : c.type === 'checkbox' ? [c.label] : [];
}

function chooseIn(w: Want, f: Field): Candidate | undefined {
  const c = f.cell;
  const options = optionsOf(c);
  if (!options.length) return undefined;
  const option = w.option ?? w.value;
  let target = 1;
  if (w.target) {
    target = labelMatch(w.target, f);
    if (target < MIN_SCORE) return undefined;
  }
  const pool = c.options?.length ? c.options : [...options, ...f.sources.map((s) => s.text)];
  let best = { o: '', s: 0 };
  for (const o of pool) {
    const s = labelScore(option, o) + (normalizeLabel(o) === normalizeLabel(option) ? 0.03 : 0);
    if (s > best.s) best = { o, s };
  }
  const multi = (c.options?.length ?? 0) > 1 || c.type === 'text';
  if (best.s >= MIN_SCORE) {
    const score = Math.min(1, w.target ? (target + best.s) / 2 : best.s * (w.fact ? 0.97 : 1));
    return { score, value: multi ? (w.on ? best.o : 'false') : w.on ? 'true' : 'false' };
  }
  if (w.target && c.type === 'checkbox' && !multi && /^(yes|true|no|false)$/i.test(option)) {
    return { score: target * 0.95, value: /^(yes|true)$/i.test(option) === w.on ? 'true' : 'false' };
  }
  return undefined;
}

function checkboxValue(c: FillableCell, raw: string): string | undefined {
  const value = raw.trim();
  if (c.options && c.options.length > 1) {
    let best = { o: '', s: 0 };
    for (const o of c.options) { const s = labelScore(value, o); if (s > best.s) best = { o, s }; }
    if (best.s >= MIN_SCORE) return best.o;
  }
  if (/^(yes|y|true|checked|x|on|✓|✔|tick(ed)?)$/i.test(value)) return 'true';
  if (/^(no|n|false|unchecked|off|not .*)$/i.test(value)) return 'false';
  return undefined;
}

/** Fits a value to its field: dates in the field's pattern, option spelling, max length (a code's separators dropped first). */
export function formatValue(c: FillableCell, raw: string): { value: string; note?: string } {
  let value = raw.trim();
  const notes: string[] = [];
  if (c.datePattern) {
    const d = findDate(value);
    if (d) {
      const formatted = formatDate(d.date, c.datePattern);
      if (formatted !== value) notes.push(`date written as ${c.datePattern}`);
      value = formatted;
    }
  }
  if (c.options?.length && !c.options.includes(value)) {
    let best = { o: '', s: 0 };
    for (const o of c.options) { const s = labelScore(value, o); if (s > best.s) best = { o, s }; }
    if (best.s >= MIN_SCORE) value = best.o;
  }
  if (c.maxLength && value.length > c.maxLength) {
    const compact = /\d/.test(value) ? value.replace(/[\s\-/.()]/g, '') : value;
    if (compact.length <= c.maxLength) { value = compact; notes.push('separators removed to fit the field'); }
    else { value = compact.slice(0, c.maxLength); notes.push(`truncated to ${c.maxLength} characters`); }
  } else if (c.comb && /^[\d\s\-/.()]+$/.test(value)) {
    value = value.replace(/[\s\-/.()]/g, ''); // a comb has a box per digit: separators would take boxes
  }
  return { value, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/**
 * A code (SSN, EIN, phone) longer than its field, where the field is the first of a row of short boxes
 * (an SSN printed as 3 + 2 + 4 boxes): the digits are split across the row. Undefined when they do not fit exactly.
 */
function splitAcrossBoxes(fields: Field[], j: number, value: string, taken: Map<number, number>): { index: number; part: string }[] | undefined {
  const c = fields[j].cell;
  const digits = value.replace(/\D/g, '');
  if (c.type !== 'text' || !c.maxLength || !c.box || !/^[\d\s\-/.()+]+$/.test(value) || digits.length <= c.maxLength) return undefined;
  const top = c.box[1], h = c.box[3] - c.box[1];
  const row = fields.map((f, index) => ({ f, index }))
    .filter(({ f, index }) => f.cell.type === 'text' && f.cell.page === c.page && f.cell.maxLength && f.cell.box
      && Math.abs(f.cell.box[1] - top) <= Math.max(0.004, h * 0.5) && (index === j || !taken.has(index)))
    .sort((a, b) => a.f.cell.box![0] - b.f.cell.box![0]);
  for (let s = 0; s < row.length; s++) {
    let sum = 0;
    const run: typeof row = [];
    for (let k = s; k < row.length && sum < digits.length; k++) { run.push(row[k]); sum += row[k].f.cell.maxLength!; }
    if (sum !== digits.length || !run.some((r) => r.index === j)) continue;
    let at = 0;
    return run.map((r) => { const part = digits.slice(at, at + r.f.cell.maxLength!); at += r.f.cell.maxLength!; return { index: r.index, part }; });
  }
  return undefined;
}

/**
 * An amount given to a line's amount cell when the cell right beside it holds two characters (a dollars |
 * cents pair of boxes, as tax forms print amount columns): the whole units go to the wide cell, the two
 * decimals to the narrow one ("52,340.17" → "52,340" and "17"). Undefined when the value is no amount with
 * decimals, or there is no such free neighbour.
 */
function splitDollarsCents(fields: Field[], j: number, value: string, taken: Map<number, number>): { index: number; part: string }[] | undefined {
  const c = fields[j].cell;
  const amount = /^([-−(]?\s*[$€£]?\s*\d{1,3}(?:[,\s]\d{3})*|[-−(]?\s*[$€£]?\s*\d+)\.(\d{2})\)?$/.exec(value.trim());
  if (!amount || c.type !== 'text' || !c.box || (c.maxLength !== undefined && c.maxLength <= 2)) return undefined;
  const [x0, y0, x1, y1] = c.box, h = y1 - y0;
  const k = fields.findIndex((f, i) => i !== j && !taken.has(i) && f.cell.type === 'text' && f.cell.page === c.page && f.cell.maxLength === 2 && f.cell.box &&
    Math.abs(f.cell.box[0] - x1) <= 0.01 && Math.abs(f.cell.box[1] - y0) <= 0.5 * h && Math.abs(f.cell.box[3] - y1) <= 0.5 * h && f.cell.box[2] - f.cell.box[0] < 0.5 * (x1 - x0));
  if (k < 0) return undefined;
  return [{ index: j, part: amount[1].trim() }, { index: k, part: amount[2] }];
}

function whyNot(w: Want, i: number, scores: (Candidate | undefined)[][], fields: Field[], taken: Map<number, number>, wants: Want[]): string {
  const ranked = scores[i].map((c, j) => ({ c, j })).filter((x) => x.c && x.c.score >= MIN_SCORE).sort((a, b) => b.c!.score - a.c!.score);
  if (ranked.length) {
    const top = ranked[0];
    const other = taken.get(top.j);
    const name = describe(fields[top.j]);
    return other !== undefined ? `its best field ${name} (score ${round(top.c!.score)}) took "${wants[other].fragment}" (score ${round(scores[other][top.j]!.score)})` : `no free field fits (best was ${name})`;
  }
  const shape = valueShape(w.value);
  if (w.kind === 'choose') return `no checkbox or option reads "${w.option}"${w.target ? ` under "${w.target}"` : ''}`;
  if (!w.label) return shape ? `looks like ${shapeName[shape] ?? shape}, and the form has no field for one` : 'names no field of the form (no label given, and the value alone does not say which field it is)';
  const said = fieldMeaning(w.label);
  const near = fields.map((f, j) => ({ j, s: labelMatch(w.label!, f) })).sort((a, b) => b.s - a.s)[0];
  if (near && near.s >= MIN_SCORE && !fits(w.value, shape, fields[near.j].meaning)) return `${describe(fields[near.j])} is named, but the value ${shape ? `looks like ${shapeName[shape] ?? shape}, which does not go there` : `does not fit a field for ${fields[near.j].meaning}`}`;
  if (near && near.s >= MIN_SCORE && said && meaningsClash(said, fields[near.j].meaning)) return `${describe(fields[near.j])} is named, but it is for ${fields[near.j].meaning}, not ${said}`;
  return `no field's printed label, tooltip or name matches "${w.label}"`;
}

const shapeName: Partial<Record<Meaning, string>> = { ssn: 'an SSN', ein: 'an EIN', email: 'an email address', phone: 'a phone number', address: 'a street address' };
const describe = (f: Field) => `"${f.sources[0]?.text ?? f.cell.label}" (page ${f.cell.page})`;
const round = (n: number) => Math.round(n * 100) / 100;
