// Table structure failure classes (issue 18) on generated PDFs: each test asserts the full cell grid,
// the spans and the header cells of the table the extraction finds.
import type { TableElement } from '@quire/core';
import { extractDocument } from '@quire/extract';
import { boxDiagramPdf, drawPdf, bulletsInRuledCellsPdf, closeFigureColumnsPdf, closeFiguresWithNoteMarksPdf, longWrappedLabelPdf, rowGroupsApartPdf, straddleRuleGroupsPdf, flushLeftSectionTitlesPdf, footnotesBesideTextPdf, subColumnNamesPdf, longRowLabelPdf, framedExhibitPdf, sectionTitleOverFiguresPdf, spannerOverFigureColumnsPdf, hangingLabelsPdf, blankLineRecordsPdf, runoverColumnNamesPdf, hangingTextRecordsPdf, textBesideTablePdf, titleBesideTextPdf, groupHeadersBorderlessPdf, headerOnlyColumnRulesPdf, invoiceLineItemsPdf, labelsAroundFiguresPdf, rotatedHeaderPdf, stackedValuesPdf, stubOutsideFramePdf } from '../../../tests/fixtures/tables/structure-classes.js';
import { buildTables } from './build-tables.js';
import { slotsOf } from './grid.js';

async function tablesOf(pdf: Promise<Uint8Array>): Promise<TableElement[]> {
  const out = buildTables(await extractDocument(await pdf, 'pdf'), { merge: false, format: 'json' });
  return out.views.map((v) => v.table);
}

/** Every grid slot's text; a spanning cell's text in each slot it covers. */
const gridOf = (t: TableElement) => slotsOf(t).map((row) => row.map((c) => c?.text ?? ''));
/** Cells with spans: [text, row, col, rowSpan, colSpan] for cells wider or taller than one slot. */
const spansOf = (t: TableElement) => t.cells.filter((c) => c.rowSpan > 1 || c.colSpan > 1).map((c) => [c.text, c.row, c.col, c.rowSpan, c.colSpan]);
const headerOf = (t: TableElement) => t.cells.filter((c) => c.isHeader).map((c) => c.text);

describe('table structure classes on generated PDFs', () => {
  it('keeps row labels set left of a ruled frame as a stub column, and a double rule adds no empty row', async () => {
    const [t, ...rest] = await tablesOf(stubOutsideFramePdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['', 'Q1', 'Q2', 'Q3'],
      ['North', '10', '20', '30'],
      ['South', '20', '40', '60'],
      ['East', '30', '60', '90'],
      ['West', '40', '80', '120'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['', 'Q1', 'Q2', 'Q3']);
  });

  it('takes body columns from the header\'s column rules and the text\'s alignment when the rules stop under the header', async () => {
    const [t, ...rest] = await tablesOf(headerOnlyColumnRulesPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Item', 'Qty', 'Unit price', 'Amount'],
      ['Paper, A4, 500 sheets', '12', '4.50', '54.00'],
      ['Toner cartridge', '2', '61.00', '122.00'],
      ['Stapler', '3', '7.25', '21.75'],
      ['Envelopes C5', '10', '0.90', '9.00'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Item', 'Qty', 'Unit price', 'Amount']);
  });

  it('keeps bullets in ruled cells with their text: one cell per list, no column of bullets', async () => {
    const [t, ...rest] = await tablesOf(bulletsInRuledCellsPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Plan', 'Includes', 'Price'],
      ['Starter', '• Single user • Email support • Weekly backups', '9.00'],
      ['Team', '• Ten users • Phone support • Daily backups', '49.00'],
      ['Enterprise', '• Unlimited users • Named engineer • Hourly backups', '199.00'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Plan', 'Includes', 'Price']);
  });

  it('keeps a column name set bottom-to-top in one header cell, its words in reading order', async () => {
    const [t, ...rest] = await tablesOf(rotatedHeaderPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['District', 'Total population', 'Urban share', 'Rural share'],
      ['Northern district', '12,400', '61', '39'],
      ['Southern district', '9,870', '48', '52'],
      ['Coastal district', '15,030', '72', '28'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['District', 'Total population', 'Urban share', 'Rural share']);
  });

  it('stops invoice line items before the totals block and keeps narrow adjacent columns apart', async () => {
    const [t, totals, ...rest] = await tablesOf(invoiceLineItemsPdf());
    expect(rest).toHaveLength(0);
    // the totals block stands apart: at most a label/amount table of its own
    expect(gridOf(totals)).toEqual([['Untaxed amount', '1,908.00'], ['Tax 15%', '286.20'], ['Total', '2,194.20']]);
    expect(gridOf(t)).toEqual([
      ['Description', 'Qty', 'Unit price', 'Disc.%', 'Taxes', 'Amount'],
      ['Consulting, March', '12', '95.00', '10', '15%', '1,026.00'],
      ['Travel expenses', '1', '240.00', '0', '15%', '240.00'],
      ['Software licence', '3', '120.00', '5', '15%', '342.00'],
      ['Support retainer', '1', '300.00', '0', '15%', '300.00'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Description', 'Qty', 'Unit price', 'Disc.%', 'Taxes', 'Amount']);
  });
  it('keeps group headers of a borderless table spanning the columns they are centred over', async () => {
    const [t, ...rest] = await tablesOf(groupHeadersBorderlessPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['', 'Annual sales', 'Annual sales', 'Annual sales', 'Annual sales'],
      ['', 'First half', 'First half', 'Second half', 'Second half'],
      ['Region', 'Q1', 'Q2', 'Q3', 'Q4'],
      ['North', '120', '135', '140', '152'],
      ['South', '98', '101', '110', '117'],
      ['East', '143', '150', '161', '170'],
      ['West', '87', '90', '95', '99'],
      ['Central', '102', '108', '111', '121'],
      ['Islands', '31', '35', '38', '44'],
    ]);
    expect(spansOf(t)).toEqual([['Annual sales', 0, 1, 1, 4], ['First half', 1, 1, 1, 2], ['Second half', 1, 3, 1, 2]]);
    expect(t.headerRows).toBe(3);
    expect(headerOf(t)).toEqual(['', 'Annual sales', '', 'First half', 'Second half', 'Region', 'Q1', 'Q2', 'Q3', 'Q4']);
  });

  it('reads stacked values as one row per line, and a wrapped label beside single figures as one row', async () => {
    const [t, ...rest] = await tablesOf(stackedValuesPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Body style', 'Engine', 'l/100 km', 'g CO2/km'],
      ['Compact', 'Petrol', '6.1', '142'],
      ['', 'Hybrid', '4.3', '99'],
      ['Sedan', 'Diesel', '5.2', '136'],
      ['', 'Electric', '0.0', '0'],
      ['Estate', 'Petrol', '6.8', '155'],
      ['', 'Hybrid', '4.9', '112'],
      ['Long-wheelbase people carrier', 'Diesel', '7.4', '171'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Body style', 'Engine', 'l/100 km', 'g CO2/km']);
  });

  it('joins a row label wrapped over the lines above and below its figures into the figures\' row', async () => {
    const [t, ...rest] = await tablesOf(labelsAroundFiguresPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Measure', '2019', '2020', '2021', '2022'],
      ['Median household income', '49,497', '51,295', '52,587', '52,500'],
      ['Between-region income inequality (Gini index)', '0.0628', '0.0636', '0.0612', '0.0646'],
      ['Premature mortality (years of life lost before age 75)', '7108.3', '6960.6', '6920.0', '6899.5'],
      ['Health outcomes', '', '', '', ''],
      ['Mean health and activity limitation index', '0.8766', '0.8762', '0.8779', '0.8783'],
      ['Mean days in poor health', '3.1', '3.4', '3.2', '3.0'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Measure', '2019', '2020', '2021', '2022']);
  });

  it('reads footnotes beside a column of running text as two text columns, not a table', async () => {
    const [t, ...rest] = await tablesOf(footnotesBesideTextPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([['Region', 'Share'], ['North', '41%'], ['South', '33%'], ['East', '26%']]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Region', 'Share']);
  });

  it('cuts running text and a table title set beside it, on lines of their own, off the table below', async () => {
    const [t, ...rest] = await tablesOf(titleBesideTextPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([['Species', 'Share'], ['Kingfisher', '29%'], ['Bald eagle', '34%'], ['Osprey', '20%'], ['Common loon', '40%']]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Species', 'Share']);
  });

  it('leaves running text set beside a table out of it, though its lines pair up with the rows', async () => {
    const [t, ...rest] = await tablesOf(textBesideTablePdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Route', '2019', '2020', '2021'],
      ['North', '112', '120', '131'],
      ['East', '87', '91', '95'],
      ['South', '140', '152', '149'],
      ['West', '66', '70', '78'],
      ['Mean', '101', '108', '113'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Route', '2019', '2020', '2021']);
  });

  it('keeps section titles centred over the figure columns inside the table, each spanning all of them', async () => {
    const [t, ...rest] = await tablesOf(sectionTitleOverFiguresPdf());
    expect(rest).toHaveLength(0);
    const title = 'Percentage difference between actual and projected values', short = 'Projected, in thousands';
    expect(gridOf(t)).toEqual([
      ['Source', '2017', '2018', '2019', '2020'],
      ['Actual', '49,293', '49,266', '49,373', '49,484'],
      ['', short, short, short, short],
      ['Projection of 2017', '49,644', '49,825', '50,067', '50,353'],
      ['Projection of 2018', '49,470', '49,623', '49,788', '50,034'],
      ['', title, title, title, title],
      ['Projection of 2017', '0.7', '1.1', '1.4', '1.8'],
      ['Projection of 2018', '0.4', '0.7', '0.8', '1.1'],
    ]);
    expect(spansOf(t)).toEqual([[short, 2, 1, 1, 4], [title, 5, 1, 1, 4]]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Source', '2017', '2018', '2019', '2020']);
  });

  it('gives the caption and notes inside a frame round a whole exhibit back to the text, out of the table', async () => {
    const doc = await extractDocument(await framedExhibitPdf(), 'pdf');
    const [t, ...rest] = buildTables(doc, { merge: false, format: 'json' }).views.map((v) => v.table);
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Designation', 'Identified', 'Not identified'],
      ['Low-performing', '34%', '3%'],
      ['No designation', '11%', '33%'],
      ['High-performing', '2%', '18%'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Designation', 'Identified', 'Not identified']);
    const text = doc.pages[0].elements.filter((e) => e.kind !== 'table').map((e) => ('text' in e ? e.text : '')).join(' ');
    expect(text).toContain('Exhibit 4');
    expect(text).toContain('Source: Principal survey');
  });

  it('keeps a row whose label runs past twelve words beside its figures', async () => {
    const [t, ...rest] = await tablesOf(longRowLabelPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Process', 'Items', 'Percent', 'Trend'],
      ['Retrieve stated information', '33', '24', '19'],
      ['Make straightforward inferences', '46', '34', '26'],
      ['Interpret and integrate ideas', '38', '28', '20'],
      ['Examine and evaluate the content, the language and the textual elements of a text', '18', '13', '10'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Process', 'Items', 'Percent', 'Trend']);
  });

  it('cuts sub-column names set on one line over narrow figure columns apart, under their group headers', async () => {
    const [t, ...rest] = await tablesOf(subColumnNamesPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['', 'All items', 'All items', 'New items', 'New items', 'Trend items', 'Trend items'],
      ['Content domain and process', 'Number', 'Percent', 'Number', 'Percent', 'Number', 'Percent'],
      ['Total items', '135', '100', '60', '100', '75', '100'],
      ['Literary experience', '72', '53', '33', '55', '39', '52'],
      ['Acquire and use information', '63', '47', '27', '45', '36', '48'],
      ['Retrieve stated information', '33', '24', '14', '23', '19', '25'],
      ['Make inferences', '46', '34', '20', '33', '26', '35'],
      ['Interpret and integrate', '38', '28', '18', '30', '20', '27'],
    ]);
    expect(spansOf(t)).toEqual([['All items', 0, 1, 1, 2], ['New items', 0, 3, 1, 2], ['Trend items', 0, 5, 1, 2]]);
    expect(t.headerRows).toBe(2);
    expect(headerOf(t)).toEqual(['', 'All items', 'New items', 'Trend items', 'Content domain and process', 'Number', 'Percent', 'Number', 'Percent', 'Number', 'Percent']);
  });

  it('keeps flush-left section titles inside the table, and reads text columns with many long lone lines as no table', async () => {
    const [t, ...rest] = await tablesOf(flushLeftSectionTitlesPdf());
    expect(rest).toHaveLength(0);
    const first = 'Enrollment in public schools, in thousands of pupils', second = 'Change from the year before, in percent of pupils';
    expect(gridOf(t)).toEqual([
      ['Level', '2019', '2020', '2021', '2022'],
      ['', first, first, first, first],
      ['Elementary', '35,100', '35,300', '35,500', '35,600'],
      ['Secondary', '14,200', '14,300', '14,400', '14,500'],
      ['Total', '49,300', '49,600', '49,900', '50,100'],
      ['', second, second, second, second],
      ['Elementary', '0.4', '0.6', '0.6', '0.3'],
      ['Secondary', '0.2', '0.7', '0.7', '0.7'],
      ['Total', '0.3', '0.6', '0.6', '0.4'],
    ]);
    expect(spansOf(t)).toEqual([[first, 1, 1, 1, 4], [second, 5, 1, 1, 4]]);
    // the title right under the column names is read with them
    expect(t.headerRows).toBe(2);
    expect(headerOf(t)).toEqual(['Level', '2019', '2020', '2021', '2022', '', first]);
  });

  it('keeps a spanning header centred over the figure columns (not the stub header) above the column names', async () => {
    const [t, ...rest] = await tablesOf(spannerOverFigureColumnsPdf());
    expect(rest).toHaveLength(0);
    const lead = 'Lead time (years)';
    expect(gridOf(t)).toEqual([
      ['', lead, lead, lead, lead, lead],
      ['Statistic', '1', '2', '3', '4', '5'],
      ['Enrollment', '0.3', '0.6', '0.8', '1.1', '1.3'],
      ['Graduates', '1.0', '1.0', '1.5', '1.6', '1.5'],
      ['Teachers', '0.8', '1.4', '1.7', '2.2', '2.8'],
      ['Expenditures', '1.3', '2.1', '2.0', '2.1', '2.6'],
      ['Salaries', '0.9', '1.8', '2.3', '2.5', '3.0'],
    ]);
    expect(spansOf(t)).toEqual([[lead, 0, 1, 1, 5]]);
    expect(t.headerRows).toBe(2);
    expect(headerOf(t)).toEqual(['', lead, 'Statistic', '1', '2', '3', '4', '5']);
  });

  it('joins the runover line of a row label, set with a hanging indent under its figures\' line, into that row', async () => {
    const [t, ...rest] = await tablesOf(hangingLabelsPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Characteristic', 'Households', 'No.', '(%)'],
      ['Sex', '', '', ''],
      ['Male', '61,206', '2,862', '(4.7)'],
      ['Female', '49,486', '2,909', '(5.9)'],
      ['Race/Ethnicity', '', '', ''],
      ['White, non-Hispanic', '78,744', '3,174', '(4.0)'],
      ['Asian/Pacific Islander', '4,050', '174', '(4.3)'],
      ['American Indian/Alaska Native', '707', '51', '(7.2)'],
      ['Annual income ($)', '', '', ''],
      ['Under 25,000', '46,912', '2,771', '(9.4)'],
      ['25,000 or more, including all other incomes', '63,780', '3,000', '(4.7)'],
      ['Not reported', '5,215', '410', '(7.9)'],
    ]);
    expect(spansOf(t)).toEqual([]);
    // the section title right under the column names is read with them (as with flush-left titles)
    expect(t.headerRows).toBe(2);
    expect(headerOf(t)).toEqual(['Characteristic', 'Households', 'No.', '(%)', 'Sex', '', '', '']);
  });

  it('cuts a ruled row holding several records at the blank lines that set them apart', async () => {
    const [t, ...rest] = await tablesOf(blankLineRecordsPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Source', 'Definition', 'Examples'],
      ['Stationary:', '', ''],
      ['Major', 'Emissions of ten tons a year or more of any one pollutant', 'Utilities, refineries, steel makers'],
      ['Area', 'Emissions of less than ten tons a year of any pollutant', 'Dry cleaners, gas stations'],
      ['Mobile:', '', ''],
      ['On-road', 'Emissions from vehicles operated on public roads', 'Cars, buses, trucks'],
      ['Non-road', 'Emissions from engines and vessels operated off roads', 'Construction equipment, lawn and garden tools'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Source', 'Definition', 'Examples']);
  });

  it('reads column names running over two lines as one header row, over as few as three rows of figures', async () => {
    const [t, ...rest] = await tablesOf(runoverColumnNamesPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Item format', 'Number of items', 'Percent of items'],
      ['Total', '135', '100'],
      ['Multiple choice', '74', '55'],
      ['Constructed response', '61', '45'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Item format', 'Number of items', 'Percent of items']);
  });

  it('joins a record whose label runs over with a hanging indent and whose text beside it runs over too', async () => {
    const [t, ...rest] = await tablesOf(hangingTextRecordsPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Variable', 'Assumption'],
      ['Population', 'Consistent with census estimates'],
      ['Disposable income per capita in constant dollars', 'Changes of -1.9% to 2.2% with 1.4% annual growth'],
      ['Revenue from state sources per capita in constant dollars today', 'Changes of -2.4% to 2.3% with an annual growth rate of 1.3%'],
      ['Inflation rate', 'Between 1.0% and 2.0%'],
      ['Unemployment rate', 'Between 5.3% and 7.9%'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Variable', 'Assumption']);
  });

  it('keeps figure columns set about half an em apart as separate columns, their year names as well, and numbers with space-grouped digits whole', async () => {
    const [t, ...rest] = await tablesOf(closeFigureColumnsPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Industry', '2019', '2020', '2021', '2022', 'Jobs'],
      ['Agriculture', '12,345.6', '13,020.4', '9,871.2', '10,442.9', '1 204 331'],
      ['Mining', '2,310.5', '2,402.1', '2,655.0', '2,731.8', '98 410'],
      ['Manufacturing', '45,120.3', '47,006.7', '48,912.2', '50,003.4', '3 870 112'],
      ['Construction', '8,765.4', '9,012.3', '9,456.7', '9,877.1', '702 954'],
      ['Trade', '31,402.8', '33,157.9', '34,801.6', '36,220.5', '2 541 007'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Industry', '2019', '2020', '2021', '2022', 'Jobs']);
  });

  it('spans a group label set flush left over a straddle rule across the sub-columns the rule runs over', async () => {
    const [t, ...rest] = await tablesOf(straddleRuleGroupsPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['', 'Men', 'Men', 'Men', 'Women', 'Women', 'Women'],
      ['Age group', 'Number', 'Share', 'Rate', 'Number', 'Share', 'Rate'],
      ['Under 25', '1,204', '31.2', '4.1', '1,377', '35.8', '3.9'],
      ['25 to 44', '2,918', '44.0', '2.7', '3,102', '46.3', '2.5'],
      ['45 to 64', '2,455', '39.6', '3.0', '2,601', '41.1', '2.8'],
      ['65 and over', '1,090', '28.4', '5.2', '1,512', '30.9', '4.6'],
    ]);
    expect(spansOf(t)).toEqual([['Men', 0, 1, 1, 3], ['Women', 0, 4, 1, 3]]);
    expect(t.headerRows).toBe(2);
    expect(headerOf(t)).toEqual(['', 'Men', 'Women', 'Age group', 'Number', 'Share', 'Rate', 'Number', 'Share', 'Rate']);
  });

  it('keeps a row label wrapped onto a long second line in its row, and the table whole around it', async () => {
    const [t, ...rest] = await tablesOf(longWrappedLabelPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Household type', '2019', '2020', '2021'],
      ['Households', '12.1', '13.4', '14.0'],
      ['Families with two earners', '8.2', '8.9', '9.3'],
      ['Families with one earner and a dependent spouse who stays at home caring for young children', '3.1', '2.9', '2.7'],
      ['Single persons', '5.5', '5.9', '6.3'],
      ['Other', '1.2', '1.1', '1.0'],
      ['Retired couples', '4.4', '4.6', '4.9'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Household type', '2019', '2020', '2021']);
  });

  it('reads groups of rows set apart by blank lines as one table, and leaves the note under it out', async () => {
    const [t, ...rest] = await tablesOf(rowGroupsApartPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Region', '2019', '2020', '2021'],
      ['North', '12.1', '13.4', '14.0'],
      ['South', '8.2', '8.9', '9.3'],
      ['East', '3.1', '2.9', '2.7'],
      ['West', '5.5', '5.9', '6.3'],
      ['Central', '1.2', '1.1', '1.0'],
      ['Islands', '4.4', '4.6', '4.9'],
      ['Total', '34.5', '36.8', '38.2'],
      ['Mean', '5.8', '6.1', '6.4'],
      ['Median', '4.9', '5.3', '5.6'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Region', '2019', '2020', '2021']);
  });

  it('keeps close figure columns apart when figures carry note marks after their last digit', async () => {
    const [t, ...rest] = await tablesOf(closeFiguresWithNoteMarksPdf());
    expect(rest).toHaveLength(0);
    expect(gridOf(t)).toEqual([
      ['Industry', '2019', '2020', '2021', '2022'],
      ['Agriculture', '12,345.6', '13,020.4a', '9,871.2', '10,442.9'],
      ['Mining', '2,310.5', '2,402.1', '2,655.0b', '2,731.8'],
      ['Manufacturing', '45,120.3', '47,006.7', '48,912.2', '50,003.4c'],
      ['Construction', '8,765.4a', '9,012.3', '9,456.7', '9,877.1'],
      ['Trade', '31,402.8', '33,157.9', '34,801.6', '36,220.5'],
    ]);
    expect(spansOf(t)).toEqual([]);
    expect(t.headerRows).toBe(1);
    expect(headerOf(t)).toEqual(['Industry', '2019', '2020', '2021', '2022']);
  });
  it('reads no table in a box-and-arrow diagram whose arrows join its framed boxes into one group of rules', async () => {
    const pdf = await boxDiagramPdf();
    expect(await tablesOf(Promise.resolve(pdf))).toEqual([]);
    const doc = await extractDocument(pdf, 'pdf');
    const text = doc.pages[0].elements.map((e) => (e.kind === 'text' ? e.text : '')).join('\n');
    for (const label of ['Receive order', 'Check stock', 'Reserve items', 'Pack parcel', 'Print label', 'Ship parcel']) expect(text).toContain(label);
  });

  it('still reads a ruled table whose outer rules run on over an empty column', async () => {
    const tables = await tablesOf(drawPdf(({ text, hline, vline }) => {
      const xs = [72, 200, 260, 380], ys = [100, 120, 140, 160];
      for (const y of ys) hline(xs[0], xs[3], y);
      for (const x of xs) vline(x, ys[0], ys[3]);
      [['Item', 'Cost'], ['Paper', '12'], ['Ink', '30']].forEach(([a, b], r) => { text(a, 76, ys[r] + 14); text(b, 264, ys[r] + 14); });
    }));
    expect(tables).toHaveLength(1);
    expect(gridOf(tables[0]).map((row) => row.filter(Boolean))).toEqual([['Item', 'Cost'], ['Paper', '12'], ['Ink', '30']]);
  });
});
