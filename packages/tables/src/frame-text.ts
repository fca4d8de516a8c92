import type { RawWord } from '@quire/core';
import { isDots } from './leaders.js';
import type { CellDraft } from './table-cells.js';

/** A caption's label and number: "Table 3", "Exhibit 19", "Figure 2.1", "Table ES-1", "Tableau 4", "Tabelle 2". */
const CAPTION = /^(?:table|tab\.|exhibit|figure|fig\.|chart|tableau|tabelle|tabla|tabella|tabel|tabell)\s+[A-Z]{0,3}[-.]?\d/i;
/** A note's lead word: "Note:", "Notes.", "Source:", "Sources:", and their French, German and Spanish forms. */
const NOTE = /^(?:notes?|sources?|nota|quelle|quellen|fuente|fuentes|anmerkung|remarques?)\s*[:.]/i;

const textOf = (words: readonly RawWord[]) => [...words].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0).filter((w) => !isDots(w.text)).map((w) => w.text).join(' ');

/**
 * A frame drawn round a whole exhibit holds its caption and its notes as rows of one cell across the
 * table: the leading full-width rows from a caption ("Exhibit 19", its title lines after it) and the
 * trailing full-width rows from the first note ("Note:", "Source:", or a line of prose of eight words
 * or more) are no table rows. Returns the rows left (renumbered), how many were cut from the top, and
 * the cut rows' words; nothing is cut unless two rows with two or more cells remain.
 */
export function cutFrameText(drafts: readonly CellDraft[], rows: number, cols: number): { drafts: CellDraft[]; rows: number; top: number; words: RawWord[] } {
  const none = { drafts: [...drafts], rows, top: 0, words: [] };
  if (cols < 2) return none;
  const inRow = (r: number) => drafts.filter((d) => d.row <= r && d.row + d.rowSpan > r);
  // a row that is one cell across the table (empty slots aside)
  const fullWidth = (r: number) => { const ds = inRow(r).filter((d) => d.words.length > 0); return ds.length === 1 && ds[0].colSpan === cols && ds[0].rowSpan === 1; };
  const rowText = (r: number) => textOf(inRow(r).flatMap((d) => d.words));
  let top = 0;
  if (fullWidth(0) && CAPTION.test(rowText(0))) while (top < rows && fullWidth(top)) top++;
  let bottom = rows;
  let k = rows;
  while (k > top && fullWidth(k - 1)) k--;
  for (let r = k; r < rows; r++) {
    const t = rowText(r);
    if (NOTE.test(t) || t.split(/\s+/).length >= 8) { bottom = r; break; }
  }
  if (top === 0 && bottom === rows) return none;
  const kept = drafts.filter((d) => d.row >= top && d.row + d.rowSpan <= bottom);
  const keptRows = new Set(kept.filter((d) => d.words.length > 0).map((d) => d.row));
  if (bottom - top < 2 || [...keptRows].filter((r) => kept.filter((d) => d.row === r && d.words.length > 0).length >= 2).length < 2) return none;
  // a cell reaching into the cut rows would lose part of itself: leave the frame as it is
  if (drafts.some((d) => d.words.length > 0 && !kept.includes(d) && d.row < bottom && d.row + d.rowSpan > top)) return none;
  return {
    drafts: kept.map((d) => ({ ...d, row: d.row - top })),
    rows: bottom - top,
    top,
    words: drafts.filter((d) => !kept.includes(d)).flatMap((d) => d.words),
  };
}
