// Table structure end to end on generated PDFs: extraction (layout table detection) + the tables step.
import { extractDocument } from '@quire/extract';
import { AROUND_ROTATED_TABLE, ROTATED_TABLE, drawTable, fixtureDoc, makeMultiLinePdf, makeRotatedTableInTextPdf, makeRotatedTablePdf, makeSplitTablePdf, makeTableKindsPdf } from '../../../tests/fixtures/tables/pdf-tables.js';
import { buildTables } from './build-tables.js';
import type { TableJson } from './to-json.js';

const json = (out: ReturnType<typeof buildTables>, i = 0) => out.tables[i].table_content as TableJson;
const values = (t: TableJson) => t.rows.map((r) => r.values);

describe('tables from generated PDFs', () => {
  let kinds: ReturnType<typeof buildTables>;
  beforeAll(async () => { kinds = buildTables(await extractDocument(await makeTableKindsPdf(), 'pdf'), { format: 'json' }); });

  it('fully ruled with a filled two-level header: spans, header paths, stub, typed cells, totals', () => {
    const t = json(kinds, 0);
    expect(t.header_rows).toBe(2);
    expect(t.stub_cols).toBe(1);
    expect(t.header[0].map((c) => [c.text, c.row_span, c.col_span])).toEqual([['Region', 2, 1], ['2023', 1, 2], ['2024', 1, 2]]);
    expect(t.columns.map((c) => c.path)).toEqual([['Region'], ['2023', 'Q1'], ['2023', 'Q2'], ['2024', 'Q1'], ['2024', 'Q2']]);
    expect(values(t)).toEqual([
      ['North', 1200, -35.5, 1410, 12], ['South', 900, 950, 1020, 1100], ['West', 640, 700, null, 810], ['Total', 2740, 1614.5, 2430, 1922],
    ]);
    expect(t.rows.map((r) => r.role)).toEqual(['data', 'data', 'data', 'total']);
    expect(t.rows[2].cells[3]).toMatchObject({ text: '-', type: 'missing', value: null });
  });

  it('partly ruled (horizontal rules only) and borderless tables', () => {
    for (const i of [1, 2]) {
      const t = json(kinds, i);
      expect(t.header_rows).toBe(1);
      expect(t.columns.map((c) => c.name)).toEqual(['Name', 'Count', 'Weight', 'Code']);
      expect(values(t)[0]).toEqual(['Item 1', 101, 3.5, 1]);
      expect(t.rows.map((r) => r.row_header[0])).toEqual(t.rows.map((_, k) => (i === 1 && k === 7 ? 'Total' : `Item ${k + 1}`)));
    }
    expect(json(kinds, 1).rows.at(-1)!.role).toBe('total');
  });

  it('joins wrapped lines of a cell into one cell', async () => {
    const t = json(buildTables(await extractDocument(await makeMultiLinePdf(), 'pdf'), { format: 'json' }));
    expect(values(t)).toEqual([['Office supplies and small equipment', 1250, 12], ['Travel and accommodation', -300, 3], ['Training', 800, 8]]);
  });

  it.each([true, false])('merges a table split across two pages (repeated header: %s)', async (repeatHeader) => {
    const doc = await extractDocument(await makeSplitTablePdf({ repeatHeader }), 'pdf');
    expect(buildTables(doc, { merge: false }).tables).toHaveLength(2);
    const out = buildTables(doc, { merge: true, format: 'json' });
    expect(out.tables).toHaveLength(1);
    const t = json(out);
    expect(t.citations).toEqual(['tbl-1', 'tbl-2']);
    expect(t.pages).toEqual([1, 2]);
    expect(t.rows.map((r) => r.values[0])).toEqual(Array.from({ length: 39 }, (_, i) => `Item ${i + 1}`));
    expect(out.mergeDecisions[0]).toMatchObject({ merged: true, droppedHeaderRows: repeatHeader ? 1 : 0 });
  });

  it('stitches a row split at the page break', async () => {
    const out = buildTables(await extractDocument(await makeSplitTablePdf({ repeatHeader: false, splitRow: true }), 'pdf'), { merge: true, format: 'json' });
    const t = json(out);
    expect(out.mergeDecisions[0]).toMatchObject({ merged: true, stitchedRow: true });
    expect(t.rows[24].values).toEqual(['Item 25 with a long name that wraps', 125, 87.5, 4]);
    expect(t.rows).toHaveLength(39);
  });

  it.each(['clockwise', 'anticlockwise'] as const)('reads a table set sideways on the page (%s) in row order', async (turn) => {
    const doc = await extractDocument(await makeRotatedTablePdf(turn), 'pdf');
    expect(doc.pages[0].extra).toMatchObject({ text_rotation_corrected: turn === 'clockwise' ? 270 : 90 });
    const t = json(buildTables(doc, { format: 'json' }));
    expect(t.header_rows).toBe(1);
    expect(t.columns.map((c) => c.name)).toEqual(['Sales region', 'First quarter', 'Second quarter', 'Third quarter', 'Change in %']);
    expect(values(t)).toEqual([
      ['North East', 1200, 1350, 1410, 17.5], ['South West coast', 900, 950, 1020, 13.3],
      ['Central plains', 640, 700, 655, 2.3], ['Islands and overseas', 75, 80, 91, 21.3],
    ]);
    // boxes stay on the page as sent: the header row runs along the table's top, the page's right edge
    // when turned clockwise, its left edge when turned anticlockwise
    const table = doc.pages[0].elements.find((e) => e.kind === 'table')!;
    const header = table.kind === 'table' ? table.cells.find((c) => c.text === 'Sales region')!.box! : undefined;
    const body = table.kind === 'table' ? table.cells.find((c) => c.text === 'Islands and overseas')!.box! : undefined;
    expect(header!.y1 - header!.y0).toBeGreaterThan(header!.x1 - header!.x0);
    if (turn === 'clockwise') expect(header!.x0).toBeGreaterThan(body!.x1);
    else expect(header!.x1).toBeLessThan(body!.x0);
  });

  describe.each(['clockwise', 'anticlockwise'] as const)('a table set sideways in the body of an upright page (%s)', (turn) => {
    it.each(['full', 'none'] as const)('reads it in row order and leaves the upright text as it is (ruling: %s)', async (ruling) => {
      const doc = await extractDocument(await makeRotatedTableInTextPdf(turn, ruling), 'pdf');
      const page = doc.pages[0];
      // the page itself is not turned: only the table's region is
      expect(page.extra?.text_rotation_corrected).toBeUndefined();
      expect(page.extra?.text_rotation_corrected_regions).toEqual([expect.objectContaining({ turn: turn === 'clockwise' ? 270 : 90 })]);
      const t = json(buildTables(doc, { format: 'json' }));
      expect(values(t)).toEqual([
        ['North East', 1200, 1350, 1410, 17.5], ['South West coast', 900, 950, 1020, 13.3],
        ['Central plains', 640, 700, 655, 2.3], ['Islands and overseas', 75, 80, 91, 21.3],
      ]);
      if (ruling === 'full') {
        expect(t.header_rows).toBe(1);
        expect(t.columns.map((c) => c.name)).toEqual(['Sales region', 'First quarter', 'Second quarter', 'Third quarter', 'Change in %']);
      }
      // the same structure as the table printed upright (borderless, its two-line headers and the
      // one-line stub header between them stay three header lines, upright as well as turned)
      const { doc: ref, fonts } = await fixtureDoc();
      drawTable(ref.addPage([612, 792]), fonts, { xs: [72, 222, 302, 382, 462, 532], rows: ROTATED_TABLE, top: 100, rowHeight: 28, ruling });
      const upright = json(buildTables(await extractDocument(await ref.save(), 'pdf'), { format: 'json' }));
      expect(t.header).toEqual(upright.header);
      expect(t.rows.map((r) => r.cells.map((c) => c.text))).toEqual(upright.rows.map((r) => r.cells.map((c) => c.text)));
      // the upright text around it: the same elements, in reading order, with the table between the paragraphs
      const a = AROUND_ROTATED_TABLE;
      expect(page.elements.map((e) => (e.kind === 'table' ? 'TABLE' : e.kind === 'text' ? e.text : e.kind))).toEqual([
        a.heading, a.before.join(' '), 'TABLE', a.after.join(' '), a.footer,
      ]);
      // boxes on the page as sent: the table stands in the middle of the page, taller than wide, and its
      // header row runs along the page's right edge (clockwise) or left edge (anticlockwise)
      const table = page.elements.find((e) => e.kind === 'table')!;
      const box = table.box!;
      expect(box.y1 - box.y0).toBeGreaterThan(box.x1 - box.x0);
      expect(box.x0).toBeGreaterThan(0.3);
      expect(box.x1).toBeLessThan(0.7);
      const cell = (text: string) => (table.kind === 'table' ? table.cells.find((c) => c.text === text)!.box! : undefined)!;
      const header = cell('Sales region'), body = cell('Islands and overseas');
      if (turn === 'clockwise') expect(header.x0).toBeGreaterThan(body.x1);
      else expect(header.x1).toBeLessThan(body.x0);
      // every word of the page is kept once, on the page as sent
      expect(page.words.filter((w) => w.text === 'North')).toHaveLength(1);
      expect(page.words.find((w) => w.text === 'Quarterly')!.box.y0).toBeLessThan(0.1);
    });
  });
});
