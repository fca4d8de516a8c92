import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { clearForm } from './clear.js';
import { detectForm } from './detect.js';
import { fillForm } from './fill.js';
import { toFillableCells } from './convert.js';
import { mapFormInstructionsByLabel } from './instructions/map.js';
import type { DetectedCell } from './types.js';

// Flattened (printed-to-PDF) form structures drawn with pdf-lib: rules, rectangles and small printed text,
// no AcroForm. Coordinates below are in points from the page's top-left (pdf-lib draws from the bottom).
const W = 612, H = 792;
const black = rgb(0, 0, 0);

async function drawPage(draw: (p: { rect: (x0: number, y0: number, x1: number, y1: number) => void; line: (x0: number, y0: number, x1: number, y1: number, dash?: number[]) => void; text: (s: string, x: number, baseline: number, size?: number) => void }) => void, more?: (page: PDFPage) => void): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page: PDFPage = doc.addPage([W, H]);
  const font: PDFFont = await doc.embedFont(StandardFonts.Helvetica);
  draw({
    rect: (x0, y0, x1, y1) => page.drawRectangle({ x: x0, y: H - y1, width: x1 - x0, height: y1 - y0, borderColor: black, borderWidth: 0.5 }),
    line: (x0, y0, x1, y1, dash) => page.drawLine({ start: { x: x0, y: H - y0 }, end: { x: x1, y: H - y1 }, thickness: 0.5, color: black, dashArray: dash }),
    text: (s, x, baseline, size = 10) => page.drawText(s, { x, y: H - baseline, size, font, color: black }),
  });
  more?.(page);
  return doc.save();
}

const pts = (c: DetectedCell) => c.bounding_box.map((v, i) => Math.round(v * (i % 2 ? H : W)));
const brief = (cells: DetectedCell[]) => cells.map((c) => ({ type: c.type, label: c.label, ...(c.maxLength ? { maxLength: c.maxLength } : {}) }));

describe('flat form structures', () => {
  test('a grid of boxes with a small caption at the top of each is one field per box, labelled by its caption', async () => {
    const captions = [['1a First name', '1b Last name', '1c Middle initial'], ['2 Street address', '3 City', '4 ZIP code']];
    const pdf = await drawPage(({ line, text }) => {
      // shared rules: three columns, two rows of 30 pt
      for (const y of [100, 130, 160]) line(40, y, 560, y);
      for (const x of [40, 240, 440, 560]) line(x, 100, x, 160);
      captions.forEach((row, r) => row.forEach((c, k) => text(c, [42, 242, 442][k], 100 + 30 * r + 7, 6)));
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual(captions.flat().map((label) => ({ type: 'text', label })));
    // the value area is the box below its caption
    const first = pts(cells[0]);
    expect(first[0]).toBe(40);
    expect(first[1]).toBeGreaterThanOrEqual(107);
    expect(first[1]).toBeLessThanOrEqual(110);
    expect([first[2], first[3]]).toEqual([240, 130]);
  });

  test('captions of two lines, centred captions and captions under the writing area label their boxes too', async () => {
    const pdf = await drawPage(({ line, text }) => {
      // two rows of two boxes, each caption two lines at the top
      for (const y of [100, 136, 172]) line(40, y, 560, y);
      for (const x of [40, 300, 560]) line(x, 100, x, 172);
      text('1 Name of the person or entity that', 42, 107, 6); text('receives the payment', 42, 114, 6);
      text('2 Business name, if different', 302, 107, 6); text('from the name on line 1', 302, 114, 6);
      text('3 Street address', 42, 143, 6); text('4 City, state and ZIP code', 302, 143, 6);
      // captions centred at the top of each box
      for (const y of [200, 230, 260]) line(40, y, 560, y);
      for (const x of [40, 240, 440, 560]) line(x, 200, x, 260);
      [['First name', 'Last name', 'Initial'], ['Street', 'City', 'ZIP']].forEach((row, r) => row.forEach((c, k) => text(c, [120, 320, 490][k], 200 + 30 * r + 7, 6)));
      // captions under the writing area
      for (const y of [300, 330, 360]) line(40, y, 560, y);
      for (const x of [40, 300, 560]) line(x, 300, x, 360);
      [['Signature of employee', 'Date'], ['Printed name', 'Title']].forEach((row, r) => row.forEach((c, k) => text(c, [42, 302][k], 300 + 30 * r + 28, 6)));
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual([
      'T1 Name of the person or entity that receives the payment', 'T2 Business name, if different from the name on line 1', 'T3 Street address', 'T4 City, state and ZIP code',
      'TFirst name', 'TLast name', 'TInitial', 'TStreet', 'TCity', 'TZIP',
      'SSignature of employee', 'TDate', 'TPrinted name', 'TTitle',
    ].map((s) => ({ type: s[0] === 'S' ? 'signature' : 'text', label: s.slice(1) })));
    // the value area is what the caption leaves: below a caption at the top, above one at the bottom
    const [x0, y0, x1, y1] = pts(cells[0]);
    expect([x0, x1, y1]).toEqual([40, 300, 136]);
    expect(y0).toBeGreaterThanOrEqual(114);
    expect(y0).toBeLessThanOrEqual(117);
    const sig = pts(cells[10]);
    expect([sig[0], sig[1], sig[2]]).toEqual([40, 300, 300]);
    expect(sig[3]).toBeGreaterThanOrEqual(321);
    expect(sig[3]).toBeLessThanOrEqual(324);
  });

  test('a box holding one printed word with no line of writing left under it, or a paragraph over blank margin, is a note, not a field', async () => {
    const pdf = await drawPage(({ rect, text }) => {
      text('Amount', 360, 312, 8); rect(420, 300, 560, 316);
      rect(20, 380, 80, 400); text('Dependents', 22, 392, 7);
      // a margin column box printing a paragraph at its top, blank below
      rect(20, 420, 100, 570);
      ['Standard', 'Deduction for-', 'Single or Married', 'filing separately,', '$12,200', 'Head of household,', '$18,350'].forEach((l, i) => text(l, 23, 430 + 9 * i, 7));
    });
    const cells = (await detectForm(pdf)).cells;
    expect(cells.map((c) => [c.label, pts(c)])).toEqual([['Amount', [420, 300, 560, 316]]]);
  });

  test('combs whose character cells are parted by short ticks or dotted lines are one field each', async () => {
    const pdf = await drawPage(({ rect, line, text }) => {
      text('Social security number', 100, 96, 8);
      rect(100, 100, 100 + 9 * 14, 118);
      // short ticks rising from the bottom edge between the character cells
      for (let k = 1; k < 9; k++) line(100 + 14 * k, 118, 100 + 14 * k, 113);
      text('Employer identification number', 300, 96, 8);
      rect(300, 100, 300 + 9 * 14, 118);
      // dotted separators: a column of short dots down the full height
      for (let k = 1; k < 9; k++) for (let y = 101; y < 117; y += 3) line(300 + 14 * k, y, 300 + 14 * k, y + 1);
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual([
      { type: 'text', label: 'Social security number', maxLength: 9 },
      { type: 'text', label: 'Employer identification number', maxLength: 9 },
    ]);
    expect(cells.every((c) => c.comb)).toBe(true);
    expect(pts(cells[0])).toEqual([100, 100, 226, 118]);
  });

  test('stacked amount boxes (a column of boxes, line numbers to their left) are one field per line', async () => {
    const lines = [['1', 'Wages, salaries, tips'], ['2', 'Taxable interest'], ['3', 'Ordinary dividends'], ['4', 'Total income']];
    const pdf = await drawPage(({ line, text }) => {
      // the amount column: one left and right wall down the column, a rule under each line; the line
      // number sits in a narrow box of its own just left of the amount
      const top = 200, step = 18;
      for (let i = 0; i <= lines.length; i++) line(440, top + step * i, 570, top + step * i);
      line(440, top, 440, top + step * lines.length);
      line(458, top, 458, top + step * lines.length);
      line(570, top, 570, top + step * lines.length);
      lines.forEach(([n, label], i) => {
        text(n, 60, top + step * i + 12, 8);
        // the line's text runs to the amount column on dot leaders
        text(`${label} ${'. '.repeat(Math.floor((420 - 72 - 4.5 * label.length) / 4.5))}`, 72, top + step * i + 12, 8);
        text(n, 446, top + step * i + 12, 8);
      });
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual(lines.map(([n, label]) => ({ type: 'text', label: `${n} ${label}` })));
    expect(cells.map((c) => pts(c))).toEqual(lines.map((_, i) => [458, 200 + 18 * i, 570, 218 + 18 * i]));
  });

  test('combs whose ticks are short dotted columns or round dots down the full height are one field each, not a plain box', async () => {
    const pdf = await drawPage(({ rect, line, text }) => {
      text('Social security number', 100, 96, 8);
      rect(100, 100, 100 + 9 * 14, 118);
      // each tick: three 1 pt dots rising from the bottom edge (too short to be a dotted rule)
      for (let k = 1; k < 9; k++) for (let y = 117; y > 111; y -= 2) line(100 + 14 * k, y, 100 + 14 * k, y - 1);
      text('Routing number', 300, 96, 8);
      rect(300, 100, 300 + 9 * 14, 118);
    }, (page) => {
      // round dots (tiny discs) parting the second comb's cells from top to bottom
      for (let k = 1; k < 9; k++) for (let y = 101.5; y < 117; y += 2.5) page.drawCircle({ x: 300 + 14 * k, y: H - y, size: 0.4, color: black });
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual([
      { type: 'text', label: 'Social security number', maxLength: 9 },
      { type: 'text', label: 'Routing number', maxLength: 9 },
    ]);
    expect(cells.map((c) => pts(c))).toEqual([[100, 100, 226, 118], [300, 100, 426, 118]]);
  });

  test('equal character boxes drawn a little apart are one comb field; checkboxes with their options beside them stay checkboxes', async () => {
    const pdf = await drawPage(({ rect, text }) => {
      text('Code', 60, 110, 8);
      for (let k = 0; k < 5; k++) rect(100 + 13 * k, 100, 110 + 13 * k, 110);
      text('PIN', 60, 140, 8);
      for (let k = 0; k < 4; k++) rect(100 + 14 * k, 128, 112 + 14 * k, 142);
      rect(300, 101, 309, 110); text('Yes', 312, 110, 8); rect(325, 101, 334, 110); text('No', 337, 110, 8); rect(350, 101, 359, 110); text('Maybe', 362, 110, 8);
    });
    const cells = (await detectForm(pdf)).cells;
    const combs = cells.filter((c) => c.comb);
    expect(brief(combs)).toEqual([{ type: 'text', label: 'Code', maxLength: 5 }, { type: 'text', label: 'PIN', maxLength: 4 }]);
    expect(combs.map((c) => pts(c))).toEqual([[100, 100, 162, 110], [100, 128, 154, 142]]);
    expect(cells.filter((c) => c.type === 'checkbox').flatMap((c) => c.checkbox_details ?? []).length).toBe(3);
  });

  test('a comb drawn open, a baseline with ticks rising from it (solid or dotted), is one field', async () => {
    const pdf = await drawPage(({ line, text }) => {
      text('Employer identification number', 100, 96, 8);
      line(100, 118, 100 + 9 * 14, 118);
      for (let k = 0; k <= 9; k++) line(100 + 14 * k, 118, 100 + 14 * k, 112);
      text('Account number', 300, 96, 8);
      line(300, 118, 300 + 9 * 14, 118);
      for (let k = 0; k <= 9; k++) for (let y = 117; y > 111; y -= 2) line(300 + 14 * k, y, 300 + 14 * k, y - 1);
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual([
      { type: 'text', label: 'Employer identification number', maxLength: 9 },
      { type: 'text', label: 'Account number', maxLength: 9 },
    ]);
    expect(cells.every((c) => c.comb)).toBe(true);
    // the cell stands on the baseline, from one end tick to the other
    const [x0, , x1, y1] = pts(cells[0]);
    expect([x0, x1, y1]).toEqual([100, 226, 118]);
  });

  test('stacked amount boxes whose rules stop just short of the column walls are one field per line', async () => {
    const labels = ['1 Wages', '2 Interest', '3 Dividends', '4 Total'];
    const pdf = await drawPage(({ line, text }) => {
      const top = 200, step = 18;
      line(440, top, 570, top); line(440, top + step * 4, 570, top + step * 4);
      line(440, top, 440, top + step * 4); line(570, top, 570, top + step * 4);
      // the rules between the lines are inset 3 pt from each wall
      for (let i = 1; i < 4; i++) line(443, top + step * i, 567, top + step * i);
      labels.forEach((label, i) => text(`${label} ${'. '.repeat(Math.floor((420 - 80 - 4.5 * label.length) / 4.5))}`, 72, top + step * i + 12, 8));
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual(labels.map((label) => ({ type: 'text', label })));
    expect(cells.map((c) => pts(c))).toEqual([0, 1, 2, 3].map((i) => [440, 200 + 18 * i, 570, 218 + 18 * i]));
  });

  test('stacked boxes parted by dotted rules drawn dot by dot do not merge into one field', async () => {
    const pdf = await drawPage(({ line, text }) => {
      const top = 400, step = 18, rows = 3;
      line(440, top, 570, top); line(440, top + step * rows, 570, top + step * rows);
      line(440, top, 440, top + step * rows); line(570, top, 570, top + step * rows);
      // the rules between the boxes: 1 pt dots every 3 pt
      for (let i = 1; i < rows; i++) for (let x = 441; x < 569; x += 3) line(x, top + step * i, x + 1, top + step * i);
      ['5a Pensions', '5b Taxable amount', '6 Social security'].forEach((label, i) => text(`${label} ${'. '.repeat(Math.floor((420 - 72 - 4.5 * label.length) / 4.5))}`, 72, top + step * i + 12, 8));
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual(['5a Pensions', '5b Taxable amount', '6 Social security'].map((label) => ({ type: 'text', label })));
    expect(cells.map((c) => pts(c))).toEqual([0, 1, 2].map((i) => [440, 400 + 18 * i, 570, 418 + 18 * i]));
  });

  test('stacked boxes parted by dashed rules drawn dash by dash do not merge into one field', async () => {
    const labels = ['1 Wages', '2 Interest', '3 Total'];
    const pdf = await drawPage(({ line, text }) => {
      const top = 200, step = 18;
      line(440, top, 570, top); line(440, top + step * 3, 570, top + step * 3);
      line(440, top, 440, top + step * 3); line(570, top, 570, top + step * 3);
      // 6 pt dashes, 3 pt apart, each drawn on its own
      for (let i = 1; i < 3; i++) for (let x = 440; x < 570; x += 9) line(x, top + step * i, Math.min(570, x + 6), top + step * i);
      labels.forEach((label, i) => text(`${label} ${'. '.repeat(Math.floor((420 - 80 - 4.5 * label.length) / 4.5))}`, 72, top + step * i + 12, 8));
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual(labels.map((label) => ({ type: 'text', label })));
    expect(cells.map((c) => pts(c))).toEqual([0, 1, 2].map((i) => [440, 200 + 18 * i, 570, 218 + 18 * i]));
  });

  test('a box stroked in white (no ink, a flattened comment\'s frame) is not a field; the inked box beside it is', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([W, H]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.drawText('Amount', { x: 60, y: H - 212, size: 10, font, color: black });
    page.drawRectangle({ x: 120, y: H - 218, width: 200, height: 20, borderColor: black, borderWidth: 0.5 });
    page.drawText('Make the check payable to the county.', { x: 60, y: H - 312, size: 10, font, color: black });
    page.drawRectangle({ x: 20, y: H - 330, width: 25, height: 25, borderColor: rgb(1, 1, 1), borderWidth: 0.06 });
    const cells = (await detectForm(await doc.save())).cells;
    expect(cells.map((c) => [c.label, pts(c)])).toEqual([['Amount', [120, 198, 320, 218]]]);
  });

  test('a small box holding only a printed line number or margin note is not a field', async () => {
    const pdf = await drawPage(({ rect, text }) => {
      text('Total tax', 60, 312, 8);
      rect(400, 300, 420, 316); text('23', 404, 312, 8);
      rect(420, 300, 560, 316);
      text('Refund', 60, 342, 8);
      rect(400, 330, 420, 346); text('1a', 405, 342, 8);
      rect(420, 330, 560, 346);
      // a margin note in a box of its own, not next to any field
      rect(20, 400, 62, 432); text('Attach', 24, 410, 7); text('Sch. B if', 24, 419, 7); text('required.', 24, 428, 7);
    });
    const cells = (await detectForm(pdf)).cells;
    expect(cells.map((c) => c.type)).toEqual(['text', 'text']);
    expect(cells.map((c) => pts(c))).toEqual([[420, 300, 560, 316], [420, 330, 560, 346]]);
  });

  test('a line-number box standing a little apart from the amount box it numbers is not a checkbox; a value in the amount box does not change that', async () => {
    const lines = [['7', 'Capital gain'], ['8', 'Other income'], ['9', 'Total income']];
    const pdf = await drawPage(({ rect, text }) => {
      lines.forEach(([n, label], i) => {
        const y = 300 + 18 * i;
        text(`${label} ${'. '.repeat(Math.floor((400 - 70 - 4.5 * label.length) / 4.5))}`, 60, y + 12, 8);
        // a 16 pt code box, 4 pt of paper, then the amount box
        rect(410, y, 426, y + 16); text(n, 415, y + 12, 8);
        rect(430, y, 560, y + 16);
      });
    });
    const cells = (await detectForm(pdf)).cells;
    expect(brief(cells)).toEqual(lines.map(([n, label]) => ({ type: 'text', label: `${n} ${label}` })));
    expect(cells.map((c) => pts(c))).toEqual([0, 1, 2].map((i) => [430, 300 + 18 * i, 560, 316 + 18 * i]));
    // filled in (values marked as fill-ins, as a field's appearance is), the code boxes still number the amounts
    const filled = await fillForm(pdf, cells, [{ cellIndex: 0, value: '1200' }, { cellIndex: 2, value: '1900' }]);
    const again = (await detectForm(filled.pdf)).cells;
    expect(brief(again)).toEqual(brief(cells));
    // the same page as a form filled in and flattened by pdf-lib (its field appearances become page content)
    const doc = await PDFDocument.load(pdf);
    const form = doc.getForm();
    ['1200', '', '1900'].forEach((v, i) => {
      const field = form.createTextField(`amount${i}`);
      if (v) field.setText(v);
      field.addToPage(doc.getPage(0), { x: 431, y: H - (315 + 18 * i), width: 128, height: 14, borderWidth: 0 });
    });
    form.flatten();
    const flattened = (await detectForm(await doc.save())).cells;
    expect(brief(flattened)).toEqual(brief(cells));
  });
});

describe('amount columns of tax forms', () => {
  // A return's amount column: a ruled grid of a line-number column, a dollars column and a narrow cents
  // column; the wording of each line is printed left of the grid, ended by leader dots.
  const lines = [['7', 'Wages, salaries, tips'], ['8a', 'Taxable interest'], ['9', 'Ordinary dividends'], ['10', 'Total income. Add lines 7 through 9']];
  const amountColumn = () => drawPage(({ line, text }) => {
    lines.forEach(([code, label], r) => {
      const bottom = 118 + 18 * r;
      text(code, 40, bottom - 5, 8); text(`${label} ${'. '.repeat(12)}`, 60, bottom - 5, 8); text(code, 434, bottom - 5, 8);
    });
    for (let r = 0; r <= lines.length; r++) line(430, 100 + 18 * r, 566, 100 + 18 * r);
    for (const x of [430, 450, 540, 566]) line(x, 100, x, 100 + 18 * lines.length);
  });
  // the same lines drawn as separate boxes: a code box standing apart, then a dollars box and a cents box
  const amountBoxes = () => drawPage(({ rect, text }) => {
    lines.forEach(([code, label], r) => {
      const y = 100 + 22 * r;
      text(code, 40, y + 12, 8); text(`${label} ${'. '.repeat(12)}`, 60, y + 12, 8);
      rect(410, y, 426, y + 16); text(code, 413, y + 12, 8);
      rect(430, y, 540, y + 16); rect(540, y, 562, y + 16);
    });
  });
  const expected = lines.flatMap(([code, label]) => [
    { type: 'text', label: `${code} ${label}` },
    { type: 'text', label: `${code} ${label} (cents)`, maxLength: 2 },
  ]);

  test('each line is labelled by its code and wording, and the narrow column beside the amount is its cents', async () => {
    const cells = (await detectForm(await amountColumn())).cells;
    expect(brief(cells)).toEqual(expected);
    expect(pts(cells[0])).toEqual([450, 100, 540, 118]);
    expect(pts(cells[1])).toEqual([540, 100, 566, 118]);
    // drawn as boxes, with the code in a box of its own, the lines read the same
    const boxes = (await detectForm(await amountBoxes())).cells;
    expect(brief(boxes)).toEqual(expected);
    expect(pts(boxes[1])).toEqual([540, 100, 562, 116]);
  });

  test('a narrow box beside a wider one is no cents box when it has a label of its own or the pair is alone and unnumbered', async () => {
    const pdf = await drawPage(({ rect, text }) => {
      text('State', 432, 96, 7); text('ZIP', 542, 96, 7);
      rect(430, 100, 540, 116); rect(540, 100, 562, 116);
      text('Amount', 60, 160, 8); rect(430, 148, 540, 164); rect(540, 148, 562, 164);
    });
    const cells = (await detectForm(pdf)).cells;
    expect(cells.some((c) => /cents/.test(c.label) || c.maxLength === 2)).toBe(false);
  });

  test('an amount with cents given for a line is written across its dollars and cents boxes', async () => {
    const pdf = await amountColumn();
    const cells = (await detectForm(pdf)).cells;
    const answer = mapFormInstructionsByLabel({ instructions: 'Wages: $52,340.17\nline 8a: 120.50\nOrdinary dividends 75', cells: toFillableCells(cells) });
    const placed = Object.fromEntries(answer.assignments.map((a) => [cells[a.cellIndex].label, a.value]));
    expect(placed).toEqual({
      '7 Wages, salaries, tips': '$52,340', '7 Wages, salaries, tips (cents)': '17',
      '8a Taxable interest': '120', '8a Taxable interest (cents)': '50',
      '9 Ordinary dividends': '75',
    });
    const filled = await fillForm(pdf, cells, answer.assignments);
    const again = (await detectForm(filled.pdf)).cells;
    expect(again.slice(0, 6).map((c) => c.text)).toEqual(['$52,340', '17', '120', '50', '75', '']);
  });
});

describe('flattened checkboxes and radio buttons drawn in pieces', () => {
  /**
   * How viewers flatten a widget with a bevelled border: a checkbox's frame as two filled L-shaped sides
   * (dark top-left, light bottom-right), a radio button's ring as stroked half-arcs in two shades; a
   * check as an "X" of strokes, a selection as a filled dot.
   */
  async function bevelledPage(): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const page = doc.addPage([W, H]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const dark = rgb(0.25, 0.25, 0.25), light = rgb(0.75, 0.75, 0.75);
    const label = (s: string, x: number, top: number) => page.drawText(s, { x, y: H - top - 8, size: 9, font, color: black });
    const checkbox = (x: number, top: number, checked: boolean) => {
      const s = 10, b = 1; // side and bevel width, top-left coordinates below
      page.drawSvgPath(`M 0 0 L ${s} 0 L ${s - b} ${b} L ${b} ${b} L ${b} ${s - b} L 0 ${s} Z`, { x, y: H - top, color: dark });
      page.drawSvgPath(`M ${s} ${s} L 0 ${s} L ${b} ${s - b} L ${s - b} ${s - b} L ${s - b} ${b} L ${s} 0 Z`, { x, y: H - top, color: light });
      if (checked) {
        page.drawLine({ start: { x: x + 2.5, y: H - top - 2.5 }, end: { x: x + 7.5, y: H - top - 7.5 }, thickness: 1, color: black });
        page.drawLine({ start: { x: x + 2.5, y: H - top - 7.5 }, end: { x: x + 7.5, y: H - top - 2.5 }, thickness: 1, color: black });
      }
    };
    const radio = (x: number, top: number, selected: boolean) => {
      const r = 4.5, cx = x + 5, cy = top + 5; // a ring of two half-arcs, upper-left dark and lower-right light
      const arc = (from: number, to: number) => `M ${cx + r * Math.cos(from)} ${cy + r * Math.sin(from)} A ${r} ${r} 0 0 1 ${cx + r * Math.cos(to)} ${cy + r * Math.sin(to)}`;
      page.drawSvgPath(arc(Math.PI * 0.75, Math.PI * 1.75), { x: 0, y: H, borderColor: dark, borderWidth: 1 });
      page.drawSvgPath(arc(Math.PI * 1.75, Math.PI * 2.75), { x: 0, y: H, borderColor: light, borderWidth: 1 });
      if (selected) page.drawCircle({ x: cx, y: H - cy, size: 2, color: black });
    };
    checkbox(40, 100, false); label('Send me the newsletter', 56, 100);
    checkbox(40, 125, true); label('I accept the terms', 56, 125);
    // ticked with a curved stroke, itself an open curve like a ring's arcs
    checkbox(40, 145, false); label('Keep me signed in', 56, 145);
    page.drawSvgPath('M 2.5 5 Q 4 8.5 8 2', { x: 40, y: H - 145, borderColor: black, borderWidth: 1 });
    radio(40, 170, false); label('Paper invoice', 56, 170);
    radio(40, 195, true); label('Electronic invoice', 56, 195);
    return doc.save();
  }

  test('each is found as a box of its own size, labelled by the text beside it, with its state', async () => {
    const cells = (await detectForm(await bevelledPage())).cells;
    const boxes = cells.flatMap((c) => (c.checkbox_details ?? []).map((d) => ({ label: d.text || c.label, selected: d.selected })));
    expect(cells.every((c) => c.type === 'checkbox')).toBe(true);
    expect(boxes).toEqual([
      { label: 'Send me the newsletter', selected: false },
      { label: 'I accept the terms', selected: true },
      { label: 'Keep me signed in', selected: true },
      { label: 'Paper invoice', selected: false },
      { label: 'Electronic invoice', selected: true },
    ]);
    // clearing takes the ticks and dots out and leaves every frame, so the form reads back whole and empty
    const cleared = await clearForm(await bevelledPage(), cells);
    const again = (await detectForm(cleared.pdf)).cells;
    expect(again.flatMap((c) => (c.checkbox_details ?? []).map((d) => d.selected))).toEqual([false, false, false, false, false]);
    // the checkbox's box is its frame (10 pt)
    const first = pts(cells[0]);
    expect(first[2] - first[0]).toBeGreaterThanOrEqual(9);
    expect(first[2] - first[0]).toBeLessThanOrEqual(11);
  });
});
