import { meanConfidence, mostly, type Box, type RawPage, type RawWord, type TableCell, type TableElement } from '@quire/core';

/** A cell as layout's table detectors find it: its grid position and spans, its box and the words inside. */
export interface CellDraft {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  box: Box;
  words: RawWord[];
}

/**
 * Leading header rows: the first row is a header when its text is bold and the body's is not, when it sits
 * on a fill the next row does not have, or when a rule separates it from the body while no other rows are
 * separated (partly ruled statements). Otherwise the leading rows of labels above rows of figures
 * (`labelRows`, from joinWrappedRows) are the header. A header cell spanning several rows extends the
 * header to them.
 */
export function headerRows(drafts: readonly CellDraft[], raw: RawPage, ruleBelowFirstOnly = false, labelRows = 0): number {
  const first = drafts.filter((d) => d.row === 0 && d.words.length > 0);
  const body = drafts.filter((d) => d.row > 0 && d.words.length > 0);
  if (first.length === 0 || body.length === 0) return 0;
  const boldFirst = first.every((d) => mostly(d.words, 'bold'));
  const boldBody = body.every((d) => mostly(d.words, 'bold'));
  const header = (boldFirst && !boldBody) || ruleBelowFirstOnly || filledFirstRow(drafts, raw);
  // a bold or filled first row starts the header; the label rows stacked under it (group headers over
  // their sub-columns) belong to it too
  let span = header ? Math.max(1, labelRows) : labelRows;
  if (span === 0) return 0;
  // a cell spanning down from the header pulls the rows it covers in
  for (let grown = true; grown;) {
    grown = false;
    for (const d of drafts) if (d.row < span && d.row + d.rowSpan > span) { span = d.row + d.rowSpan; grown = true; }
  }
  return span;
}

function filledFirstRow(drafts: readonly CellDraft[], raw: RawPage): boolean {
  const rowBox = (r: number) => {
    const cells = drafts.filter((d) => d.row === r);
    return cells.length ? { y: (cells[0].box.y0 + cells[0].box.y1) / 2, x0: Math.min(...cells.map((c) => c.box.x0)), x1: Math.max(...cells.map((c) => c.box.x1)) } : undefined;
  };
  const fillOf = (r: number): string | undefined => {
    const rb = rowBox(r);
    if (!rb) return undefined;
    for (const rect of raw.rects) {
      if (!rect.filled || rect.box.y0 > rb.y || rect.box.y1 < rb.y) continue;
      if (Math.min(rect.box.x1, rb.x1) - Math.max(rect.box.x0, rb.x0) < 0.5 * (rb.x1 - rb.x0)) continue;
      if ((rect.box.x1 - rect.box.x0) * (rect.box.y1 - rect.box.y0) > 0.5) continue;
      const f = rect.fill ?? [0, 0, 0];
      if (f[0] > 0.97 && f[1] > 0.97 && f[2] > 0.97) continue;
      return f.map((c) => c.toFixed(2)).join(',');
    }
    return undefined;
  };
  const f0 = fillOf(0);
  return f0 !== undefined && fillOf(1) !== f0;
}

/**
 * The TableElement from cell drafts (already covering every grid position once). `cellText` reads a
 * cell's words as text (the page's line building, which lives in layout).
 */
export function tableFromDrafts(drafts: CellDraft[], rows: number, cols: number, raw: RawPage, cellText: (words: readonly RawWord[]) => string, structure: number, ruleBelowFirstOnly = false, labelRows = 0): TableElement {
  drafts.sort((a, b) => a.row - b.row || a.col - b.col);
  const hr = headerRows(drafts, raw, ruleBelowFirstOnly, labelRows <= rows / 2 ? labelRows : 0);
  const all: RawWord[] = [];
  const cells: TableCell[] = drafts.map((d) => {
    all.push(...d.words);
    return {
      row: d.row, col: d.col, rowSpan: d.rowSpan, colSpan: d.colSpan,
      text: cellText(d.words), box: d.box, isHeader: d.row < hr,
      confidence: d.words.length ? round(meanConfidence(d.words)) : null,
    };
  });
  const box = {
    x0: Math.min(...drafts.map((d) => d.box.x0)), y0: Math.min(...drafts.map((d) => d.box.y0)),
    x1: Math.max(...drafts.map((d) => d.box.x1)), y1: Math.max(...drafts.map((d) => d.box.y1)),
  };
  return { kind: 'table', page: raw.number, box, rows, cols, cells, confidence: round(structure * meanConfidence(all)), headerRows: hr };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
