/** Flags kept per cell: what header detection needs, nothing more. */
export const NUMERIC = 1;
export const BOLD = 2;

/**
 * Non-empty cells of one sheet in parallel growable arrays (row, col, flags, displayed text), so a
 * million cells cost a few typed-array slots and a string each instead of an object graph.
 */
export class CellStore {
  rows = new Int32Array(1024);
  cols = new Int32Array(1024);
  flags = new Uint8Array(1024);
  texts: string[] = [];
  count = 0;

  push(r: number, c: number, text: string, flags: number): void {
    if (this.count === this.rows.length) this.grow();
    this.rows[this.count] = r;
    this.cols[this.count] = c;
    this.flags[this.count] = flags;
    this.texts.push(text);
    this.count++;
  }

  private grow(): void {
    const n = this.rows.length * 2;
    const rows = new Int32Array(n), cols = new Int32Array(n), flags = new Uint8Array(n);
    rows.set(this.rows); cols.set(this.cols); flags.set(this.flags);
    this.rows = rows; this.cols = cols; this.flags = flags;
  }
}
