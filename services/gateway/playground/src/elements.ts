/**
 * What the playground draws: every element of a result with a position, flattened from the spec's
 * shapes (bounding_boxes categories, table cells, words, selection marks, form cells) into one list of
 * normalized boxes (0..1, top-left origin, the page as displayed). Pure: no DOM, tested under node.
 */

export type Category = 'text' | 'title' | 'table' | 'cell' | 'figure' | 'word' | 'selection mark' | 'form cell';
export const CATEGORIES: readonly Category[] = ['text', 'title', 'table', 'cell', 'figure', 'word', 'selection mark', 'form cell'];

export interface Box { x0: number; y0: number; x1: number; y1: number }

export interface OverlayElement {
  /** Unique within one result (words and selection marks have no id of their own). */
  key: string;
  /** The element's id in the result (txt-3, tbl-1-r2c0, fig-1), null for words, marks and form cells. */
  id: string | null;
  category: Category;
  page: number;
  box: Box;
  content: string;
  confidence?: number;
  /** The element as the API returned it. */
  json: unknown;
}

/** An element the result lists without a place on a page (HTML and office text, spreadsheet charts), and why. */
export type UnplacedElement = Omit<OverlayElement, 'box'> & { reason: string };

export interface Overlay { drawn: OverlayElement[]; unplaced: UnplacedElement[] }

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * A box around a polygon in any of the spec's spellings: [x0,y0,x1,y1,…] (8 numbers, a TextBox or a
 * cell), [{x,y},…] (a word), or [left,top,right,bottom] (a FormCell). Undefined when there is none.
 */
export function boxOf(polygon: unknown): Box | undefined {
  if (!Array.isArray(polygon) || polygon.length === 0) return undefined;
  const xs: number[] = [], ys: number[] = [];
  if (polygon.every(isObject)) {
    for (const p of polygon) { const x = num(p.x), y = num(p.y); if (x === undefined || y === undefined) return undefined; xs.push(x); ys.push(y); }
  } else if (polygon.every((n) => num(n) !== undefined) && polygon.length % 2 === 0) {
    for (let i = 0; i < polygon.length; i += 2) { xs.push(polygon[i] as number); ys.push(polygon[i + 1] as number); }
  } else {
    return undefined;
  }
  const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  return box.x1 >= box.x0 && box.y1 >= box.y0 ? box : undefined;
}

/** The text categories of bounding_boxes; Title is drawn apart, the rest (headers, lists, captions…) as text. */
const TEXT_KEYS = ['Title', 'Header', 'Text', 'List Items', 'Footer', 'caption', 'Page Number', 'Formulas'];

/** Every element of an extraction result (POST /extract) that the page view can draw, in result order. */
export function extractionOverlay(result: unknown): Overlay {
  const out: Overlay = { drawn: [], unplaced: [] };
  const bb = isObject(result) && isObject(result.bounding_boxes) ? result.bounding_boxes : {};
  const place = (el: Omit<OverlayElement, 'box'>, polygon: unknown) => {
    const box = boxOf(polygon);
    if (box && el.page >= 1) out.drawn.push({ ...el, box });
    else out.unplaced.push({ ...el, reason: 'the result gives it no position on a page' });
  };
  for (const key of TEXT_KEYS) {
    for (const t of list(bb[key])) {
      const id = str(t.id);
      place({ key: `${key}:${id}`, id, category: key === 'Title' ? 'title' : 'text', page: num(t.page_number) ?? 0, content: str(t.content), confidence: num(t.average_word_confidence), json: t }, t.bounding_box);
    }
  }
  for (const table of list(bb.Tables)) {
    const info = isObject(table.table_info) ? table.table_info : {};
    const loc = isObject(info.location) ? info.location : {};
    const id = str(info.id);
    place({ key: `table:${id}`, id, category: 'table', page: num(loc.page) ?? 0, content: `${tableSize(info)} table`, confidence: num(info.confidence), json: { table_info: info } }, loc.coordinates);
    for (const cell of list(table.cell_data)) {
      const cellLoc = isObject(cell.location) ? cell.location : {};
      const cellId = str(cell.id);
      place({ key: `cell:${cellId}`, id: cellId, category: 'cell', page: num(cellLoc.page) ?? 0, content: str(cell.text), confidence: num(cell.confidence), json: cell }, cellLoc.coordinates);
    }
  }
  for (const fig of list(bb.Images)) {
    const id = str(fig.id);
    place({ key: `figure:${id}`, id, category: 'figure', page: num(fig.page_number) ?? 0, content: str(fig.content ?? fig.visual_type ?? 'figure'), json: fig }, fig.bounding_box);
  }
  list(bb.Words).forEach((w, i) => {
    place({ key: `word:${i}`, id: null, category: 'word', page: num(w.page_number) ?? 0, content: str(w.content), confidence: num(w.confidence), json: w }, w.bounding_box);
  });
  list(bb.SelectionMarks).forEach((m, i) => {
    place({ key: `mark:${i}`, id: null, category: 'selection mark', page: num(m.page_number) ?? 0, content: str(m.state), confidence: num(m.confidence), json: m }, m.polygon);
  });
  return out;
}

/** The cells of a form detect/fill/clear result (FormCell: bounding_box is [left, top, right, bottom]). */
export function formOverlay(result: unknown): Overlay {
  const out: Overlay = { drawn: [], unplaced: [] };
  const cells = isObject(result) ? list(result.form_fields) : [];
  cells.forEach((c, i) => {
    const b = Array.isArray(c.bounding_box) && c.bounding_box.length === 4 ? c.bounding_box.map(num) : [];
    const box = b.every((n) => n !== undefined) && b.length === 4 ? { x0: b[0]!, y0: b[1]!, x1: b[2]!, y1: b[3]! } : undefined;
    const label = `${str(c.type)}${c.text ? `: ${str(c.text)}` : ''}`;
    if (box) out.drawn.push({ key: `form:${i}`, id: null, category: 'form cell', page: num(c.page_number) ?? 0, box, content: label, json: c });
    else out.unplaced.push({ key: `form:${i}`, id: null, category: 'form cell', page: num(c.page_number) ?? 0, content: label, json: c, reason: 'no bounding_box' });
  });
  return out;
}

/**
 * Where element `id` sits in markdown_with_ids: the span of its tag (data-bb-…-id="id") through the
 * matching close tag, or undefined when the markdown does not mention it (words and marks never are).
 */
export function markdownSpan(markdownWithIds: string, id: string): { start: number; end: number } | undefined {
  const attr = new RegExp(`data-bb-[a-z]+-id="${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).exec(markdownWithIds);
  if (!attr) return undefined;
  const start = markdownWithIds.lastIndexOf('<', attr.index);
  const tag = /^<([a-zA-Z0-9]+)/.exec(markdownWithIds.slice(start))?.[1];
  if (start < 0 || !tag) return undefined;
  const close = `</${tag}>`;
  // nested tags of the same name (a table inside a table) are counted so the span closes its own
  let depth = 0, i = start;
  const open = new RegExp(`<${tag}[\\s>]|</${tag}>`, 'g');
  open.lastIndex = start;
  for (let m = open.exec(markdownWithIds); m; m = open.exec(markdownWithIds)) {
    depth += m[0] === close ? -1 : 1;
    i = m.index + m[0].length;
    if (depth === 0) return { start, end: i };
  }
  return { start, end: markdownWithIds.indexOf('>', attr.index) + 1 };
}

/**
 * The element ids cited by a /schema result's `citations` (which mirrors `values`), per leaf path
 * ("invoice.lines[0].amount" → ["tbl-1-r2c3"]). Composite-mode citations (<extraction_id>-<id>) keep
 * their prefix; the caller matches on the suffix.
 */
export function citationLeaves(citations: unknown, path = ''): { path: string; ids: string[] }[] {
  if (citations === null) return [{ path, ids: [] }]; // a value the document did not give (null in values too)
  if (Array.isArray(citations) && citations.every((c) => typeof c === 'string')) return [{ path, ids: citations as string[] }];
  if (Array.isArray(citations)) return citations.flatMap((c, i) => citationLeaves(c, `${path}[${i}]`));
  if (isObject(citations)) return Object.entries(citations).flatMap(([k, v]) => citationLeaves(v, path ? `${path}.${k}` : k));
  return typeof citations === 'string' ? [{ path, ids: [citations] }] : [];
}

/** The value at a leaf path of citationLeaves, from the matching `values`. */
export function valueAt(values: unknown, path: string): unknown {
  let v: unknown = values;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (Array.isArray(v)) v = v[Number(part)];
    else if (isObject(v)) v = v[part];
    else return undefined;
  }
  return v;
}

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const tableSize = (info: Json) => {
  const d = isObject(info.dimensions) ? info.dimensions : {};
  return `${num(d.rows) ?? '?'}×${num(d.columns) ?? '?'}`;
};

/**
 * The elements under a point (normalized page coordinates), in the order a click takes them: the
 * smallest first, words after every other kind (a word sits inside its line, so it would otherwise
 * always win). Clicking the same spot again moves one step down this list (a cell, then its table…).
 */
export function elementsAt(elements: readonly OverlayElement[], x: number, y: number): OverlayElement[] {
  const area = (b: Box) => (b.x1 - b.x0) * (b.y1 - b.y0);
  return elements
    .filter((e) => x >= e.box.x0 && x <= e.box.x1 && y >= e.box.y0 && y <= e.box.y1)
    .sort((a, b) => Number(a.category === 'word') - Number(b.category === 'word') || area(a.box) - area(b.box));
}
