import { assignIds, isQuireError, QuireError, resolveLimits, type Document, type DocumentParser, type Page } from '@quire/core';
import { openSafeZip } from '@quire/format-ooxml';
import { readSharedStrings } from './shared-strings.js';
import { readChartsheetPage, readWorksheetPage, type PageInput } from './sheet-page.js';
import { readStyles } from './styles.js';
import { readWorkbook } from './workbook.js';

const fatal = (e: unknown) => isQuireError(e) && (e.code === 'REQ_003' || /^zip_/.test(String((e.details as { reason?: string } | undefined)?.reason ?? '')));

/**
 * XLSX → Document. Each VISIBLE sheet (worksheet or chartsheet) is a page; hidden and veryHidden
 * sheets are left out. Page numbers and `options.pages` count visible sheets (1-based), and every
 * page and element carries its spreadsheet anchor: sheetName, sheetIndex (among visible sheets),
 * workbookSheetIndex (in the workbook, hidden ones counted) and, on elements, the excelRange.
 * Sheets are streamed (never one object graph) and refused past limits.maxCellsPerSheet.
 */
export const parse: DocumentParser = async (bytes, options = {}) => {
  const limits = resolveLimits(options);
  const zip = await openSafeZip(bytes, limits);
  const wb = await readWorkbook(zip, limits.maxXmlDepth);
  const visible = wb.sheets.filter((s) => s.state === 'visible' && s.kind !== 'other' && s.part);
  const wanted = options.pages ? new Set(options.pages) : undefined;
  const todo = visible.map((s, i) => ({ s, i })).filter(({ i }) => !wanted || wanted.has(i + 1));
  if (todo.length > limits.maxPages) throw new QuireError('REQ_003', `Workbook has ${todo.length} sheets to process (limit ${limits.maxPages})`, { limit: limits.maxPages });
  const warnings: string[] = [];
  const hidden = wb.sheets.length - visible.length;
  if (hidden > 0) warnings.push(`${hidden} hidden or non-data sheet(s) left out`);
  const needsCells = todo.some(({ s }) => s.kind === 'worksheet');
  const styles = readStyles(needsCells && wb.stylesPart ? await zip.text(wb.stylesPart) : undefined, limits.maxXmlDepth);
  const sst = needsCells ? await readSharedStrings(zip, wb.sharedStringsPart, limits) : [];
  const pages: Page[] = [];
  for (const { s, i } of todo) {
    const input: PageInput = {
      zip, part: s.part!, number: i + 1, limits, warnings,
      anchor: { sheetName: s.name, sheetIndex: i, workbookSheetIndex: s.workbookIndex },
    };
    try {
      pages.push(s.kind === 'chartsheet' ? await readChartsheetPage(input) : await readWorksheetPage(input, { sst, styles, date1904: wb.date1904, throwIfStopped: options.throwIfStopped }));
    } catch (e) {
      options.throwIfStopped?.(); // the job was told to stop (what ended the sheet): no page error, the stop
      if (fatal(e)) throw e;
      const message = `Sheet "${s.name}" could not be read: ${(e as Error).message}`;
      warnings.push(message);
      pages.push({ number: i + 1, width: 0, height: 0, elements: [], words: [], selectionMarks: [], spreadsheet: input.anchor, error: { code: 'PROC_005', message } });
    }
    await options.onPage?.(pages.length, todo.length);
  }
  const doc: Document = { format: 'xlsx', pageCount: visible.length, pages, warnings };
  return assignIds(doc);
};
