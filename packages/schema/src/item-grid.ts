import type { Box, TableElement } from '@quire/core';
import { pageLines, type DocIndex, type RowSegment } from './doc-index.js';
import type { FieldSpec } from './field-spec.js';
import { conceptOf, readLabel, type Concept } from './label-lexicon.js';
import { findAmounts } from './values/amounts.js';

/**
 * An invoice's item table as a grid of header texts and body cells, whether the layout found it as a
 * table or it is only printed in columns (header words over right-aligned figures); and which column
 * holds which item property — by what the header means in any language ("Menge", "Aantal",
 * "Prezzo unitario", "Gesamtpreis"), and by arithmetic: the column whose figures are the products of
 * two others is the line amount, those two are quantity and unit price.
 */

export interface GridCell { text: string; ids: string[] }
/** headerLines: per column, each header row's text and each part of a cell that names two things ("Désignation, période"). */
/** rowBoxes: where each body row is printed (rows read from the page's words; a table's rows are placed by their cells' words). */
export interface Grid { headers: string[]; headerLines?: string[][]; rows: GridCell[][]; rowBoxes?: (Box | undefined)[]; tableId?: string }

/** What an item property or a column header holds. */
export type ItemRole = 'description' | 'quantity' | 'unit-price' | 'amount';

const ROLE_OF: Partial<Record<Concept, ItemRole>> = {
  description: 'description', quantity: 'quantity', 'unit-price': 'unit-price', 'line-amount': 'amount', total: 'amount', subtotal: 'amount',
};

/** The role a header names, read leniently (a header is short and may abbreviate: "Art. Produit", "Cena jedn."). */
export function headerRole(text: string): ItemRole | undefined {
  // "P.U. HT", "Q.té": letters with points between them are one abbreviation (prix unitaire, quantité)
  const r = readLabel(text.replace(/\([^)]*\)/g, ' ').replace(/(?<!\p{L})(\p{L})\.(\p{L}{1,3})\b\.?/gu, '$1$2'));
  if (!r.known || r.unknown > r.known + 1) return undefined;
  // over an item column "Net amount" is the line's amount before tax, whatever a receipt's "net" means
  const mods = r.mods.has('loose') ? new Set([...r.mods].filter((m) => m !== 'loose')).add('net') : r.mods;
  const c = conceptOf({ ...r, mods, unknown: 0 });
  if (c) return ROLE_OF[c];
  // "Netto", "Brutto", "Imponibile" alone over a column: the line's amount before or after tax
  if (!r.heads.size && mods.size && [...mods].every((m) => m === 'net' || m === 'gross')) return 'amount';
  return undefined;
}

/** The role an item property asks for (its concept, from its name and description). */
export function propertyRole(spec: FieldSpec): ItemRole | undefined {
  return spec.concept ? ROLE_OF[spec.concept] : undefined;
}

/** The roles a column's header names: of its whole text, or of any of its lines ("NOM & DESIGNATION" over "Objet" over "Note"). */
export function headerRoles(grid: Grid, col: number): Set<ItemRole> {
  const texts = [grid.headers[col] ?? '', ...(grid.headerLines?.[col] ?? [])].filter(Boolean);
  return new Set(texts.map(headerRole).filter((r): r is ItemRole => Boolean(r)));
}

/**
 * A table element as a grid (header rows joined per column). A header set over several rows is read
 * to its end even where the layout marked only its first row: the rows after it that hold no figure
 * at all ("Objet, Classification" / "(EUR)") are more header, not items — an item row has an amount.
 */
export function gridOfTable(t: TableElement): Grid {
  const cell = (row: number, col: number) => t.cells.find((x) => x.row === row && x.col === col);
  let headerRows = Math.max(1, t.headerRows);
  const texts = (row: number) => Array.from({ length: t.cols }, (_, col) => cell(row, col)?.text.trim() ?? '').filter(Boolean);
  const hasFigure = (row: number) => texts(row).some((x) => /\d/.test(x));
  // a row of text in one column only is header when short ("Note", "(EUR)"); a longer line, or one that
  // runs on ("repair, on site,"), is the first line of an item whose figures stand beside its last,
  // whatever the layout took it for
  const headerLike = (row: number) => {
    const xs = texts(row);
    return xs.length !== 1 || (xs[0].split(/\s+/).length <= 3 && xs[0].length <= 30 && !/[,;\-–]\s*$/.test(xs[0]));
  };
  while (headerRows > 1 && !headerLike(headerRows - 1)) headerRows--;
  if (t.headerRows >= 1) while (headerRows < t.rows - 1 && !hasFigure(headerRows) && headerLike(headerRows)) headerRows++;
  // no header row at all: a first row with words and figures, as the layout found it, is an item (the columns are
  // then read from their arithmetic, tables.ts)
  if (t.headerRows === 0 && hasFigure(0) && texts(0).some((x) => /\p{L}{3}/u.test(x))) headerRows = 0;
  // no figure anywhere below: a table of text, whose layout header stands
  if (headerRows === t.rows - 1 && !hasFigure(headerRows)) headerRows = Math.max(1, t.headerRows);
  const headerCells = (col: number) => Array.from({ length: headerRows }, (_, row) => cell(row, col)?.text.trim() ?? '').filter(Boolean);
  const headers = Array.from({ length: t.cols }, (_, col) => headerCells(col).join(' '));
  const headerLines = Array.from({ length: t.cols }, (_, col) => headerCells(col).flatMap((h) => [h, ...(/[,;]/.test(h) ? h.split(/[,;]/).map((x) => x.trim()).filter(Boolean) : [])]));
  const rows: GridCell[][] = [];
  for (let row = headerRows; row < t.rows; row++) {
    rows.push(Array.from({ length: t.cols }, (_, col) => { const c = cell(row, col); return { text: c?.text.trim() ?? '', ids: c?.id ? [c.id] : [] }; }));
  }
  return { headers, headerLines, rows, tableId: t.id };
}

/**
 * Summary lines end an item table: "Subtotal", "Rechnungssumme netto", "zzgl. 19 % MwSt.", "Total TTC",
 * "Montant total net", "Taxe sur la valeur ajoutée (19,00 %)". A "net" total, which a field cannot
 * place before or after the tax, is a summary line either way.
 */
export function isSummaryText(text: string): boolean {
  const r = readLabel(text.replace(/[\d.,]+\s*%/g, ' '));
  if (r.mods.has('loose')) r.mods = new Set([...r.mods].filter((m) => m !== 'loose')).add('net');
  const c = conceptOf(r);
  return c === 'total' || c === 'subtotal' || c === 'tax';
}

/**
 * Item tables printed in columns without ruling: a row whose segments are headers of two roles or
 * more (one a description or an amount), the rows under it cut at its columns, until a summary
 * line, a wide gap or the page's end.
 */
export function gridsFromRows(ix: DocIndex): Grid[] {
  const grids: Grid[] = [];
  const pages = [...new Set(ix.units.map((u) => u.page))];
  for (const page of pages) {
    const rows = (pageLines(ix, page) ?? []).filter((r) => r.segments?.length && r.box);
    for (let i = 0; i < rows.length; i++) {
      const segs = rows[i].segments!;
      const roles = segs.map((s) => headerRole(s.text));
      const distinct = new Set(roles.filter(Boolean));
      if (segs.length < 3 || distinct.size < 2 || !(distinct.has('description') || distinct.has('amount'))) continue;
      const columns = segs.map((s) => s.box);
      const body: GridCell[][] = [];
      const boxes: Box[] = [];
      const lineH = rows[i].box!.y1 - rows[i].box!.y0;
      let lastY = rows[i].box!.y1;
      for (let j = i + 1; j < rows.length; j++) {
        const r = rows[j];
        if (r.box!.y0 - lastY > 4 * lineH) break;
        if (isSummaryText(r.segments![0].text) || (r.segments!.length === 1 && isSummaryText(r.text))) break;
        const cells: GridCell[] = columns.map(() => ({ text: '', ids: [] }));
        for (const s of r.segments!) {
          const col = columnOf(s, columns);
          if (col < 0) continue;
          cells[col] = { text: cells[col].text ? `${cells[col].text} ${s.text}` : s.text, ids: [...new Set([...cells[col].ids, ...s.ids])] };
        }
        body.push(cells);
        boxes.push(r.box!);
        lastY = r.box!.y1;
      }
      if (body.length) grids.push({ headers: segs.map((s) => s.text), rows: body, rowBoxes: boxes });
      i += body.length;
    }
  }
  return grids;
}

/**
 * The header column a body segment falls in: among the headers it overlaps (or lies near), the one
 * it is aligned with — text under a header's left edge, figures under its right edge (a wide header
 * such as "Prezzo unitario" reaches over the narrow column beside it).
 */
function columnOf(s: RowSegment, columns: Box[]): number {
  let best = -1, bestD = Infinity;
  columns.forEach((c, k) => {
    const overlap = Math.min(c.x1, s.box.x1) - Math.max(c.x0, s.box.x0);
    const aligned = Math.min(Math.abs(s.box.x0 - c.x0), Math.abs(s.box.x1 - c.x1));
    if (overlap <= 0 && aligned > 0.08) return;
    if (aligned < bestD) { best = k; bestD = aligned; }
  });
  return best;
}

const amountOf = (text: string): number | undefined => {
  const a = findAmounts(text).filter((x) => !x.percent);
  return a.length ? a[a.length - 1].value : undefined;
};

/**
 * The columns whose figures multiply: for most rows with all three, quantity × unit price = amount
 * (to the cent, or half a percent for rounded unit prices). Returns the column indices, quantity
 * first (the column of whole numbers), or undefined when no triple adds up.
 */
export function arithmeticColumns(all: Grid): { quantity: number; price: number; amount: number } | undefined {
  // the item rows: summary lines printed in the table ("Imponibile", "IVA 21%") are not items
  const grid = { ...all, rows: all.rows.filter((r) => !r.some((c) => c.text && isSummaryText(c.text))) };
  const cols = grid.headers.length;
  const numeric: number[] = [];
  for (let c = 0; c < cols; c++) {
    const filled = grid.rows.filter((r) => r[c]?.text);
    if (filled.length && filled.filter((r) => isFigureCell(r[c].text)).length >= 0.6 * filled.length) numeric.push(c);
  }
  // equal arithmetic (1 × 60 = 60 reads either way) is decided by what the headers say
  const roles = Array.from({ length: cols }, (_, c) => headerRoles(grid, c));
  let best: { quantity: number; price: number; amount: number; hits: number; agree: number } | undefined;
  for (const a of numeric) for (const q of numeric) for (const p of numeric) {
    if (q >= p || a === q || a === p) continue;
    let hits = 0, tried = 0;
    for (const r of grid.rows) {
      const [vq, vp, va] = [amountOf(r[q]?.text ?? ''), amountOf(r[p]?.text ?? ''), amountOf(r[a]?.text ?? '')];
      if (vq === undefined || vp === undefined || va === undefined) continue;
      tried++;
      if (Math.abs(vq * vp - va) <= Math.max(0.011, 0.005 * Math.abs(va))) hits++;
    }
    if (!tried || hits < Math.max(1, 0.6 * tried) || !hasNonZero(grid, a)) continue;
    // which factor is the count: the headers where they say ("P.U. HT", "Qté"), else the column of whole numbers
    const named = (c: number) => (roles[c].has('quantity') ? 1 : 0) - (roles[c].has('unit-price') ? 1 : 0);
    const whole = (c: number) => grid.rows.filter((r) => { const v = amountOf(r[c]?.text ?? ''); return v !== undefined && Number.isInteger(v); }).length;
    const [quantity, price] = named(q) !== named(p) ? (named(q) > named(p) ? [q, p] : [p, q]) : whole(q) >= whole(p) ? [q, p] : [p, q];
    const agree = [roles[quantity].has('quantity'), roles[price].has('unit-price'), roles[a].has('amount')].filter(Boolean).length;
    if (!best || hits > best.hits || (hits === best.hits && agree > best.agree)) best = { quantity, price, amount: a, hits, agree };
  }
  return best && { quantity: best.quantity, price: best.price, amount: best.amount };
}

/**
 * A cell that holds a figure: a number with at most a unit or short words ("5 kg", "19 %"), or words
 * that end in the figure they explain ("(Brut: 65,00) (Rabais: 5,00) (Net): 60,00"). Text with a
 * number inside it ("Ballons ~2000ml", "Period 01/01 to 31/01 – support") is a description.
 */
export function isFigureCell(text: string): boolean {
  if (amountOf(text) === undefined) return false;
  return !/\p{L}{4}/u.test(text) || endsInFigure(text);
}

/** Text whose last printed token is a figure (a currency sign may follow). */
export function endsInFigure(text: string): boolean {
  return /\d[\s)]*(?:€|\$|£|[A-Z]{3})?\s*$/u.test(text) && amountOf(text) !== undefined;
}

/** The figure a cell ends in: the result of the workings printed before it. */
export function finalFigure(text: string): number | undefined {
  return endsInFigure(text) ? amountOf(text) : undefined;
}

/** An amount column that is not all zeros (0 × anything = 0 proves nothing). */
function hasNonZero(grid: Grid, a: number): boolean {
  return grid.rows.some((r) => (amountOf(r[a]?.text ?? '') ?? 0) !== 0);
}

/** "1 Superdrachen", "2 Turbo Flyer", …: descriptions that open with the row's position number 1, 2, 3… */
export function stripPositions(descriptions: (string | null)[]): (string | null)[] {
  const present = descriptions.filter((d): d is string => Boolean(d));
  if (present.length < 2) return descriptions;
  const numbered = present.every((d, i) => new RegExp(`^0*${i + 1}[.)]?\\s+\\S`).test(d));
  return numbered ? descriptions.map((d) => (d ? d.replace(/^\d+[.)]?\s+/, '') : d)) : descriptions;
}

/** "GG-SCRW-A4-01 - High-Grade Screws": an article code (capitals and digits, both, no spaces) set before the name with a dash. */
const CODE_PREFIX = /^(?=[\p{L}\p{N}._/-]*\d)(?=[\p{N}._/-]*\p{L})[\p{Lu}\p{N}][\p{Lu}\p{N}._/-]{3,}\s+[-–—]\s+(?=\p{L})/u;

/**
 * Descriptions that all open with their article's code ("SKU-1234 - Name"): the item is described by
 * its name, the code is an identifier of its own (a schema asks for it apart, "sku", "article number").
 */
export function stripCodes(descriptions: (string | null)[]): (string | null)[] {
  const present = descriptions.filter((d): d is string => Boolean(d));
  if (!present.length || !present.every((d) => CODE_PREFIX.test(d))) return descriptions;
  return descriptions.map((d) => (d ? d.replace(CODE_PREFIX, '') : d));
}

/** A body row with where it is printed (undefined: not known, or one line of a ruled row split up). */
export interface PlacedRow { cells: GridCell[]; box?: Box }

/** A line that runs on into the next: it ends in a comma, a hyphen, a conjunction, or the next begins in lower case. */
function runsOn(upper: string, lower: string): boolean {
  return /[,;&(/+\-–]\s*$|\b(and|und|en|et|e|y|i|och|og|oder|or|ou|o|with|mit|met|avec|con|com|z|w|of|de|der|die|das|van|la|le|del|della|da|do|du|des)\s*$/iu.test(upper)
    || /^\p{Ll}/u.test(lower.trim());
}

/**
 * The lines of wrapped descriptions joined to their item. A row that holds only description text
 * continues an item: the one above it when the figures stand beside an item's first line, the one
 * below when they stand beside its last. Between two items, the break is where the line spacing
 * is widest (items are set apart more than the lines of one item) or, where the spacing is even,
 * where no line runs on into the next ("… two technicians," / "vehicle and tools,"); where neither
 * tells, the table's own habit decides: text before the first figures means figures on the last line.
 */
export function joinWrappedLines(rows: PlacedRow[], descCol: number): PlacedRow[] {
  const isCont = (r: PlacedRow) => Boolean(r.cells[descCol]?.text) && r.cells.every((c, k) => k === descCol || !c.text);
  const isItem = (r: PlacedRow) => Boolean(r.cells[descCol]?.text) && !isCont(r);
  const firstText = rows.findIndex((r) => r.cells.some((c) => c.text));
  const down = firstText >= 0 && isCont(rows[firstText]) && rows.some(isItem);
  const gaps: number[] = [];
  for (let i = 1; i < rows.length; i++) { const a = rows[i - 1].box, b = rows[i].box; if (a && b) gaps.push(Math.max(0, b.y0 - a.y1)); }
  const typical = gaps.length ? [...gaps].sort((a, b) => a - b)[gaps.length >> 1] : 0;
  const gapAt = (a: PlacedRow, b: PlacedRow) => (a.box && b.box ? Math.max(0, b.box.y0 - a.box.y1) : undefined);
  /** Which item row (index) each continuation line joins. */
  const joins = new Map<number, number>();
  for (let i = 0; i < rows.length; i++) {
    if (!isCont(rows[i])) continue;
    let end = i;
    while (end + 1 < rows.length && isCont(rows[end + 1])) end++;
    // rows without a description between (a discount line under its item) are passed over
    let above = i - 1, below = end + 1;
    while (above >= 0 && !rows[above].cells[descCol]?.text) above--;
    while (below < rows.length && !rows[below].cells[descCol]?.text) below++;
    if (above >= 0 && !isItem(rows[above])) above = -1;
    if (below >= rows.length || !isItem(rows[below])) below = -1;
    // the break: after `split` lines of the run (0: all join the item below; run length: all join the one above)
    let split: number;
    if (above < 0 && below < 0) split = -1;
    else if (above < 0) split = 0;
    else if (below < 0) split = end - i + 1;
    else {
      const seq = [rows[above], ...rows.slice(i, end + 1), rows[below]];
      const score = (j: number) => {
        const g = gapAt(seq[j], seq[j + 1]);
        const wide = g !== undefined && typical > 0 ? g / typical : 1;
        return wide - (runsOn(seq[j].cells[descCol].text, seq[j + 1].cells[descCol].text) ? 1 : 0);
      };
      const scores = seq.slice(0, -1).map((_, j) => score(j));
      const best = Math.max(...scores);
      const tied = scores.map((v, j) => (best - v < 0.2 ? j : -1)).filter((j) => j >= 0);
      // several equally good breaks: the table's habit (figures on the first line: the last break; on the last line: the first)
      split = tied.length === 1 ? tied[0] : down ? tied[0] : tied[tied.length - 1];
    }
    for (let k = i; k <= end; k++) if (split >= 0) joins.set(k, k - i < split ? above : below);
    i = end;
  }
  const out: PlacedRow[] = [];
  rows.forEach((r, i) => {
    if (joins.has(i)) return;
    const own: PlacedRow = { cells: r.cells.map((c) => ({ ...c })), box: r.box };
    if (isItem(r)) {
      const lines = [...joins.entries()].filter(([, to]) => to === i).map(([from]) => from);
      const desc = [...lines, i].sort((a, b) => a - b);
      own.cells[descCol] = { text: desc.map((k) => rows[k].cells[descCol].text).join(' '), ids: [...new Set(desc.flatMap((k) => rows[k].cells[descCol].ids))] };
    }
    out.push(own);
  });
  return out;
}
