import { checkInterrupt } from '@quire/core';
import type { RawPage, RawWord, TableElement } from '@quire/core';
import { isDots, isQuantity, joinWrappedRows, splitAtLeaders, tableFromDrafts, type CellDraft } from '@quire/tables';
import { bandsOf, leftToRight, makeFrag, textOfWords } from './lines.js';
import type { Rule } from './rulings.js';
import type { Frag, PageGeom } from './types.js';

const MARKER = /^([•▪◦‣⁃∙·●○■□–\-*]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxlc]{1,6}[.)])$/;

/** Words of a fragment, leader dots not counted. */
const wordCount = (f: Frag) => f.words.reduce((n, w) => (isDots(w.text) ? n : n + 1), 0);
/** A row of short cells; prose columns (two-column text) have long fragments and never qualify. */
function tableLike(band: Frag[]): boolean {
  if (band.length < 2) return false;
  const counts = band.map(wordCount).sort((a, b) => a - b);
  if (counts[(counts.length - 1) >> 1] > 5) return false;
  // a long row label (or one whose words the text layer cuts apart) beside two or more figures
  return counts[counts.length - 1] <= 12 || (band.length >= 3 && band.filter((f) => isQuantity(f.text)).length >= band.length - 1);
}
const top = (band: Frag[]) => Math.min(...band.map((f) => f.box.y0));
const bottom = (band: Frag[]) => Math.max(...band.map((f) => f.box.y1));
const lineHeight = (band: Frag[]) => Math.max(...band.map((f) => f.box.y1 - f.box.y0));

/**
 * Borderless and partly ruled tables: runs of ≥ 3 consecutive text rows that each hold ≥ 2 separated
 * fragments, whose fragments line up into ≥ 2 columns (column boundaries are the whitespace gaps common
 * to all body rows). A header cell wider than its column spans the columns it covers. Lines starting with
 * a list marker in the first column are a list, not a table.
 */
export function detectTextTables(frags: readonly Frag[], hRules: readonly Rule[], raw: RawPage, geom: PageGeom, vRules: readonly Rule[]): { table: TableElement; frags: Set<Frag> }[] {
  const { pieces, origin } = leaderSplit(frags.filter((f) => !f.vertical && f.mark === undefined), geom);
  const out: { table: TableElement; frags: Set<Frag> }[] = [];
  for (const strip of gutterStrips(pieces, vRules)) detectInStrip(strip, hRules, raw, geom, origin, out);
  return out;
}

/** Vertical rules this long (of the page height) with text on both sides divide the page (a spread's fold, a column rule). */
const GUTTER_LENGTH = 0.6;

/**
 * Fragments grouped by the page parts that full-height vertical rules divide: a rule down most of the
 * page with text on both sides separates two pages of a spread or two columns, and no table crosses it
 * (a table's own column rules are no longer than the table).
 */
function gutterStrips(frags: Frag[], vRules: readonly Rule[]): Frag[][] {
  const cx = (f: Frag) => (f.box.x0 + f.box.x1) / 2;
  const gutters = vRules.filter((r) => r.b - r.a >= GUTTER_LENGTH && r.p > 0.02 && r.p < 0.98 &&
    frags.some((f) => f.box.x1 <= r.p && f.box.y0 >= r.a && f.box.y1 <= r.b) && frags.some((f) => f.box.x0 >= r.p && f.box.y0 >= r.a && f.box.y1 <= r.b))
    .map((r) => r.p).sort((a, b) => a - b);
  if (gutters.length === 0) return [frags];
  const strips: Frag[][] = gutters.map(() => []);
  strips.push([]);
  for (const f of frags) {
    let k = 0;
    while (k < gutters.length && cx(f) > gutters[k]) k++;
    strips[k].push(f);
  }
  return strips.filter((s) => s.length > 0);
}

function detectInStrip(pieces: Frag[], hRules: readonly Rule[], raw: RawPage, geom: PageGeom, origin: Map<Frag, Frag>, out: { table: TableElement; frags: Set<Frag> }[]): void {
  const bands = bandsOf(pieces);
  let run: Frag[][] = [];
  let above: Frag[] | undefined; // the band just before the run started
  const flush = () => {
    const [first, ...more] = cutAtManyTitles(run);
    flushRun(first);
    for (const part of more) { above = undefined; flushRun(part); }
    run = [];
  };
  const flushRun = (bands: Frag[][]) => {
    run = bands;
    while (run.length && run[run.length - 1].length < 2) run.pop();
    // text columns side by side above or below the table's rows are no part of it
    const { head, rest, tail } = splitOffTextFlows(run);
    run = rest;
    while (run.length && run[0].length < 2) run.shift();
    while (run.length && run[run.length - 1].length < 2) run.pop();
    let spanner = false;
    if (run.length >= 3 && above && !head.length) {
      if (groupTitleAbove(above, run)) run.unshift(above);
      else if (spannerOverFigures(above, run)) { run.unshift(above); spanner = true; }
    }
    for (const part of [head, run, tail]) {
      for (const t of runTable(part, hRules, raw, geom, part === run && spanner)) out.push({ table: t.table, frags: new Set([...t.frags].map((f) => origin.get(f) ?? f)) });
    }
  };
  for (const band of bands) {
    checkInterrupt();
    const prev = run[run.length - 1];
    const gap = prev ? top(band) - bottom(prev) : Infinity;
    const ruled = prev && hRules.some((r) => r.p > bottom(prev) && r.p < top(band));
    const close = gap <= (ruled ? 2.5 : 2) * lineHeight(prev ?? band) && !blockBelow(run, band, gap);
    if (tableLike(band)) {
      if (!close && run.length && !groupSpacing(run, band, gap)) { flush(); above = undefined; }
      run.push(band);
    } else if (run.length && close && band.length === 1 && (wordCount(band[0]) <= 6 || overFigureColumns(run, band[0]) || withinStub(run, band[0]))) run.push(band);
    else if (run.length && close && runoverLine(prev, band)) run.push(band);
    else { flush(); above = band; }
  }
  flush();
}

/**
 * Row groups set apart by extra space (a blank line or two between groups of records): a line of cells
 * below a gap of up to four line heights continues the run when the run holds three or more lines of
 * cells and each of the line's fragments falls in one column of the run's, a different one for each
 * (the columns the run's fullest lines define) — the same table, not a new one. The block below an
 * invoice's line items stays apart (blockBelow).
 */
function groupSpacing(run: Frag[][], band: Frag[], gap: number): boolean {
  const prev = run[run.length - 1];
  const records = run.filter((b) => b.length >= 2);
  if (records.length < 3 || gap > 4 * lineHeight(prev) || blockBelow(run, band, gap)) return false;
  const cols = columnsOf(basisRows(records));
  const taken = band.map((f) => cols.map((c, i) => (Math.min(c.x1, f.box.x1) > Math.max(c.x0, f.box.x0) ? i : -1)).filter((i) => i >= 0));
  return taken.every((t) => t.length === 1) && new Set(taken.map((t) => t[0])).size === band.length;
}

/**
 * The runover line of a record of text cells: ≥ 2 fragments of ≤ 12 words, each in lower case (it
 * continues a sentence) and under a fragment of the line above ("sources per capita in constant dollars"
 * under "Education revenue receipts from state", "with an annual growth rate of 1.3%" under "Annual
 * percent changes …"). Its words are too many for a row of short cells, yet it belongs to the table.
 */
function runoverLine(prev: Frag[], band: Frag[]): boolean {
  if (band.length < 2) return false;
  return band.every((f) => wordCount(f) <= 12 && /^\p{Ll}/u.test(f.text.trim()) &&
    prev.some((g) => Math.min(g.box.x1, f.box.x1) - Math.max(g.box.x0, f.box.x0) > 0));
}

/**
 * A section title inside a table, set over its figure columns ("Percentage difference between actual
 * and projected values" across the year columns): a line that starts right of every row label of the
 * run (the fragments at its left edge) and ends within the run's right edge. Too many of them in one
 * run and it is no table (cutAtManyTitles).
 */
function overFigureColumns(run: Frag[][], f: Frag): boolean {
  const left = Math.min(...run.flat().map((g) => g.box.x0)), right = Math.max(...run.flat().map((g) => g.box.x1));
  const labels = run.flat().filter((g) => g.box.x0 - left < 0.5 * (g.box.y1 - g.box.y0));
  if (labels.length === 0) return false;
  const labelEdge = Math.max(...labels.map((g) => g.box.x1));
  const figures = run.flat().filter((g) => g.box.x0 > labelEdge);
  return f.box.x0 > labelEdge && f.box.x1 <= right + 0.5 * (f.box.y1 - f.box.y0) && figures.length > 0;
}

/**
 * A lone line that stays left of every figure column of the run, from its left edge on: the runover of a
 * row label wrapped over two lines, however many words it holds ("spouse who stays at home caring for
 * young children" under "Families with one earner and a dependent"). Running text after a table runs on
 * past its first column.
 */
function withinStub(run: Frag[][], f: Frag): boolean {
  const h = f.box.y1 - f.box.y0;
  const left = Math.min(...run.flat().map((g) => g.box.x0));
  const figures = run.filter((b) => b.length >= 2).flatMap((b) => b.slice(1));
  if (figures.length === 0) return false;
  const figureStart = Math.min(...figures.map((g) => g.box.x0));
  return f.box.x0 >= left - 0.5 * h && f.box.x1 < figureStart - 0.5 * h;
}

/** A lone line longer than a wrapped label line: a section title, if the run is a table. */
const longLone = (band: Frag[]) => band.length === 1 && wordCount(band[0]) > 6;

/**
 * A run cut at its long lone lines when they are too many for section titles: a table has few titles
 * among its rows (at most one per three rows of cells); lines beside columns of running text are more.
 */
function cutAtManyTitles(run: Frag[][]): Frag[][][] {
  const titles = run.filter(longLone).length, records = run.filter((b) => b.length >= 2).length;
  if (titles === 0 || 3 * titles <= records) return [run];
  const parts: Frag[][][] = [[]];
  for (const band of run) {
    if (longLone(band)) parts.push([]);
    else parts[parts.length - 1].push(band);
  }
  return parts;
}

/**
 * A title over the group headers of a borderless table ("Annual sales" over "First half", "Second half"):
 * a single fragment of ≤ 6 words just above the run (within two line heights), when the run's first line
 * leaves the first column empty (it starts right of the run's left edge) and the title lies within that
 * line's extent, centred on it (within 10 % of its width).
 */
function groupTitleAbove(band: Frag[], run: Frag[][]): boolean {
  if (band.length !== 1 || wordCount(band[0]) > 6) return false;
  const first = run[0], f = band[0];
  if (top(first) - bottom(band) > 2 * lineHeight(band)) return false;
  const left = Math.min(...run.flat().map((g) => g.box.x0));
  const x0 = Math.min(...first.map((g) => g.box.x0)), x1 = Math.max(...first.map((g) => g.box.x1));
  if (x0 - left < 2 * lineHeight(first)) return false;
  if (f.box.x0 < x0 || f.box.x1 > x1) return false;
  return Math.abs((f.box.x0 + f.box.x1) / 2 - (x0 + x1) / 2) <= 0.1 * (x1 - x0);
}

/**
 * A spanning header over the figure columns of a borderless table whose first line names the stub
 * ("Lead time (years)" over "Statistic  1  2 … 10"): a single fragment of ≤ 6 words just above the run
 * (within two line heights), starting right of the first line's stub name (the fragment at the run's left
 * edge), within the extent of the first line's other fragments and centred on them (within 10 % of their
 * width). It spans the columns of those fragments (runTable).
 */
function spannerOverFigures(band: Frag[], run: Frag[][]): boolean {
  if (band.length !== 1 || wordCount(band[0]) > 6) return false;
  const first = run[0], f = band[0];
  if (top(first) - bottom(band) > 2 * lineHeight(band)) return false;
  const left = Math.min(...run.flat().map((g) => g.box.x0));
  const stub = first.find((g) => g.box.x0 - left < 0.5 * (g.box.y1 - g.box.y0));
  const named = first.filter((g) => g !== stub && stub && g.box.x0 > stub.box.x1);
  if (!stub || named.length < 2 || named.length !== first.length - 1) return false;
  const x0 = Math.min(...named.map((g) => g.box.x0)), x1 = Math.max(...named.map((g) => g.box.x1));
  const slack = 0.5 * (f.box.y1 - f.box.y0);
  if (f.box.x0 <= stub.box.x1 || f.box.x0 < x0 - slack || f.box.x1 > x1 + slack) return false;
  return Math.abs((f.box.x0 + f.box.x1) / 2 - (x0 + x1) / 2) <= 0.1 * (x1 - x0);
}

/**
 * A block set below a table's rows and to the right (an invoice's totals under its last columns): after
 * ≥ 3 records (rows filling the first column and ≥ 2 more), a gap wider than 1.5 × every gap between
 * them, and a band of two fragments (a label and an amount ending at the run's right edge) in its right half.
 */
function blockBelow(run: Frag[][], band: Frag[], gap: number): boolean {
  if (run.length < 3 || band.length !== 2) return false;
  const gaps = run.slice(1).map((b, i) => top(b) - bottom(run[i]));
  if (gap <= 1.5 * Math.max(...gaps, 0)) return false;
  const left = Math.min(...run.flat().map((f) => f.box.x0)), right = Math.max(...run.flat().map((f) => f.box.x1));
  // the rows above are records that fill the first column and several more; the block keeps to the right half
  const records = run.slice(-3).every((b) => b.length >= 3 && Math.min(...b.map((f) => f.box.x0)) < left + (right - left) / 4);
  // label and amount, the amount ending at the table's right edge (a centred section title does not)
  const flush = Math.abs(Math.max(...band.map((f) => f.box.x1)) - right) <= band[1].box.y1 - band[1].box.y0;
  return records && flush && Math.min(...band.map((f) => f.box.x0)) > left + (right - left) / 2;
}

/**
 * Fragments cut at their dot leaders: a row label and its figures joined by a leader ("Robbery . . . .
 * 102.1", the dots closer than a column gap) become separate fragments, and the leader's width is a
 * gap (the label's box ends with its text; the dots stay in its words and text). `origin` maps each
 * piece back to the fragment it came from.
 */
export function leaderSplit(frags: readonly Frag[], geom: PageGeom): { pieces: Frag[]; origin: Map<Frag, Frag> } {
  const pieces: Frag[] = [];
  const origin = new Map<Frag, Frag>();
  for (const f of frags) {
    const parts = splitAtLeaders(f.words);
    if (parts.length === 1 && parts[0].box.x1 >= f.box.x1) { pieces.push(f); continue; }
    for (const part of parts) {
      const piece = { ...makeFrag(part.words, geom), box: part.box };
      origin.set(piece, f);
      pieces.push(piece);
    }
  }
  return { pieces, origin };
}

/** Bullet glyphs; dashes and asterisks are left out, as they also stand for a missing value or a note mark. */
const BULLET = /^[•▪◦‣⁃∙·●○■□►▸]$/;

/**
 * Lines with each bullet joined to the text it marks (the next fragment on its line, closer than 3 ems),
 * so a bulleted list inside a cell is one column of text, not a column of bullets beside one of items.
 */
export function attachBullets(lines: Frag[][], geom: PageGeom): Frag[][] {
  return lines.map((line) => {
    const sorted = [...line].sort((a, b) => a.box.x0 - b.box.x0);
    const out: Frag[] = [];
    for (let k = 0; k < sorted.length; k++) {
      const f = sorted[k], next = sorted[k + 1];
      if (next && f.words.length === 1 && BULLET.test(f.words[0].text.trim()) && (next.box.x0 - f.box.x1) * geom.width < 3 * Math.max(f.fontSize, next.fontSize)) {
        out.push(makeFrag([...f.words, ...next.words], geom));
        k++;
      } else out.push(f);
    }
    return out;
  });
}

/**
 * A table cell's text. Words running sideways (a column name set bottom-to-top in a tall header) are read
 * as their lines run: bottom-to-top lines left to right, each from its bottom word up; top-to-bottom
 * lines right to left, each from its top word down. Upright words read as on the page.
 */
export function cellText(words: readonly RawWord[], geom: PageGeom): string {
  const up = words.filter((w) => w.direction === 'btt'), down = words.filter((w) => w.direction === 'ttb');
  const sideways = up.length >= down.length ? up : down;
  if (sideways.length === 0 || sideways.length * 2 < words.length) return textOfWords(words, geom);
  const rising = sideways === up;
  const lines: RawWord[][] = [];
  for (const w of [...sideways].sort((a, b) => (rising ? a.box.x0 - b.box.x0 : b.box.x1 - a.box.x1))) {
    const line = lines.find((l) => Math.min(l[0].box.x1, w.box.x1) - Math.max(l[0].box.x0, w.box.x0) > 0.5 * Math.min(l[0].box.x1 - l[0].box.x0, w.box.x1 - w.box.x0));
    if (line) line.push(w);
    else lines.push([w]);
  }
  const text = lines.map((l) => l.sort((a, b) => (rising ? b.box.y1 - a.box.y1 : a.box.y0 - b.box.y0)).map((w) => w.text).join(' ')).join(' ');
  const rest = words.filter((w) => w.direction !== (rising ? 'btt' : 'ttb'));
  return rest.length ? `${textOfWords(rest, geom)} ${text}` : text;
}

interface Interval { x0: number; x1: number }

export function columnsOf(rows: Frag[][]): Interval[] {
  const iv = rows.flat().map((f) => ({ x0: f.box.x0, x1: f.box.x1 })).sort((a, b) => a.x0 - b.x0);
  const cols: Interval[] = [];
  for (const i of iv) {
    const last = cols[cols.length - 1];
    if (last && i.x0 <= last.x1 + 0.002) last.x1 = Math.max(last.x1, i.x1);
    else cols.push({ ...i });
  }
  return cols;
}

/** A line ending in a hyphen after a letter: a word broken across lines, which only running text does. */
const HYPHENATED = /\p{L}[-\u00ad\u2010]$/u;
/** A line whose next line in the same column carries its sentence on: a broken word, or no sentence end before a lower-case start. */
function continuesInto(f: Frag, next: Frag): boolean {
  if (HYPHENATED.test(f.text)) return true;
  return wordCount(f) >= 2 && /^\p{Ll}/u.test(next.text) && !/[.!?:;]["'”’)]?$/u.test(f.text);
}

/**
 * Column of running text: most of its fragments are long lines that fill ≥ 70% of the column, or
 * carry their sentence on into the fragment right below them in the same column (a hyphenated line end,
 * a lower-case continuation) — narrow newspaper columns hold only two or three words a line but still
 * read on from line to line, which a table's cells do not. Text columns side by side are not a table.
 */
function proseColumn(rows: Frag[][], cols: Interval[], c: number, spanOf: (f: Frag) => [number, number]): boolean {
  const width = cols[c].x1 - cols[c].x0;
  const own = rows.map((row) => row.filter((f) => { const [a, b] = spanOf(f); return a === c && b === c; }));
  let n = 0, prose = 0;
  own.forEach((frags, r) => {
    for (const f of frags) {
      n++;
      const below = own[r + 1]?.find((g) => g.box.y0 - f.box.y1 < f.box.y1 - f.box.y0 && Math.min(f.box.x1, g.box.x1) > Math.max(f.box.x0, g.box.x0));
      if ((wordCount(f) >= 3 && f.box.x1 - f.box.x0 >= 0.7 * width) || (below && continuesInto(f, below))) prose++;
    }
  });
  return n > 0 && prose >= 0.7 * n;
}

/**
 * Rows whose fragments define the columns (the first row, usually a centred header, left out by the
 * caller): those with at least the median number of fragments (over rows with two or more). Header lines spanning several columns and wrapped stub lines have fewer
 * fragments; letting them in would merge the columns they straddle.
 */
export function basisRows(rows: Frag[][]): Frag[][] {
  const multi = rows.filter((b) => b.length >= 2);
  if (multi.length < 2) return rows;
  const counts = multi.map((b) => b.length).sort((a, b) => a - b);
  const median = counts[(counts.length - 1) >> 1];
  const basis = multi.filter((b) => b.length >= median);
  return basis.length >= 2 ? basis : multi;
}

/**
 * A fragment whose words each lie inside one column, in two or more columns, is cut into one piece per
 * column: narrow adjacent columns ("Disc.%", "Taxes") can leave a gap the line builder reads as a word
 * space. A fragment with a word outside the columns (a header centred over several) stays whole.
 */
function splitAtColumns(f: Frag, cols: readonly Interval[], geom: PageGeom): Frag[] {
  if (f.words.length < 2) return [f];
  const colOf = f.words.map((w) => cols.findIndex((c) => w.box.x0 >= c.x0 - 1e-6 && w.box.x1 <= c.x1 + 1e-6));
  if (colOf.some((c) => c < 0) || new Set(colOf).size < 2) return splitAtWideGaps(f, cols, geom);
  const groups = new Map<number, RawWord[]>();
  f.words.forEach((w, k) => groups.set(colOf[k], [...(groups.get(colOf[k]) ?? []), w]));
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, ws]) => makeFrag(ws, geom));
}

/**
 * Sub-column names set on one line over narrow figure columns ("Number  Percent" over two right-aligned
 * columns), wider than their columns: the line is cut where two neighbouring words each overlap one
 * column, different ones, with a gap of half an em or more between them (wider than a word space). A
 * group header's words keep their word spacing and stay whole.
 */
function splitAtWideGaps(f: Frag, cols: readonly Interval[], geom: PageGeom): Frag[] {
  const sorted = [...f.words].sort((a, b) => a.box.x0 - b.box.x0);
  const only = (w: RawWord) => {
    const hit = cols.map((c, i) => (Math.min(c.x1, w.box.x1) > Math.max(c.x0, w.box.x0) ? i : -1)).filter((i) => i >= 0);
    return hit.length === 1 ? hit[0] : -1;
  };
  const groups: RawWord[][] = [[sorted[0]]];
  for (let k = 1; k < sorted.length; k++) {
    const a = sorted[k - 1], b = sorted[k];
    const ca = only(a), cb = only(b);
    const gap = (b.box.x0 - a.box.x1) * geom.width;
    if (ca >= 0 && cb >= 0 && ca !== cb && gap >= 0.5 * Math.max(a.fontSize, b.fontSize)) groups.push([b]);
    else groups[groups.length - 1].push(b);
  }
  return groups.length > 1 ? groups.map((ws) => makeFrag(ws, geom)) : [f];
}

/**
 * Column spans with group headers: above the first row that fills the first column, a fragment of two
 * or more words — or one over several columns' content — centred over a run of ≥ 2 consecutive columns
 * whose sub-columns the line below names (labels in two or more of them)
 * (the narrowest such run: its centre within 10 % of the run's width of the run's centre, the run
 * bounded by the middles of the gaps around it, the fragment inside the gaps) spans them all, even where
 * it touches only one column's text ("First half" over Q1 and Q2). A header that would take a column
 * another fragment of its line holds keeps its own columns.
 */
function groupHeaderSpans(rows: Frag[][], cols: readonly Interval[], spanOf: (f: Frag) => [number, number]): (f: Frag) => [number, number] {
  const firstRecord = rows.findIndex((row) => row.some((f) => spanOf(f)[0] === 0));
  const widened = new Map<Frag, [number, number]>();
  const label = /\p{L}|^\d{4}$/u;
  for (const [i, f] of rows.slice(0, Math.max(0, firstRecord)).flatMap((row, i) => row.map((g) => [i, g] as const))) {
    const [a0, b0] = spanOf(f);
    const cx = (f.box.x0 + f.box.x1) / 2;
    let best: [number, number] | undefined;
    for (let a = 0; a <= a0; a++) {
      for (let b = Math.max(b0, a + 1); b < cols.length; b++) {
        const lo = a > 0 ? cols[a - 1].x1 : -Infinity, hi = b + 1 < cols.length ? cols[b + 1].x0 : Infinity;
        if (f.box.x0 < lo || f.box.x1 > hi) continue;
        const left = a > 0 ? (cols[a - 1].x1 + cols[a].x0) / 2 : cols[a].x0, right = b + 1 < cols.length ? (cols[b].x1 + cols[b + 1].x0) / 2 : cols[b].x1;
        if (Math.abs(cx - (left + right) / 2) > 0.1 * (right - left)) continue;
        if (!best || b - a < best[1] - best[0]) best = [a, b];
      }
    }
    // a group's sub-columns are named in the line below: labels in two or more of its columns
    const named = best && new Set(rows[i + 1].filter((g) => label.test(g.text.trim())).map((g) => spanOf(g)[0]).filter((c) => c >= best![0] && c <= best![1])).size >= 2;
    if (best && named && (f.words.length >= 2 || b0 > a0)) widened.set(f, best);
  }
  // a group header claiming a column another fragment of its line holds is not centred over a group
  for (const row of rows) {
    const ws = row.map((f) => ({ f, span: widened.get(f) ?? spanOf(f) }));
    const clash = ws.filter((x) => widened.has(x.f) && ws.some((y) => y !== x && x.span[0] <= y.span[1] && y.span[0] <= x.span[1]));
    for (const x of clash) widened.delete(x.f);
  }
  return (f) => widened.get(f) ?? spanOf(f);
}

/** Two fragments on one text line: the same text size, and baselines (box bottoms) within a fifth of the line height. */
function sameLine(f: Frag, g: Frag): boolean {
  const h = Math.max(f.box.y1 - f.box.y0, g.box.y1 - g.box.y0);
  return Math.abs(f.fontSize - g.fontSize) <= 0.15 * Math.max(f.fontSize, g.fontSize) && Math.abs(f.box.y1 - g.box.y1) <= 0.2 * h;
}

/**
 * Text columns set side by side, not a table: in most rows (two thirds of those with two or more
 * fragments, at least two) no two fragments share a line — the columns keep their own text size or line
 * spacing (footnotes beside body text, a caption beside a page column), while a table's cells in one row
 * stand on one baseline. Text-layer words only: OCR boxes move with ascenders and descenders.
 */
function separateTextFlows(rows: Frag[][]): boolean {
  const multi = rows.filter((row) => row.length >= 2);
  if (multi.some((row) => row.some((f) => f.words.some((w) => w.confidence < 1)))) return false;
  const apart = multi.filter(linesApart).length;
  return apart >= 2 && apart >= (2 / 3) * multi.length;
}

/** A row of two or more text-layer fragments no two of which stand on one line. */
const linesApart = (row: Frag[]) => row.length >= 2 && row.every((f) => f.words.every((w) => w.confidence >= 1)) &&
  !row.some((f, i) => row.slice(i + 1).some((g) => sameLine(f, g)));

/**
 * A run's leading (or trailing) rows that are text columns side by side — two or more rows whose
 * fragments stand apart (separateTextFlows), with the lone lines among them — cut off from the rows
 * whose cells share their lines: running text beside a table's title, read into the table's rows.
 */
function splitOffTextFlows(run: Frag[][]): { head: Frag[][]; rest: Frag[][]; tail: Frag[][] } {
  const edge = (rows: Frag[][]) => {
    let k = 0, apart = 0;
    while (k < rows.length && (rows[k].length < 2 || linesApart(rows[k]))) { if (rows[k].length >= 2) apart++; k++; }
    // the text columns end where the table's rows begin: some rows of shared lines must follow
    return apart >= 2 && rows.length - k >= 3 ? k : 0;
  };
  const h = edge(run);
  const t = edge([...run].reverse());
  const tailStart = run.length - t;
  if (h + t > run.length - 3) return { head: [], rest: run, tail: [] };
  return { head: run.slice(0, h), rest: run.slice(h, tailStart), tail: run.slice(tailStart) };
}

/**
 * A column boundary with two text flows on either side: no fragment crosses it, two or more rows hold
 * text on both sides, and in two thirds of those rows the two sides do not share a line — other text
 * sizes, baselines apart, or an offset that drifts from row to row as each side keeps its own line
 * spacing (running text beside a table, footnotes beside a chart's axis labels). Returns the first
 * column right of the boundary, 0 when there is none. Text-layer words only.
 */
function sideBySideCut(rows: Frag[][], cols: number, spanOf: (f: Frag) => [number, number]): number {
  if (rows.some((row) => row.some((f) => f.words.some((w) => w.confidence < 1)))) return 0;
  for (let k = 1; k < cols; k++) {
    if (rows.some((row) => row.some((f) => { const [a, b] = spanOf(f); return a < k && b >= k; }))) continue;
    // per row with text on both sides: the nearest baselines' offset, or none where the sizes differ
    const offsets: (number | undefined)[] = [];
    let h = 0;
    for (const row of rows) {
      const left = row.filter((f) => spanOf(f)[1] < k), right = row.filter((f) => spanOf(f)[0] >= k);
      if (!left.length || !right.length) continue;
      let best: number | undefined;
      for (const f of left) for (const g of right) {
        h = Math.max(h, f.box.y1 - f.box.y0, g.box.y1 - g.box.y0);
        if (Math.abs(f.fontSize - g.fontSize) > 0.15 * Math.max(f.fontSize, g.fontSize)) continue;
        const d = g.box.y1 - f.box.y1;
        if (best === undefined || Math.abs(d) < Math.abs(best)) best = d;
      }
      offsets.push(best);
    }
    const known = offsets.filter((d): d is number => d !== undefined).sort((a, b) => a - b);
    const median = known.length ? known[(known.length - 1) >> 1] : 0;
    // apart: other sizes, off the line, or drifting from the usual offset (each side keeps its own line spacing)
    const apart = offsets.filter((d) => d === undefined || Math.abs(d) > 0.2 * h || Math.abs(d - median) > 0.15 * h).length;
    if (offsets.length >= 2 && apart >= (2 / 3) * offsets.length) return k;
  }
  return 0;
}

/**
 * Section titles among a table's records: a body line (below the first row that fills the first column)
 * holding one fragment right of the first column and across two or more columns is a title over all the
 * figure columns, and spans them all, however wide its text ("Projected enrollment, in thousands"
 * centred over four year columns).
 */
function sectionTitleSpans(rows: Frag[][], cols: number, spanOf: (f: Frag) => [number, number]): (f: Frag) => [number, number] {
  const firstRecord = rows.findIndex((row) => row.some((f) => spanOf(f)[0] === 0));
  const titles = new Set<Frag>();
  rows.forEach((row, r) => {
    if (firstRecord < 0 || r <= firstRecord || row.length !== 1) return;
    const [a, b] = spanOf(row[0]);
    if (a >= 1 && b > a) titles.add(row[0]);
  });
  return (f) => (titles.has(f) ? [1, cols - 1] : spanOf(f));
}

/**
 * Group headers over a straddle rule: a header line's label (above the first line with a figure) set just
 * over a horizontal rule shorter than the table — the rule within eight tenths of a line height below its
 * text and running under all of it — spans the columns the rule runs over (half or more of each column's
 * width under it), two or more: statistical tables draw such a rule under "2007" over that year's columns,
 * however narrow the label. A span that would take a column another fragment of its line holds is left alone.
 */
function straddleRuleSpans(rows: Frag[][], cols: readonly Interval[], hRules: readonly Rule[], spanOf: (f: Frag) => [number, number]): (f: Frag) => [number, number] {
  const firstFigures = rows.findIndex((row) => row.some((f) => isQuantity(f.text)));
  const width = cols[cols.length - 1].x1 - cols[0].x0;
  const widened = new Map<Frag, [number, number]>();
  for (const row of rows.slice(0, Math.max(0, firstFigures))) {
    for (const f of row) {
      const h = f.box.y1 - f.box.y0;
      const rule = hRules.find((r) => r.p >= f.box.y1 - 0.3 * h && r.p <= f.box.y1 + 0.8 * h && r.a <= f.box.x0 + 0.5 * h && r.b >= f.box.x1 - 0.5 * h && r.b - r.a < 0.9 * width);
      if (!rule) continue;
      const under = cols.map((c, i) => (Math.min(c.x1, rule.b) - Math.max(c.x0, rule.a) >= 0.5 * (c.x1 - c.x0) ? i : -1)).filter((i) => i >= 0);
      if (under.length < 2) continue;
      const [a0, b0] = spanOf(f);
      const span: [number, number] = [Math.min(a0, under[0]), Math.max(b0, under[under.length - 1])];
      const clash = row.some((g) => g !== f && spanOf(g)[0] <= span[1] && span[0] <= spanOf(g)[1]);
      if (!clash && span[1] > span[0]) widened.set(f, span);
    }
  }
  return (f) => widened.get(f) ?? spanOf(f);
}

/**
 * A word that stands alone in a figure column: a figure, a missing-value mark, or a year (a column name),
 * with or without a note mark set on the line after its last digit ("13,020.4a", "9.8*", "2021†").
 */
const figureWord = (s: string) => {
  const t = s.trim().replace(/(?<=\d\)?)[a-z*†‡§¶]$/, '');
  return isQuantity(t) || /^\d{4}$/.test(t);
};
/** Two words that may be one number with its digits grouped by a space ("12 345"). */
const digitGroups = (a: string, b: string) => /^[-+−–(]?[$€£¥]?\d{1,3}$/.test(a.trim()) && /^\d{3}(?:[.,]\d+)?\)?%?$/.test(b.trim());

/**
 * Figure columns set closer than the line builder's column gap (about half an em between right-aligned
 * values) join into one fragment a line ("12,345.6 13,020.4 9,871.2"), and the table reads them as one
 * column. A fragment is cut between two neighbouring figures when they stand wider apart than a word
 * space (0.4 em; 0.6 em where they could be one number with grouped digits) and the columns repeat: in
 * two or more other lines of the run a figure lies under each of the two, and no figure of the run
 * covers the whole space between them (a common gutter). `back` maps each piece to its fragment.
 */
function splitCloseFigures(rows: Frag[][], geom: PageGeom): { rows: Frag[][]; back: Map<Frag, Frag> } {
  const back = new Map<Frag, Frag>();
  const figures = rows.map((row) => row.flatMap((f) => leftToRight(f).filter((w) => figureWord(w.text))));
  const overlaps = (w: RawWord, x0: number, x1: number) => Math.min(w.box.x1, x1) > Math.max(w.box.x0, x0);
  const gutterAt = (r: number, a: RawWord, b: RawWord): boolean => {
    let repeats = 0;
    // the space between a and b less what other lines' figures cover: some of it must stay free
    const covers: [number, number][] = [];
    figures.forEach((ws, k) => {
      if (k === r) return;
      if (ws.some((w) => overlaps(w, a.box.x0, a.box.x1)) && ws.some((w) => overlaps(w, b.box.x0, b.box.x1))) repeats++;
      for (const w of ws) if (overlaps(w, a.box.x1, b.box.x0)) covers.push([w.box.x0, w.box.x1]);
    });
    if (repeats < 2) return false;
    let at = a.box.x1;
    for (const [x0, x1] of covers.sort((p, q) => p[0] - q[0])) { if (x0 > at) return true; at = Math.max(at, x1); }
    return at < b.box.x0;
  };
  const out = rows.map((row, r) => row.flatMap((f) => {
    const ws = leftToRight(f);
    if (ws.length < 2 || f.vertical) return [f];
    const groups: RawWord[][] = [[ws[0]]];
    for (let k = 1; k < ws.length; k++) {
      const a = ws[k - 1], b = ws[k];
      const em = Math.max(a.fontSize, b.fontSize), gap = (b.box.x0 - a.box.x1) * geom.width;
      const cut = figureWord(a.text) && figureWord(b.text) && gap >= (digitGroups(a.text, b.text) ? 0.6 : 0.4) * em && gutterAt(r, a, b);
      if (cut) groups.push([b]);
      else groups[groups.length - 1].push(b);
    }
    if (groups.length === 1) return [f];
    return groups.map((g) => { const piece = makeFrag(g, geom); back.set(piece, f); return piece; });
  }));
  return { rows: out, back };
}

/** `spanner`: the first line is a spanning header over the figure columns of the second (spannerOverFigures). */
function runTable(run: Frag[][], hRules: readonly Rule[], raw: RawPage, geom: PageGeom, spanner = false): { table: TableElement; frags: Set<Frag> }[] {
  if (run.length < 3) return [];
  const { rows: found, back } = splitCloseFigures(run, geom);
  const whole = (t: { table: TableElement; frags: Set<Frag> }) => ({ table: t.table, frags: new Set([...t.frags].map((f) => back.get(f) ?? f)) });
  const body = found.slice(1).filter((b) => b.length >= 2);
  const cols = columnsOf(basisRows(body.length >= 2 ? found.slice(1) : found));
  if (cols.length < 2) return [];
  const rows = found.map((row) => row.flatMap((f) => splitAtColumns(f, cols, geom)));
  const contentSpanOf = (f: Frag): [number, number] => {
    let c0 = -1, c1 = -1;
    cols.forEach((c, i) => {
      if (Math.min(c.x1, f.box.x1) - Math.max(c.x0, f.box.x0) > 0) { if (c0 < 0) c0 = i; c1 = i; }
    });
    if (c0 >= 0) return [c0, c1];
    const cx = (f.box.x0 + f.box.x1) / 2;
    let best = 0;
    cols.forEach((c, i) => { if (Math.abs((c.x0 + c.x1) / 2 - cx) < Math.abs((cols[best].x0 + cols[best].x1) / 2 - cx)) best = i; });
    return [best, best];
  };
  const baseSpanOf = straddleRuleSpans(rows, cols, hRules, sectionTitleSpans(rows, cols.length, groupHeaderSpans(rows, cols, contentSpanOf)));
  // a spanning header covers the columns its line's figure-column names take, from the first to the last
  const named = spanner ? rows[1].map(baseSpanOf).filter(([a]) => a > 0) : [];
  const spannerSpan: [number, number] | undefined = named.length ? [Math.min(...named.map(([a]) => a)), Math.max(...named.map(([, b]) => b))] : undefined;
  const spanOf = (f: Frag): [number, number] => (spannerSpan && rows[0].includes(f) ? spannerSpan : baseSpanOf(f));
  // how full the grid is, over its rows less the wrapped lines of a stub: a row label wrapped over two or
  // three lines around its one line of figures (the figures' first column empty) fills one slot a line
  const loneLabel = (r: number) => rows[r].length === 1 && spanOf(rows[r][0])[0] === 0 && spanOf(rows[r][0])[1] === 0 && !isQuantity(rows[r][0].text);
  const openFigures = (r: number) => r >= 0 && r < rows.length && rows[r].length >= 2 && rows[r].every((f) => spanOf(f)[0] > 0) && rows[r].some((f) => isQuantity(f.text));
  let used = 0, counted = 0, multi = 0, markers = 0, firstCol = 0;
  rows.forEach((row, r) => {
    const set = new Set<number>();
    for (const f of row) { const [a, b] = spanOf(f); for (let c = a; c <= b; c++) set.add(c); }
    if (!(loneLabel(r) && (openFigures(r - 1) || openFigures(r + 1)))) { used += set.size; counted++; }
    if (set.size >= 2) multi++;
    const first = row.find((f) => spanOf(f)[0] === 0);
    if (first) { firstCol++; if (MARKER.test(first.words[0].text) && first.words.length === 1) markers++; }
  });
  if (multi < 3 || used < 0.5 * counted * cols.length || markers >= 0.6 * firstCol) return [];
  if (cols.every((_, c) => proseColumn(rows, cols, c, spanOf))) return [];
  if (separateTextFlows(rows)) return [];
  // two text flows side by side in a run that reads as a table: each side is a table only on its own
  const cut = sideBySideCut(found, cols.length, spanOf);
  if (cut > 0) {
    const side = (left: boolean) => found.map((row) => row.filter((f) => (spanOf(f)[1] < cut) === left)).filter((row) => row.length > 0);
    return [...runTable(side(true), hRules, raw, geom), ...runTable(side(false), hRules, raw, geom)].map(whole);
  }
  const colEdges = [cols[0].x0, ...cols.slice(1).map((c, i) => (cols[i].x1 + c.x0) / 2), cols[cols.length - 1].x1];
  const rowEdges = [top(rows[0]), ...rows.slice(1).map((b, i) => (bottom(rows[i]) + top(b)) / 2), bottom(rows[rows.length - 1])];
  const drafts: CellDraft[] = [];
  rows.forEach((row, r) => {
    const slots: (CellDraft | undefined)[] = new Array(cols.length);
    for (const f of row) {
      const [c0, c1] = spanOf(f);
      const existing = slots.slice(c0, c1 + 1).find((d) => d);
      const d = existing ?? { row: r, col: c0, rowSpan: 1, colSpan: 1, words: [] as RawWord[], box: { x0: 0, y0: 0, x1: 0, y1: 0 } };
      d.col = Math.min(d.col, c0);
      d.colSpan = Math.max(d.col + d.colSpan - 1, c1) - d.col + 1;
      d.words.push(...f.words);
      for (let c = d.col; c < d.col + d.colSpan; c++) slots[c] = d;
    }
    for (let c = 0; c < cols.length; c++) {
      if (!slots[c]) slots[c] = { row: r, col: c, rowSpan: 1, colSpan: 1, words: [], box: { x0: 0, y0: 0, x1: 0, y1: 0 } };
    }
    for (const d of new Set(slots)) {
      d!.box = { x0: colEdges[d!.col], x1: colEdges[d!.col + d!.colSpan], y0: rowEdges[r], y1: rowEdges[r + 1] };
      drafts.push(d!);
    }
  });
  const between = (r: number) => hRules.some((h) => h.p > bottom(rows[r]) - 0.001 && h.p < top(rows[r + 1]) + 0.001 &&
    h.b - h.a >= 0.5 * (colEdges[colEdges.length - 1] - colEdges[0]));
  const ruledGaps = rows.slice(0, -1).map((_, r) => between(r));
  const anyRule = ruledGaps.some(Boolean);
  const joined = joinWrappedRows(drafts, rows.length, (r) => ruledGaps[r]);
  const gaps = joined.ruled.slice(0, joined.rows - 1);
  const ruleBelowFirstOnly = gaps[0] && !gaps.every(Boolean);
  const table = tableFromDrafts(joined.drafts, joined.rows, cols.length, raw, (ws) => textOfWords(ws, geom), anyRule ? 0.8 : 0.7, ruleBelowFirstOnly,
    // a spanning header names the figure columns with the line under it: both are the header
    spannerSpan ? Math.max(joined.labelRows, 2) : joined.labelRows);
  table.extra = { source: anyRule ? 'horizontal-rules' : 'whitespace' };
  return [{ table, frags: new Set(run.flat()) }];
}
