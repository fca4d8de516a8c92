/** A1 references, zero-based internally. Columns run A..XFD (16,384), rows 1..1,048,576. */
export interface CellRect { r0: number; c0: number; r1: number; c1: number }

const MAX_COLS = 16384;
const MAX_ROWS = 1048576;

function colName(c: number): string {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export const cellName = (r: number, c: number) => `${colName(c)}${r + 1}`;

export const rectName = (x: CellRect) =>
  x.r0 === x.r1 && x.c0 === x.c1 ? cellName(x.r0, x.c0) : `${cellName(x.r0, x.c0)}:${cellName(x.r1, x.c1)}`;

/** Parses "B12" (with optional $) into zero-based row/col; undefined when malformed. */
export function parseCell(ref: string): { r: number; c: number } | undefined {
  let i = 0, c = 0;
  const s = ref.replace(/\$/g, '');
  while (i < s.length) {
    const code = s.charCodeAt(i) & ~32;
    if (code < 65 || code > 90) break;
    c = c * 26 + (code - 64);
    i++;
  }
  const r = Number(s.slice(i));
  if (i === 0 || !Number.isInteger(r) || r < 1 || c > MAX_COLS || r > MAX_ROWS) return undefined;
  return { r: r - 1, c: c - 1 };
}

/** Parses "A1:C3" or "B2" into a rectangle. */
export function parseRange(ref: string): CellRect | undefined {
  const [a, b] = ref.split(':');
  const p = parseCell(a);
  const q = b === undefined ? p : parseCell(b);
  if (!p || !q) return undefined;
  return { r0: Math.min(p.r, q.r), c0: Math.min(p.c, q.c), r1: Math.max(p.r, q.r), c1: Math.max(p.c, q.c) };
}

export const contains = (x: CellRect, r: number, c: number) => r >= x.r0 && r <= x.r1 && c >= x.c0 && c <= x.c1;
