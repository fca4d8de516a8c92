import { QuireError, type ParseLimits, type StopCheck } from '@quire/core';
import { formatNumber, formatText, isoToSerial, type SafeZip } from '@quire/format-ooxml';
import { parseCell, parseRange, type CellRect } from './a1.js';
import { BOLD, CellStore, NUMERIC } from './cell-store.js';
import { saxEntry } from './sax.js';
import type { Styles } from './styles.js';

export interface SheetData {
  cells: CellStore;
  merges: CellRect[];
  /** Relationship ids of the sheet's drawing and table parts. */
  drawingRelId?: string;
  tableRelIds: string[];
}

export interface SheetContext {
  sst: string[]; styles: Styles; date1904: boolean; limits: ParseLimits; sheetName: string;
  /** Checked at each row: a sheet of a million cells is read for seconds (ParseOptions.throwIfStopped). */
  throwIfStopped?: StopCheck;
}

/**
 * Streams a worksheet's XML and keeps each non-empty cell's DISPLAYED text: shared and inline
 * strings, booleans, errors, and numbers (formula results included, from their cached <v>) run
 * through the cell's number format. Past limits.maxCellsPerSheet the sheet is refused.
 */
export async function readSheet(zip: SafeZip, part: string, ctx: SheetContext): Promise<SheetData> {
  const out: SheetData = { cells: new CellStore(), merges: [], tableRelIds: [] };
  let row = -1, col = -1;
  let type = 'n', style = 0;
  let capture: 'v' | 'is' | null = null;
  let inIs = false, inPh = 0;
  let value = '', inline = '';
  const max = ctx.limits.maxCellsPerSheet;
  const found = await saxEntry(zip, part, ctx.limits, {
    open(local, a) {
      switch (local) {
        case 'row': {
          ctx.throwIfStopped?.();
          const r = Number(a.r);
          row = Number.isInteger(r) && r > 0 ? r - 1 : row + 1;
          col = -1;
          break;
        }
        case 'c': {
          const ref = a.r ? parseCell(a.r) : undefined;
          if (ref) { row = ref.r; col = ref.c; } else col++;
          type = a.t ?? 'n';
          style = a.s ? Number(a.s) || 0 : 0;
          value = ''; inline = '';
          break;
        }
        case 'v': capture = 'v'; break;
        case 'is': inIs = true; break;
        case 'rPh': inPh++; break;
        case 't': if (inIs && inPh === 0) capture = 'is'; break;
        case 'mergeCell': { const m = a.ref ? parseRange(a.ref) : undefined; if (m) out.merges.push(m); break; }
        case 'drawing': out.drawingRelId = relId(a); break;
        case 'tablePart': { const id = relId(a); if (id) out.tableRelIds.push(id); break; }
        default: break;
      }
    },
    close(local) {
      if (local === 'v' || local === 't') capture = null;
      else if (local === 'is') inIs = false;
      else if (local === 'rPh') inPh--;
      else if (local === 'c') {
        const text = display(type, value, inline, style, ctx);
        if (text === '') return;
        if (out.cells.count >= max) {
          throw new QuireError('REQ_003', `Sheet "${ctx.sheetName}" has more than ${max} non-empty cells (limit maxCellsPerSheet)`, { sheet: ctx.sheetName, limit: max });
        }
        const numeric = (type === 'n' || type === 'd') && value.trim() !== '' ? NUMERIC : 0;
        out.cells.push(row, col, text, numeric | (ctx.styles.bold(style) ? BOLD : 0));
      }
    },
    text(t) {
      if (capture === 'v') value += t;
      else if (capture === 'is') inline += t;
    },
  });
  if (!found) throw new QuireError('FILE_003', `File corrupted: missing worksheet part ${part}`, { part });
  return out;
}

const relId = (a: Record<string, string>) => a['r:id'] ?? Object.entries(a).find(([k]) => k.endsWith(':id'))?.[1];

function display(type: string, v: string, inline: string, style: number, ctx: SheetContext): string {
  switch (type) {
    case 's': {
      const s = ctx.sst[Number(v)] ?? '';
      const code = ctx.styles.code(style);
      return code.includes('@') ? formatText(s, code) : s;
    }
    case 'inlineStr': return inline;
    case 'str': return v;
    case 'b': return v.trim() === '1' || v.trim() === 'true' ? 'TRUE' : 'FALSE';
    case 'e': return v;
    case 'd': {
      const serial = isoToSerial(v, { date1904: ctx.date1904 });
      return serial === undefined || !ctx.styles.isDate(style) ? v : formatNumber(serial, ctx.styles.code(style), { date1904: ctx.date1904 });
    }
    default: {
      if (v === '') return inline;
      const n = Number(v);
      if (!Number.isFinite(n)) return v;
      return formatNumber(n, ctx.styles.code(style), { date1904: ctx.date1904 });
    }
  }
}
