import { assignIds, findElementById, type Document, type Word } from '@quire/core';
import { buildIndex, crossesElements, placeWords, visualRows } from './doc-index.js';
import { extractSchemaBuiltin } from './extract-schema.js';

/**
 * An OCR'd receipt as layout analysis often leaves it: the label column and the amount column are
 * separate blocks, and each block's lines are merged into one paragraph ("Discount Total GST"), so
 * only the page's words still know which label and amount share a printed row.
 */
interface Block { x0: number; lines: [text: string, row: number][] }

const ROW = 0.03, LINE = 0.018, CHAR = 0.011;
const top = (row: number) => 0.1 + row * ROW;

function ocrReceipt(blocks: Block[], opts: { skewPerX?: number } = {}): Document {
  const words: Word[] = [];
  const elements = blocks.map((b) => {
    for (const [text, row] of b.lines) {
      let x = b.x0;
      for (const w of text.split(' ')) {
        const dy = (opts.skewPerX ?? 0) * x;
        words.push({ text: w, box: { x0: x, y0: top(row) + dy, x1: x + w.length * CHAR, y1: top(row) + dy + LINE }, confidence: 0.9 });
        x += (w.length + 1) * CHAR;
      }
    }
    const rows = b.lines.map(([, r]) => r);
    const width = Math.max(...b.lines.map(([t]) => t.length)) * CHAR;
    return {
      kind: 'text' as const, category: 'Text' as const, page: 1, confidence: 0.9,
      text: b.lines.map(([t]) => t).join(' '),
      box: { x0: b.x0, y0: top(Math.min(...rows)), x1: b.x0 + width, y1: top(Math.max(...rows)) + LINE },
    };
  });
  return assignIds({ format: 'jpeg', pageCount: 1, warnings: [], pages: [{ number: 1, width: 300, height: 600, elements, words, selectionMarks: [] }] });
}

const textOf = (doc: Document, id: string) => {
  const hit = findElementById(doc, id);
  return hit?.element.kind === 'text' ? hit.element.text : '';
};

const receiptBlocks: Block[] = [
  { x0: 0.05, lines: [['SUNRISE TRADING', 0]] },
  { x0: 0.05, lines: [['Date 06/03/2018', 1]] },
  { x0: 0.2, lines: [['Total Qty: 3', 3], ['Total Sales (Excluding GST)', 4], ['Discount', 5], ['Total GST', 6], ['Total Sales (Inclusive of GST)', 7]] },
  { x0: 0.78, lines: [['51.42', 4], ['0.00', 5], ['3.08', 6], ['54.50', 7]] },
];

describe('visual rows across layout blocks', () => {
  it('groups the words of one printed row, left to right, each citing the element it lies in', () => {
    const doc = ocrReceipt(receiptBlocks);
    const ix = buildIndex(doc);
    expect(ix.rows.map((r) => r.text.replace(/\s+/g, ' '))).toEqual([
      'SUNRISE TRADING', 'Date 06/03/2018', 'Total Qty: 3', 'Total Sales (Excluding GST) 51.42', 'Discount 0.00', 'Total GST 3.08', 'Total Sales (Inclusive of GST) 54.50',
    ]);
    const crossing = ix.rows.filter(crossesElements);
    expect(crossing).toHaveLength(4);
    const last = crossing[3];
    expect(last.parts!.map((p) => textOf(doc, p.id))).toEqual([expect.stringContaining('Inclusive of GST'), '51.42 0.00 3.08 54.50']);
    // the wide gap between the label and the amount column reads as a column break
    expect(last.text).toMatch(/GST\) {2}54\.50$/);
    // orders continue after the element units
    expect(last.order).toBe(ix.units.length + 6);
  });

  it('keeps rows apart under a slight skew and adds nothing for a page without words', () => {
    const skewed = buildIndex(ocrReceipt(receiptBlocks, { skewPerX: 0.004 }));
    expect(skewed.rows.map((r) => r.text.replace(/\s+/g, ' '))).toContain('Total GST 3.08');
    expect(skewed.rows).toHaveLength(7);
    const noWords = ocrReceipt(receiptBlocks);
    noWords.pages[0].words = [];
    expect(buildIndex(noWords).rows).toEqual([]);
    expect(visualRows(noWords.pages[0], placeWords(noWords.pages[0]))).toEqual([]);
  });

  it('reads the total paid from a label and an amount the layout put in different blocks', () => {
    const doc = ocrReceipt(receiptBlocks);
    const out = extractSchemaBuiltin({
      document: doc, wantConfidence: true,
      schema: { type: 'object', properties: { total: { type: 'number', description: 'Total amount paid' }, tax: { type: 'number', description: 'Total GST' } } },
    });
    const v = out.values as Record<string, unknown>;
    expect(v.total).toBe(54.5);
    expect(v.tax).toBe(3.08);
    // the citation is the amount column's element, which holds the value's text
    const ids = (out.citations as Record<string, string[]>).total;
    expect(ids).toHaveLength(1);
    expect(textOf(doc, ids[0])).toContain('54.50');
  });

  it('without the words the merged paragraph hides the row (what the rows add)', () => {
    const doc = ocrReceipt(receiptBlocks);
    doc.pages[0].words = [];
    const out = extractSchemaBuiltin({ document: doc, schema: { type: 'object', properties: { tax: { type: 'number', description: 'Total GST' } } } });
    expect((out.values as Record<string, unknown>).tax).not.toBe(3.08);
  });

  it('splits a block whose printed lines the layout merged into one paragraph back into its lines', () => {
    // "TOTAL" over "CASH" in one block, their amounts in another: as one label "TOTAL CASH" the block
    // would pair with the cash amount
    const doc = ocrReceipt([{ x0: 0.1, lines: [['TOTAL', 2], ['CASH', 3], ['CHANGE', 4]] }, { x0: 0.6, lines: [['RM 14.10', 2], ['RM 20.00', 3], ['RM 5.90', 4]] }]);
    const ix = buildIndex(doc);
    const labels = ix.units.filter((u) => u.id === 'txt-1');
    expect(labels.map((u) => u.text)).toEqual(['TOTAL', 'CASH', 'CHANGE']);
    expect(labels[1].box!.y0).toBeCloseTo(top(3), 5);
    const out = extractSchemaBuiltin({ document: doc, schema: { type: 'object', properties: { total: { type: 'number' }, cash: { type: 'number' } } } });
    expect(out.values).toEqual({ total: 14.1, cash: 20 });
  });

  it('keeps the element text when its words do not spell it (a reader that rewrote the text)', () => {
    const doc = ocrReceipt([{ x0: 0.1, lines: [['Invoice', 0], ['Number 42', 1]] }]);
    (doc.pages[0].elements[0] as { text: string }).text = 'A different text altogether, much longer than the words';
    expect(buildIndex(doc).units.map((u) => u.text)).toEqual(['A different text altogether, much longer than the words']);
  });
});

describe('totals checked by the summary arithmetic', () => {
  const schema = { type: 'object', properties: { total: { type: 'number', description: 'Total amount paid' } } };
  it('takes the amount the summary lines add up to, even under an unreadable label', () => {
    const doc = ocrReceipt([
      { x0: 0.05, lines: [['2 SUB TOTAL', 2], ['SERVICE CHARGE 10%', 3], ['GST 6%', 4], ['ROUNDING ADJ', 5], ['NL {UTAL oo', 6], ['CASH', 7]] },
      { x0: 0.7, lines: [['295.00', 2], ['29.50', 3], ['19.47', 4], ['-0.02', 5], ['343.95', 6], ['400.00', 7]] },
    ]);
    const out = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true });
    expect((out.values as Record<string, unknown>).total).toBe(343.95);
    expect(textOf(doc, (out.citations as Record<string, string[]>).total[0])).toContain('343.95');
  });

  it('subtracts a discount printed without a sign and does not sum across a second subtotal', () => {
    const doc = ocrReceipt([
      { x0: 0.05, lines: [['Subtotal', 1], ['Discount', 2], ['Tax', 3], ['Amount', 4]] },
      { x0: 0.7, lines: [['100.00', 1], ['10.00', 2], ['4.50', 3], ['94.50', 4]] },
    ]);
    expect((extractSchemaBuiltin({ document: doc, schema }).values as Record<string, unknown>).total).toBe(94.5);
  });

  it('reads a total whose qualifier lost its first letters to OCR ("Total Sa clusive of GST")', () => {
    const doc = ocrReceipt([
      { x0: 0.05, lines: [['Total Sales (Excluding GST)', 1], ['Total GST', 2], ['Rounding', 3], ['Total Sa clusive of GST)', 4], ['GST SUMMARY', 6], ['Total :', 7]] },
      { x0: 0.75, lines: [['80.91', 1], ['0.00', 2], ['-0 01', 3], ['80.90', 4], ['80.91', 7]] },
    ]);
    expect((extractSchemaBuiltin({ document: doc, schema }).values as Record<string, unknown>).total).toBe(80.9);
  });
});

describe('reading words as printed', () => {
  it('keeps a column gap inside a table cell, so a quantity and an amount stay two numbers', () => {
    // layout put "Total", the quantity and the net amount in one cell joined by single spaces
    const words: Word[] = [
      { text: 'Total', box: { x0: 0.5, y0: 0.64, x1: 0.55, y1: 0.66 }, confidence: 0.9 },
      { text: '1', box: { x0: 0.59, y0: 0.64, x1: 0.6, y1: 0.66 }, confidence: 0.9 },
      { text: '278.61', box: { x0: 0.64, y0: 0.64, x1: 0.7, y1: 0.66 }, confidence: 0.9 },
      { text: 'Grand', box: { x0: 0.64, y0: 0.73, x1: 0.7, y1: 0.76 }, confidence: 0.9 },
      { text: 'Total', box: { x0: 0.71, y0: 0.73, x1: 0.78, y1: 0.76 }, confidence: 0.9 },
      { text: '319.00', box: { x0: 0.85, y0: 0.73, x1: 0.95, y1: 0.76 }, confidence: 0.9 },
    ];
    const doc = assignIds({
      format: 'png', pageCount: 1, warnings: [],
      pages: [{
        number: 1, width: 600, height: 420, words, selectionMarks: [],
        elements: [
          {
            kind: 'table', page: 1, box: { x0: 0.1, y0: 0.6, x1: 0.96, y1: 0.7 }, rows: 1, cols: 1, headerRows: 0, confidence: 0.9,
            cells: [{ row: 0, col: 0, rowSpan: 1, colSpan: 1, text: 'Total 1 278.61', box: { x0: 0.1, y0: 0.6, x1: 0.96, y1: 0.7 }, isHeader: false, confidence: 0.9 }],
          },
          { kind: 'text', category: 'Text', page: 1, confidence: 0.9, text: 'Grand Total', box: { x0: 0.64, y0: 0.73, x1: 0.78, y1: 0.76 } },
          { kind: 'text', category: 'Text', page: 1, confidence: 0.9, text: '319.00', box: { x0: 0.85, y0: 0.73, x1: 0.95, y1: 0.76 } },
        ],
      }],
    });
    expect(buildIndex(doc).units[0].text).toBe('Total  1  278.61');
    const schema = { type: 'object', properties: { total: { type: 'number' } } };
    expect((extractSchemaBuiltin({ document: doc, schema }).values as Record<string, unknown>).total).toBe(319);
    // without the grand total, the cell's own total is its amount, not "1 278.61"
    const cellOnly = { ...doc, pages: [{ ...doc.pages[0], elements: doc.pages[0].elements.slice(0, 1), words: words.slice(0, 3) }] };
    expect((extractSchemaBuiltin({ document: cellOnly, schema }).values as Record<string, unknown>).total).toBe(278.61);
  });

  it('takes a code printed after a bare number sign for an "…number" field when nothing labels one', () => {
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' } } };
    const lines = (extra: Block[]) => ocrReceipt([{ x0: 0.6, lines: [['N \\Vj E', 0]] }, { x0: 0.6, lines: [['# invoice_number_1', 1]] }, { x0: 0.05, lines: [['PO Number: po_number_123', 3]] }, ...extra]);
    expect((extractSchemaBuiltin({ document: lines([]), schema }).values as Record<string, unknown>).invoice_number).toBe('invoice_number_1');
    const labelled = lines([{ x0: 0.05, lines: [['Invoice No: INV-2024-9', 5]] }]);
    expect((extractSchemaBuiltin({ document: labelled, schema }).values as Record<string, unknown>).invoice_number).toBe('INV-2024-9');
    // a field that is not a number of something is not answered by a number sign
    const other = extractSchemaBuiltin({ document: lines([]), schema: { type: 'object', properties: { reference_code: { type: 'string' } } } });
    expect((other.values as Record<string, unknown>).reference_code).toBeNull();
  });
});

