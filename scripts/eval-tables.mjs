// Table accuracy on the pdf-tables corpus (see docs/accuracy.md, section "Tables").
// - camelot/tabula expected CSVs (and a docling markdown table): cell-content precision/recall/F1 of the
//   best-matching extracted table (or all tables on the page together, when the CSV holds several);
//   a tabula "area" named in SOURCES.md restricts the extracted cells to that area.
// - ICDAR 2013 -str.xml: adjacency-relation precision/recall/F1 over the whole document.
// - ICDAR 2013 -reg.xml: region detection precision/recall/F1 (IoU >= 0.5 on the same page).
// - TEDS (scripts/lib/teds.mjs), with and without cell text, of every truth table (an ICDAR region with its
//   spans, a CSV or markdown grid) against the best-scoring extracted table on its page; a truth table
//   nothing matches scores 0. CSV and markdown truths record no spans, so the extracted table is compared
//   as its slot grid (a spanning cell's text in its top-left slot, the other slots empty), cropped to the
//   tabula area where one is named. Mean over truth tables per part.
// - Diagnostics of the ICDAR truths, summed per part: adjacency by direction (horizontal, vertical), and per
//   truth region against the extracted table sharing most cell texts: row and column count errors, truth
//   cells found whole, merged with neighbours across rows or columns (with the gaps between them and the
//   table's source), split, or lost, spans kept, multi-line cells, rows with an empty first column.
// The validation part of the corpus (scripts/lib/corpus.mjs) is reported in aggregate only: per-file lines
// and --json results cover the dev part.
// Usage: node scripts/build.mjs && node scripts/eval-tables.mjs [dir] [--json] [--part dev|validation|all] [--summary FILE]
//        (EVAL_ONLY=substring restricts the files)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractDocument } from '../packages/extract/dist/index.js';
import { buildTables, slotsOf } from '../packages/tables/dist/index.js';
import { partOf } from './lib/corpus.mjs';
import { folderEvalArgs, meanFigure, ratioFigure, writeSummary } from './lib/eval-summary.mjs';
import { tableFromSlots, tableFromTexts, teds } from './lib/teds.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { parts, summaryOut, dir, asJson, only } = folderEvalArgs(process.argv.slice(2), path.join(root, '../shared/corpus/pdf-tables'));

const norm = (s) => s.replace(/\s+/g, ' ').trim();
/**
 * ICDAR-style comparison key: no whitespace, unified dashes and quotes, lower case, and a run of leader
 * dots counted as one leader: how many dots fill a row label's line is layout, not content (the camelot
 * truths count the dots drawn; a PDF's ActualText, which Quire honours, may give another count).
 */
const key = (s) => s.normalize('NFKC').replace(/\.(?:\s*\.)+/g, '..').replace(/[‐‑‒–—―−]/g, '-').replace(/[‘’‚]/g, "'").replace(/[“”„]/g, '"').replace(/\s+/g, '').toLowerCase();

function parseCsv(text) {
  const rows = []; let row = [], cell = '', q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') q = false; else cell += ch;
    } else if (ch === '"') q = true;
    else if (ch === ',') { row.push(cell); cell = ''; }
    else if (ch === '\n' || ch === '\r') { if (ch === '\r' && text[i + 1] === '\n') i++; row.push(cell); rows.push(row); row = []; cell = ''; }
    else cell += ch;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

function parseMarkdownTable(text) {
  return text.split('\n').filter((l) => /^\s*\|/.test(l) && !/^\s*\|[\s:|-]+\|\s*$/.test(l))
    .map((l) => l.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim()));
}

function f1(tp, np, ne) {
  const p = np ? tp / np : ne ? 0 : 1, r = ne ? tp / ne : 1;
  return { precision: p, recall: r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}

/** Multiset overlap of non-empty cell texts. */
function cellScore(expected, predicted) {
  const count = new Map();
  let ne = 0, np = 0, tp = 0;
  for (const t of expected.map(key).filter(Boolean)) { count.set(t, (count.get(t) ?? 0) + 1); ne++; }
  for (const t of predicted.map(key).filter(Boolean)) {
    np++;
    const n = count.get(t) ?? 0;
    if (n > 0) { tp++; count.set(t, n - 1); }
  }
  return { ...f1(tp, np, ne), tp, np, ne };
}

/** Sources notes: page and tabula area (top,left,bottom,right in points) per document. */
function sourceNotes() {
  const notes = new Map();
  const file = path.join(dir, 'SOURCES.md');
  if (!fs.existsSync(file)) return notes;
  let name;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const h = /^## (.+)$/.exec(line);
    if (h) { name = h[1].trim(); notes.set(name, {}); continue; }
    if (!name || !/ground truth:/.test(line)) continue;
    const page = /\bpage (\d+)/.exec(line), area = /area ([\d.]+),([\d.]+),([\d.]+),([\d.]+)/.exec(line);
    if (page) notes.get(name).page = Number(page[1]);
    if (area) notes.get(name).area = area.slice(1, 5).map(Number);
  }
  return notes;
}

function cellTexts(table, area, page) {
  return table.cells.filter((c) => {
    if (!area || !c.box) return true;
    const cx = ((c.box.x0 + c.box.x1) / 2) * page.width, cy = ((c.box.y0 + c.box.y1) / 2) * page.height;
    return cy >= area[0] && cx >= area[1] && cy <= area[2] && cx <= area[3];
  }).map((c) => c.text);
}

/** ICDAR 2013 adjacency relations of a grid: each non-empty cell with its next non-empty neighbour to the right and below. */
function relations(grid /* (id|null)[][] */, text /* id → string */) {
  const out = [];
  const rows = grid.length, cols = rows ? grid[0].length : 0;
  const seen = new Set();
  const add = (a, b, d) => { const k = `${a}|${b}|${d}`; if (seen.has(k)) return; seen.add(k); out.push(`${key(text.get(a))}|${key(text.get(b))}|${d}`); };
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const a = grid[r][c];
    if (a == null || !key(text.get(a))) continue;
    for (let k = c + 1; k < cols; k++) { const b = grid[r][k]; if (b === a) continue; if (b != null && key(text.get(b))) { add(a, b, 'h'); break; } }
    for (let k = r + 1; k < rows; k++) { const b = grid[k][c]; if (b === a) continue; if (b != null && key(text.get(b))) { add(a, b, 'v'); break; } }
  }
  return out;
}

/** Adjacency relations of an ICDAR -str.xml, and each region's table (with spans) and page for TEDS. */
function icdarStr(xml) {
  const rels = [], regions = [];
  for (const t of xml.split(/<table\b/).slice(1)) {
    for (const region of t.split(/<region\b/).slice(1)) {
      const page = Number(/^[^>]*\bpage=['"](\d+)['"]/.exec(region)?.[1] ?? 1);
      const cells = [...region.matchAll(/<cell\b([^>]*)>([\s\S]*?)<\/cell>/g)].map((m, i) => {
        const a = (n) => { const x = new RegExp(`${n}=['"](-?\\d+)['"]`).exec(m[1]); return x ? Number(x[1]) : undefined; };
        const content = /<content>([\s\S]*?)<\/content>/.exec(m[2])?.[1] ?? '';
        const sr = a('start-row'), sc = a('start-col');
        const bb = /<bounding-box\s+x1=['"]([\d.-]+)['"]\s+x2=['"]([\d.-]+)['"]\s+y1=['"]([\d.-]+)['"]\s+y2=['"]([\d.-]+)['"]/.exec(m[2]);
        const box = bb ? { x0: Number(bb[1]), x1: Number(bb[2]), y0: Number(bb[3]), y1: Number(bb[4]) } : null;
        return { i, sr, sc, er: a('end-row') ?? sr, ec: a('end-col') ?? sc, text: decode(content), lines: content.trim().split('\n').length, box };
      // a cell annotated outside the grid (start-row='-1' in icdar2013-us-019) has no neighbours to score
      }).filter((c) => c.sr >= 0 && c.sc >= 0 && c.er >= c.sr && c.ec >= c.sc);
      if (!cells.length) continue;
      const rows = Math.max(...cells.map((c) => c.er)) + 1, cols = Math.max(...cells.map((c) => c.ec)) + 1;
      const grid = Array.from({ length: rows }, () => Array(cols).fill(null));
      for (const c of cells) for (let r = c.sr; r <= c.er; r++) for (let k = c.sc; k <= c.ec; k++) grid[r][k] = c.i;
      const text = new Map(cells.map((c) => [c.i, c.text]));
      rels.push(...relations(grid, text));
      regions.push({ page, table: tableFromSlots(grid, (id) => text.get(id)), rows, cols, cells });
    }
  }
  return { rels, regions };
}
const decode = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

function icdarReg(xml) {
  return [...xml.matchAll(/<region\b[^>]*page=['"](\d+)['"][^>]*>[\s\S]*?<bounding-box\s+x1=['"]([\d.]+)['"]\s+y1=['"]([\d.]+)['"]\s+x2=['"]([\d.]+)['"]\s+y2=['"]([\d.]+)['"]/g)]
    .map((m) => ({ page: Number(m[1]), x0: Number(m[2]), y0: Number(m[3]), x1: Number(m[4]), y1: Number(m[5]) }));
}

function tableRelations(table) {
  const slots = slotsOf(table);
  const ids = new Map(table.cells.map((c, i) => [c, i]));
  return relations(slots.map((row) => row.map((c) => (c ? ids.get(c) : null))), new Map(table.cells.map((c, i) => [i, c.text])));
}

/** An extracted table as HTML rows with its spans (for ICDAR truths). */
const htmlRowsOf = (table) => {
  const ids = new Map(table.cells.map((c, i) => [c, i]));
  return tableFromSlots(slotsOf(table).map((row) => row.map((c) => (c ? ids.get(c) : null))), (id) => table.cells[id].text);
};

/** An extracted table as a plain grid of slot texts (for CSV/markdown truths), optionally cropped to a tabula area. */
function flatRowsOf(table, area, page) {
  const slots = slotsOf(table);
  const inside = (c) => {
    if (!area || !c?.box) return !area;
    const cx = ((c.box.x0 + c.box.x1) / 2) * page.width, cy = ((c.box.y0 + c.box.y1) / 2) * page.height;
    return cy >= area[0] && cx >= area[1] && cy <= area[2] && cx <= area[3];
  };
  const rows = slots.map((_, r) => r).filter((r) => !area || slots[r].some(inside));
  const cols = (slots[0] ?? []).map((_, c) => c).filter((c) => !area || slots.some((row) => inside(row[c])));
  return rows.map((r) => cols.map((c) => {
    const cell = slots[r][c];
    const topLeft = cell && cell.row === r && cell.col === c;
    return { text: topLeft ? cell.text : '' };
  }));
}

/** Best TEDS (with text, and structure only) of a truth table against candidate predicted tables; 0 when none. */
function bestTeds(truth, candidates) {
  let best = { teds: 0, tedsStruct: 0 };
  for (const pred of candidates) {
    const withText = teds(pred, truth);
    if (withText > best.teds) best = { teds: withText, tedsStruct: teds(pred, truth, { withText: false }) };
  }
  return best;
}

/**
 * Aggregate error classes of one ICDAR truth region against the extracted table on its page that shares
 * the most cell texts: row and column count errors, spanning cells kept, and each truth cell found
 * whole, merged into a bigger extracted cell (with neighbours across a row or a column boundary), or
 * split into pieces (across rows or columns). Reported only as sums over a part.
 */
function structureDiagnostics(region, candidates) {
  const d = { regions: 1, unmatched: 0, rowsFewer: 0, rowsMore: 0, colsFewer: 0, colsMore: 0, truthCells: 0, whole: 0, mergedRows: 0, mergedCols: 0, mergedBoth: 0, splitRows: 0, splitCols: 0, splitBoth: 0, lost: 0, rowSpans: 0, rowSpansKept: 0, colSpans: 0, colSpansKept: 0, emptyFirstCol: 0, emptyFirstColKept: 0, predExtraCells: 0, regionsSplitAcrossTables: 0, lostInOtherTable: 0, lostInBigger: 0, lostPartOfPred: 0, lostOverlapPred: 0, lostNoTrace: 0, lostNumeric: 0, regionsMergedCols: 0, multiLine: 0, multiLineWhole: 0, multiLineLost: 0, lostWordsPresent: 0, mergedNumeric: 0, gapLt2: 0, gap2to4: 0, gap4to6: 0, gap6to10: 0, gapGe10: 0, mergedHostCells2: 0, mergedHostCells3plus: 0 };
  const truthCells = region.cells.filter((c) => key(c.text));
  let best = null, bestTp = 0;
  for (const t of candidates) {
    const s = cellScore(truthCells.map((c) => c.text), t.cells.map((c) => c.text));
    if (s.tp > bestTp) { bestTp = s.tp; best = t; }
  }
  if (!best) { d.unmatched = 1; d.truthCells = truthCells.length; d.lost = truthCells.length; return d; }
  if (best.rows < region.rows) d.rowsFewer = 1; else if (best.rows > region.rows) d.rowsMore = 1;
  if (best.cols < region.cols) d.colsFewer = 1; else if (best.cols > region.cols) d.colsMore = 1;
  const pred = best.cells.filter((c) => key(c.text)).map((c) => ({ c, k: key(c.text), used: false }));
  const byKey = new Map();
  for (const p of pred) byKey.set(p.k, [...(byKey.get(p.k) ?? []), p]);
  d.truthCells = truthCells.length;
  const rest = [];
  for (const t of truthCells) {
    const hit = (byKey.get(key(t.text)) ?? []).find((p) => !p.used);
    if (hit) { hit.used = true; d.whole++; t.pred = hit.c; } else rest.push(t);
  }
  // a truth cell inside a bigger extracted cell: merged with which neighbours?
  const mergedInto = new Map();
  const unresolved = [];
  for (const t of rest) {
    const k = key(t.text);
    const host = pred.find((p) => p.k.length > k.length && p.k.includes(k));
    if (host) { mergedInto.set(host, [...(mergedInto.get(host) ?? []), t]); continue; }
    const pieces = pred.filter((p) => !p.used && p.k.length < k.length && k.includes(p.k));
    const covered = pieces.reduce((n, p) => n + p.k.length, 0);
    if (pieces.length > 1 && covered >= 0.8 * k.length) {
      const rs = new Set(pieces.map((p) => p.c.row)), cs = new Set(pieces.map((p) => p.c.col));
      if (rs.size > 1 && cs.size > 1) d.splitBoth++; else if (rs.size > 1) d.splitRows++; else d.splitCols++;
      for (const p of pieces) p.used = true;
    } else unresolved.push(t);
  }
  for (const [host, ts] of mergedInto) {
    host.used = true;
    const all = truthCells.filter((t) => host.k.includes(key(t.text)));
    const rs = new Set(all.map((t) => t.sr)), cs = new Set(all.map((t) => t.sc));
    for (const _ of ts) { if (rs.size > 1 && cs.size > 1) d.mergedBoth++; else if (rs.size > 1) d.mergedRows++; else if (cs.size > 1) d.mergedCols++; else {
      // inside an extracted cell with text no other truth cell holds: what is the extra text?
      d.lost++; d.lostInBigger++;
      const k = key(ts[0].text), at = host.k.indexOf(k), extra = host.k.slice(0, at) + host.k.slice(at + k.length);
      const kind = `extra_${at === 0 ? 'after' : at + k.length === host.k.length ? 'before' : 'around'}_${extra.length <= 1 ? '1' : extra.length <= 3 ? '2to3' : 'more'}_${/^[\p{L}]+$/u.test(extra) ? 'letters' : /^\d+$/.test(extra) ? 'digits' : 'mixed'}`;
      d[kind] = (d[kind] ?? 0) + 1;
    } }
    if (cs.size > 1) {
      const src = `mergedColsIn_${best.extra?.source ?? 'unknown'}`;
      d[src] = (d[src] ?? 0) + ts.length;
      if (all.length === 2) d.mergedHostCells2++; else d.mergedHostCells3plus++;
      for (const t of ts) if (/^[-+(]?[$€£]?[\d.,]+%?\)?\*?$/.test(key(t.text))) d.mergedNumeric++;
      // horizontal gaps between truth cells of one row that share this extracted cell
      const byRow = new Map();
      for (const t of all) if (t.box) byRow.set(t.sr, [...(byRow.get(t.sr) ?? []), t]);
      for (const row of byRow.values()) {
        row.sort((a, b) => a.box.x0 - b.box.x0);
        for (let i = 1; i < row.length; i++) {
          const g = row[i].box.x0 - row[i - 1].box.x1;
          if (g < 2) d.gapLt2++; else if (g < 4) d.gap2to4++; else if (g < 6) d.gap4to6++; else if (g < 10) d.gap6to10++; else d.gapGe10++;
        }
      }
    }
  }
  if (d.mergedCols || d.mergedBoth) d.regionsMergedCols = 1;
  const predWords = new Set(pred.flatMap((p) => p.c.text.split(/\s+/).map(key).filter(Boolean)));
  for (const t of unresolved) if (t.text.split(/\s+/).map(key).filter(Boolean).every((w) => predWords.has(w))) d.lostWordsPresent++;
  for (const t of truthCells) if (t.lines > 1) { d.multiLine++; if (t.pred) d.multiLineWhole++; if (unresolved.includes(t)) d.multiLineLost++; }
  d.lost += unresolved.length;
  const elsewhere = new Set(candidates.filter((t) => t !== best).flatMap((t) => t.cells.map((c) => key(c.text))));
  if (unresolved.some((t) => elsewhere.has(key(t.text)))) {
    d.regionsSplitAcrossTables++;
    // stacked (each part its own truth rows) or side by side (its own truth columns)?
    const other = unresolved.filter((t) => elsewhere.has(key(t.text))), mine = truthCells.filter((t) => t.pred);
    const rowsOf = (ts) => new Set(ts.flatMap((t) => Array.from({ length: t.er - t.sr + 1 }, (_, i) => t.sr + i)));
    const colsOf = (ts) => new Set(ts.flatMap((t) => Array.from({ length: t.ec - t.sc + 1 }, (_, i) => t.sc + i)));
    const shared = (a, b) => [...a].filter((x) => b.has(x)).length;
    d.splitSharedRows = (d.splitSharedRows ?? 0) + shared(rowsOf(other), rowsOf(mine));
    d.splitSharedCols = (d.splitSharedCols ?? 0) + shared(colsOf(other), colsOf(mine));
    d.splitOtherRows = (d.splitOtherRows ?? 0) + rowsOf(other).size;
    d.splitOtherCols = (d.splitOtherCols ?? 0) + colsOf(other).size;
    d.splitMineRows = (d.splitMineRows ?? 0) + rowsOf(mine).size;
    d.splitMineCols = (d.splitMineCols ?? 0) + colsOf(mine).size;
    d.splitOtherBelow = (d.splitOtherBelow ?? 0) + (Math.min(...rowsOf(other)) > Math.max(...rowsOf(mine)) ? 1 : 0);
    d.splitOtherRight = (d.splitOtherRight ?? 0) + (Math.min(...colsOf(other)) > Math.max(...colsOf(mine)) ? 1 : 0);
  }
  for (const t of unresolved) {
    const k = key(t.text);
    if (elsewhere.has(k)) { d.lostInOtherTable++; continue; }
    if (pred.some((p) => p.k.length >= 2 && (k.startsWith(p.k) || k.endsWith(p.k)))) d.lostPartOfPred++;
    else if (pred.some((p) => p.k.length >= 2 && k.length >= 2 && (p.k.startsWith(k.slice(0, 2)) || p.k.endsWith(k.slice(-2))))) d.lostOverlapPred++;
    else d.lostNoTrace++;
    if (/^[-+(]?[$€£]?[\d.,]+%?\)?\*?$/.test(k)) d.lostNumeric++;
  }
  d.predExtraCells = pred.filter((p) => !p.used).length;
  for (const t of truthCells) {
    if (t.er > t.sr) {
      d.rowSpans++;
      if (t.pred && t.pred.rowSpan === t.er - t.sr + 1) d.rowSpansKept++;
      else { const k = `rowSpanLost_${!t.pred ? 'noCell' : t.pred.rowSpan === 1 ? 'oneSlot' : 'other'}_${t.sc === 0 ? 'firstCol' : 'otherCol'}_${t.sr <= 2 ? 'top3rows' : 'body'}`; d[k] = (d[k] ?? 0) + 1; }
    }
    if (t.ec > t.sc) {
      d.colSpans++;
      if (t.pred && t.pred.colSpan === t.ec - t.sc + 1) d.colSpansKept++;
      else {
        // how a lost column span went: no cell, one slot, too few or too many; in the truth's top rows or below
        const how = !t.pred ? 'noCell' : t.pred.colSpan === 1 ? 'oneSlot' : t.pred.colSpan < t.ec - t.sc + 1 ? 'fewer' : 'more';
        const where = t.sr <= 2 ? 'top3rows' : 'body';
        const full = t.ec - t.sc + 1 >= region.cols - 1 ? 'fullWidth' : 'partWidth';
        const k = `colSpanLost_${how}_${where}_${full}`;
        d[k] = (d[k] ?? 0) + 1;
      }
    }
  }
  // rows whose first column is empty in the truth (continuation rows or blank stubs)
  for (let r = 0; r < region.rows; r++) {
    if (region.cells.some((c) => c.sc === 0 && c.sr <= r && c.er >= r && key(c.text))) continue;
    const row = truthCells.filter((c) => c.sr === r);
    if (!row.length) continue;
    d.emptyFirstCol++;
    if (row.every((c) => c.pred && c.pred.row === row[0].pred?.row)) d.emptyFirstColKept++;
  }
  return d;
}

function multisetScore(exp, pred) {
  const count = new Map();
  for (const r of exp) count.set(r, (count.get(r) ?? 0) + 1);
  let tp = 0;
  for (const r of pred) { const n = count.get(r) ?? 0; if (n) { tp++; count.set(r, n - 1); } }
  return { ...f1(tp, pred.length, exp.length), tp, np: pred.length, ne: exp.length };
}

const iou = (a, b) => {
  const ix = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)), iy = Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  const inter = ix * iy, u = (a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter;
  return u > 0 ? inter / u : 0;
};

const notes = sourceNotes();
const pdfs = fs.readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort().filter((f) => !only || f.includes(only)).filter((f) => parts.includes(partOf('pdf-tables', f)));
const results = [];
let totalTables = 0, totalMs = 0;
for (const file of pdfs) {
  try {
    results.push(await evaluateFile(file));
  } catch (err) {
    // a file that breaks the extraction or its truth's parser is counted, not a crash of the whole eval
    results.push({ name: file.replace(/\.pdf$/, ''), part: partOf('pdf-tables', file), error: `${err.code ?? ''} ${err.message}`.trim(), scores: [] });
  }
}

async function evaluateFile(file) {
  const name = file.replace(/\.pdf$/, '');
  const bytes = new Uint8Array(fs.readFileSync(path.join(dir, file)));
  const t0 = performance.now();
  const doc = await extractDocument(bytes, 'pdf');
  const t1 = performance.now();
  const out = buildTables(doc, { merge: false, format: 'json' });
  totalMs += performance.now() - t1;
  totalTables += out.tables.length;
  const tables = out.views.map((v) => v.table);
  const res = { name, part: partOf('pdf-tables', file), tables: tables.length, extract_ms: Math.round(t1 - t0), scores: [] };
  const note = notes.get(name) ?? {};
  const pageNo = note.page ?? 1;
  const page = doc.pages.find((p) => p.number === pageNo);
  const onPage = tables.filter((t) => t.page === pageNo);
  const expected = fs.readdirSync(dir).filter((f) => f.startsWith(`${name}.`) && (f.endsWith('.expected.csv') || f.endsWith('.expected.md'))).sort();
  for (const e of expected) {
    const text = fs.readFileSync(path.join(dir, e), 'utf8');
    const grid = e.endsWith('.md') ? parseMarkdownTable(text) : parseCsv(text);
    const exp = grid.flat().map(norm);
    let best = { f1: 0, precision: 0, recall: 0, how: 'none' };
    for (const t of onPage) { const s = cellScore(exp, cellTexts(t, note.area, page)); if (s.f1 > best.f1) best = { ...s, how: t.id }; }
    if (onPage.length > 1) { const s = cellScore(exp, onPage.flatMap((t) => cellTexts(t, note.area, page))); if (s.f1 > best.f1) best = { ...s, how: 'all tables on page' }; }
    res.scores.push({ kind: 'cells', truth: e, ...best });
    const flat = onPage.map((t) => flatRowsOf(t, note.area, page));
    if (onPage.length > 1) flat.push(flat.flat());
    res.scores.push({ kind: 'teds', truth: e, ...bestTeds(tableFromTexts(grid.map((row) => row.map(norm))), flat) });
  }
  const str = path.join(dir, `${name}.expected-str.xml`);
  if (fs.existsSync(str)) {
    const truth = icdarStr(fs.readFileSync(str, 'utf8'));
    const s = multisetScore(truth.rels, tables.flatMap(tableRelations));
    res.scores.push({ kind: 'adjacency', truth: path.basename(str), ...s });
    const predRels = tables.flatMap(tableRelations);
    for (const d of ['h', 'v']) {
      const dir = (r) => r.endsWith(`|${d}`);
      res.scores.push({ kind: `adjacency-${d}`, truth: path.basename(str), ...multisetScore(truth.rels.filter(dir), predRels.filter(dir)) });
    }
    res.diag = truth.regions.map((region) => structureDiagnostics(region, tables.filter((t) => t.page === region.page)));
    truth.regions.forEach((region, i) => {
      const candidates = tables.filter((t) => t.page === region.page).map(htmlRowsOf);
      res.scores.push({ kind: 'teds', truth: `${path.basename(str)} region ${i + 1}`, ...bestTeds(region.table, candidates) });
    });
  }
  const reg = path.join(dir, `${name}.expected-reg.xml`);
  if (fs.existsSync(reg)) {
    const gt = icdarReg(fs.readFileSync(reg, 'utf8'));
    const pred = tables.filter((t) => t.box).map((t) => {
      const p = doc.pages.find((pg) => pg.number === t.page);
      return { page: t.page, x0: t.box.x0 * p.width, x1: t.box.x1 * p.width, y0: (1 - t.box.y1) * p.height, y1: (1 - t.box.y0) * p.height };
    });
    const used = new Set();
    let tp = 0;
    for (const g of gt) {
      let bi = -1, bv = 0.5;
      pred.forEach((p, i) => { if (!used.has(i) && p.page === g.page && iou(p, g) >= bv) { bi = i; bv = iou(p, g); } });
      if (bi >= 0) { used.add(bi); tp++; }
    }
    res.scores.push({ kind: 'regions', truth: path.basename(reg), ...f1(tp, pred.length, gt.length), tp, np: pred.length, ne: gt.length });
  }
  return res;
}

/** Per part: ICDAR adjacency and region scores micro-averaged over documents, cell F1 of the camelot/tabula/docling truths. */
function aggregate(part) {
  const rs = results.filter((r) => r.part === part);
  const micro = (kind) => {
    const ss = rs.flatMap((r) => r.scores.filter((s) => s.kind === kind));
    const [tp, np, ne] = ss.reduce((a, s) => [a[0] + s.tp, a[1] + s.np, a[2] + s.ne], [0, 0, 0]);
    return { documents: ss.length, tp, np, ne, ...f1(tp, np, ne) };
  };
  const cells = rs.flatMap((r) => r.scores.filter((s) => s.kind === 'cells'));
  const tedsScores = rs.flatMap((r) => r.scores.filter((s) => s.kind === 'teds'));
  const tedsOf = (pick) => ({ tables: tedsScores.length, mean: meanFigure(tedsScores.map(pick)).value });
  const diag = {};
  for (const d of rs.flatMap((r) => r.diag ?? [])) for (const [k, v] of Object.entries(d)) diag[k] = (diag[k] ?? 0) + v;
  return { diag, adjH: micro('adjacency-h'), adjV: micro('adjacency-v'), tedsTables: tedsScores.length, teds: tedsOf((s) => s.teds).mean, tedsStruct: tedsOf((s) => s.tedsStruct).mean, part, files: rs.length, failed: rs.filter((r) => r.error).length, adjacency: micro('adjacency'), regions: micro('regions'), cellTables: cells.length, cellF1Mean: meanFigure(cells.map((s) => s.f1)).value, cellF1AtLeast95: cells.filter((s) => s.f1 >= 0.95).length };
}
const aggregates = parts.map(aggregate);

if (asJson) console.log(JSON.stringify({ dir, results: results.filter((r) => r.part === 'dev'), aggregates, totalTables, tablesStepMs: totalMs }, null, 2));
else {
  const pct = (x) => (x * 100).toFixed(1).padStart(6);
  console.log(`corpus: ${dir}`);
  console.log('file'.padEnd(36), 'kind'.padEnd(10), 'P'.padStart(6), 'R'.padStart(6), 'F1'.padStart(6), ' truth / matched');
  for (const r of results.filter((x) => x.part === 'dev')) {
    if (r.error) console.log(r.name.padEnd(36), `ERROR ${r.error}`);
    for (const [i, d] of (r.diag ?? []).entries()) {
      const bad = Object.entries(d).filter(([k, v]) => v && !['regions', 'truthCells', 'whole', 'rowSpansKept', 'colSpansKept', 'emptyFirstColKept'].includes(k));
      if (bad.length) console.log(r.name.padEnd(36), 'structure'.padEnd(10), ` region ${i + 1}: ${bad.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    }
    for (const s of r.scores) {
      if (s.kind.startsWith('adjacency-')) continue; // per direction: in the part's aggregate only
      if (s.kind === 'teds') { console.log(r.name.padEnd(36), 'teds'.padEnd(10), pct(s.teds), pct(s.tedsStruct), ''.padStart(6), ` ${s.truth} (with text, structure only)`); continue; }
      console.log(r.name.padEnd(36), s.kind.padEnd(10), pct(s.precision), pct(s.recall), pct(s.f1), ` ${s.truth}${s.how ? ` ← ${s.how}` : ''}${s.tp !== undefined && s.kind !== 'cells' ? ` (${s.tp}/${s.np} pred, ${s.ne} truth)` : ''}`);
    }
  }
  for (const a of aggregates) {
    console.log(`\n${a.part} part: ${a.files} files${a.failed ? `, ${a.failed} failed` : ''}`);
    for (const k of ['adjacency', 'regions']) if (a[k].documents) console.log(`  ICDAR ${k} (micro over ${a[k].documents} documents): P ${pct(a[k].precision)} R ${pct(a[k].recall)} F1 ${pct(a[k].f1)}`);
    if (a.adjH.documents) console.log(`  adjacency horizontal: P ${pct(a.adjH.precision)} R ${pct(a.adjH.recall)} (${a.adjH.tp}/${a.adjH.np} pred, ${a.adjH.ne} truth); vertical: P ${pct(a.adjV.precision)} R ${pct(a.adjV.recall)} (${a.adjV.tp}/${a.adjV.np} pred, ${a.adjV.ne} truth)`);
    if (a.diag.regions) console.log(`  structure diagnostics (sums over ICDAR regions): ${Object.entries(a.diag).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    if (a.tedsTables) console.log(`  TEDS (mean over ${a.tedsTables} truth tables): with text ${pct(a.teds)}, structure only ${pct(a.tedsStruct)}`);
    console.log(`  expected tables with cell F1 >= 0.95: ${a.cellF1AtLeast95}/${a.cellTables}; mean cell F1 ${a.cellF1Mean === null ? '–' : pct(a.cellF1Mean)}`);
  }
  console.log(`\ntables step: ${totalTables} tables in ${totalMs.toFixed(0)} ms (${(totalTables / (totalMs / 1000)).toFixed(0)} tables/s, excluding extraction)`);
}

const figure = (pick) => Object.fromEntries(aggregates.map((a) => [a.part, pick(a)]));
writeSummary(summaryOut, {
  eval: 'tables', parts, seconds: process.uptime(), rows: [
    { kind: 'tables ICDAR 2013', measure: 'adjacency F1 (micro)', unit: 'relations', ...figure((a) => ({ value: a.adjacency.documents ? a.adjacency.f1 : null, n: a.adjacency.ne })) },
    { kind: 'tables ICDAR 2013', measure: 'region F1 (IoU ≥ 0.5)', unit: 'regions', ...figure((a) => ({ value: a.regions.documents ? a.regions.f1 : null, n: a.regions.ne })) },
    { kind: 'tables (all truths)', measure: 'TEDS (mean)', unit: 'tables', ...figure((a) => ({ value: a.teds, n: a.tedsTables })) },
    { kind: 'tables (all truths)', measure: 'TEDS structure only (mean)', unit: 'tables', ...figure((a) => ({ value: a.tedsStruct, n: a.tedsTables })) },
    { kind: 'tables camelot/tabula/docling', measure: 'mean cell F1', unit: 'tables', ...figure((a) => ({ value: a.cellF1Mean, n: a.cellTables })) },
    { kind: 'tables camelot/tabula/docling', measure: 'tables with cell F1 ≥ 0.95', unit: 'tables', ...figure((a) => ratioFigure(a.cellF1AtLeast95, a.cellTables)) },
    ...(aggregates.some((a) => a.failed) ? [{ kind: 'tables', measure: 'files failed', unit: 'files', ...figure((a) => ratioFigure(a.failed, a.files)) }] : []),
  ],
});
