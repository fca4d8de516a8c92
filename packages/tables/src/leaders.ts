import type { Box, RawWord } from '@quire/core';
import { unionBox } from '@quire/core';

/** Characters leader lines are drawn with: full stops, middle dots, ellipses. */
const DOTS = /^[.·…]+$/;
const TRAILING_DOTS = /[.·…]{3,}$/;

const dotCount = (text: string) => [...text].reduce((n, ch) => n + (ch === '…' ? 3 : 1), 0);

export const isDots = (text: string) => DOTS.test(text);

/** Text between dot leaders: its words (leader dots included, as the text layer has them) and the extent of its text alone. */
export interface LeaderPiece {
  words: RawWord[];
  box: Box;
}

/**
 * A line's words (left to right) cut at its dot leaders ("Robbery . . . . . . 102.1"): a run of
 * dot-only words holding three or more dots that follows text on the same line leads the eye from a
 * row label to its figures, and a word ending in three or more dots ("Total.........") does the same.
 * For table structure the leader is whitespace: it ends the piece of text before it, and the piece's
 * box covers its text only. The leader's words stay with that piece, so cell text keeps what the page
 * says (as the ICDAR and camelot ground truths do). Dots with no text before them on the line
 * ("…" or "..." for "not available") are text.
 */
export function splitAtLeaders(words: readonly RawWord[]): LeaderPiece[] {
  const pieces: LeaderPiece[] = [];
  let cur: RawWord[] = [], text: Box[] = [];
  const close = (leader: RawWord[]) => {
    pieces.push({ words: [...cur, ...leader], box: unionBox(text)! });
    cur = [];
    text = [];
  };
  let i = 0;
  while (i < words.length) {
    let j = i, dots = 0;
    while (j < words.length && DOTS.test(words[j].text)) { dots += dotCount(words[j].text); j++; }
    if (j > i && dots >= 3 && cur.length > 0) {
      close(words.slice(i, j));
      i = j;
      continue;
    }
    // more leader after a word that ended in dots, or after a leader a stray glyph interrupted
    if (j > i && cur.length === 0 && pieces.length > 0) {
      pieces[pieces.length - 1].words.push(...words.slice(i, j));
      i = j;
      continue;
    }
    if (j > i) {
      for (const w of words.slice(i, j)) { cur.push(w); text.push(w.box); }
      i = j;
      continue;
    }
    const w = words[i];
    const stripped = w.text.replace(TRAILING_DOTS, '');
    cur.push(w);
    if (stripped !== w.text && stripped !== '') {
      text.push({ ...w.box, x1: w.box.x0 + (w.box.x1 - w.box.x0) * (stripped.length / w.text.length) });
      close([]);
    } else text.push(w.box);
    i++;
  }
  if (cur.length) close([]);
  return pieces;
}
