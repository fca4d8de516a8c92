import { makePersonForm, makeQuestionForm, makeSectionForm, makeTaxIdForm } from '../../../../tests/fixtures/forms/make-labelled-forms.js';
import { toFillableCells } from '../convert.js';
import { detectForm } from '../detect.js';
import { fillForm } from '../fill.js';
import type { DetectedCell } from '../types.js';
import { bestAssignment } from './assignment.js';
import { mapFormInstructionsByLabel } from './map.js';
import { parseClause, splitClauses } from './parse.js';

/** Fills the generated PDF and reads it back: printed label → value (checkboxes: "x" when ticked). */
async function fillAndRead(pdf: Uint8Array, instructions: string) {
  const { cells } = await detectForm(pdf);
  const answer = mapFormInstructionsByLabel({ instructions, cells: toFillableCells(cells) });
  const r = await fillForm(pdf, cells, answer.assignments);
  const after = (await detectForm(r.pdf)).cells;
  const read = (c: DetectedCell) => (c.type === 'checkbox' ? (c.checkbox_details?.some((d) => d.selected) ? 'x' : '') : c.text);
  const byLabel: Record<string, string> = {};
  for (const c of after) { const k = c.labels?.printed ?? c.labels?.name ?? c.label; byLabel[k] = read(c); }
  return { answer, unapplied: r.unapplied, values: byLabel, cells };
}

const PERSON = {
  'Last name': 'Smith', 'First name': 'John', 'Middle name': 'Allen', 'Street address': '12 Oak Street', City: 'Springfield', State: 'IL', 'ZIP code': '62704',
  'Social security number': '123', 'f1 09': '45', 'f1 10': '6789', Phone: '555-123-4567', 'Date of birth (MM/DD/YYYY)': '03/04/1985', Married: 'x', Single: '',
};

describe('fill from instructions on a form whose fields are named f1_01…, matched by their printed labels', () => {
  let person: Uint8Array, taxId: Uint8Array;
  beforeAll(async () => { person = await makePersonForm(); taxId = await makeTaxIdForm(); });

  it('"label: value" lines', async () => {
    const r = await fillAndRead(person, [
      'Last name: Smith', 'First name: John', 'Middle name: Allen', 'Address: 12 Oak Street, Springfield, IL 62704',
      'SSN: 123-45-6789', 'Phone: 555-123-4567', 'Date of birth: March 4, 1985', 'Marital status: married',
    ].join('\n'));
    expect(r.values).toMatchObject(PERSON);
    expect(r.answer.unplaced).toEqual([]);
    expect(r.unapplied).toEqual([]);
  }, 60_000);

  it('one sentence', async () => {
    const r = await fillAndRead(person, 'My name is John Allen Smith, my SSN is 123-45-6789, my phone is 555-123-4567, I was born on March 4, 1985, I live at 12 Oak Street, Springfield, IL 62704 and I am married.');
    expect(r.values).toMatchObject(PERSON);
    expect(r.answer.unplaced).toEqual([]);
  }, 60_000);

  it('a paragraph about the person', async () => {
    const r = await fillAndRead(person, 'His name is John Allen Smith. He was born on 4 March 1985 and lives at 12 Oak Street, Springfield, IL 62704. '
      + 'His phone number is 555-123-4567 and his social security number is 123 45 6789. He is married. He works at Acme Tools, '
      + 'email john.smith@example.com.');
    expect(r.values).toMatchObject({ ...PERSON, Email: 'john.smith@example.com', '3a Employer': 'Acme Tools' });
    expect(r.answer.unplaced).toEqual([]);
  }, 60_000);

  it('"name Smith, first name John, middle name Allen": one pair per clause, the bare "name" takes the name field left', async () => {
    const r = await fillAndRead(person, 'name Smith, first name John, middle name Allen');
    expect(r.values).toMatchObject({ 'Last name': 'Smith', 'First name': 'John', 'Middle name': 'Allen' });
    const mapping = r.answer.assignments.map((a) => [a.instruction, r.cells[a.cellIndex].labels?.printed]);
    expect(mapping).toEqual([['name Smith', 'Last name'], ['first name John', 'First name'], ['middle name Allen', 'Middle name']]);
  }, 60_000);

  it('values for fields named by line number, and a value that fits nothing is listed with why', async () => {
    const r = await fillAndRead(person, 'line 3a: Acme Tools\nFavourite colour: blue\nI am single');
    expect(r.values).toMatchObject({ '3a Employer': 'Acme Tools', Single: 'x', Married: '' });
    expect(r.answer.unplaced).toEqual([{ instruction: 'Favourite colour: blue', value: 'blue', reason: expect.stringMatching(/no field's printed label, tooltip or name matches "Favourite colour"/) }]);
  }, 60_000);

  it('a W-9-like form: the address goes to line 5 (not the requester box), city/state/ZIP to line 6, the SSN and EIN whole across their comb boxes', async () => {
    const r = await fillAndRead(taxId, 'Name: John Smith\nBusiness name: Smith Consulting\nAddress: 12 Oak Street, Springfield, IL 62704\n'
      + 'SSN: 123-45-6789\nEIN: 12-3456789\ncheck the box for Individual/sole proprietor');
    expect(r.values).toMatchObject({
      '1 Name (as shown on your income tax return)': 'John Smith', '2 Business name, if different from above': 'Smith Consulting',
      '5 Address (number, street, and apt. or suite no.)': '12 Oak Street', "Requester's name and address": '',
      '6 City, state, and ZIP code': 'Springfield, IL 62704',
      'Social security number': '123', 'f1 7': '45', 'f1 8': '6789', 'Employer identification number': '12', 'f1 10': '3456789',
      'Individual/sole proprietor': 'x', 'C Corporation': '',
    });
    expect(r.answer.unplaced).toEqual([]);
  }, 60_000);

  it('an SSN is not written into a field that is not for one', async () => {
    const r = await fillAndRead(taxId, 'Requester: 123-45-6789');
    expect(r.values["Requester's name and address"]).toBe('');
    expect(r.answer.unplaced?.[0].reason).toMatch(/looks like an SSN/);
  }, 60_000);
});

describe('printed labels that hold their own punctuation, word order and casing', () => {
  let form: Uint8Array;
  beforeAll(async () => { form = await makeQuestionForm(); });
  const LONG = 'Did you or your spouse live, work and study abroad for more than six months in the last three years or since?';
  const WANT = {
    Name: 'Ann Lee', 'Do you have children and pets?': 'Two cats', 'Are you a member or a guest?': 'Guest', 'Guests only!': 'Room 4',
    'Contact name': 'Bo Lee', 'Name of contact': 'Cy Lee', 'LinkedIn profile': 'annlee', City: 'Springfield', [LONG]: 'Yes, in France',
  };

  it('"label: value" lines, in another order than the form\'s', async () => {
    const r = await fillAndRead(form, Object.entries(WANT).reverse().map(([k, v]) => `${k.replace(/\?$/, '')}: ${v}`).join('\n'));
    expect(r.values).toMatchObject(WANT);
  }, 60_000);

  it('one sentence, in lower case: a "?" or "!" inside a label does not end the sentence', async () => {
    const r = await fillAndRead(form, 'name Ann Lee, do you have children and pets? Two cats, are you a member or a guest? Guest, guests only! Room 4, '
      + `name of contact Cy Lee, contact name Bo Lee, linkedin profile annlee, city Springfield and ${LONG.toLowerCase().replace(/\?$/, '')} Yes, in France.`);
    expect(r.values).toMatchObject(WANT);
    expect(r.answer.unplaced).toEqual([]);
  }, 60_000);

  it('a paragraph about the person', async () => {
    const r = await fillAndRead(form, 'My name is Ann Lee. My do you have children and pets? is Two cats. My are you a member or a guest? is Guest. '
      + `My guests only! is Room 4. My name of contact is Cy Lee. My contact name is Bo Lee. My linkedin profile is annlee. My city is Springfield. My ${LONG.toLowerCase()} is Yes, in France.`);
    expect(r.values).toMatchObject(WANT);
    expect(r.answer.unplaced).toEqual([]);
  }, 60_000);

  it('a real question mark or exclamation mark still ends a sentence', () => {
    const names = (p: string, from = 1) => (from <= 1 && /^name\b/i.test(p) ? 1 : 0);
    expect(splitClauses('Is this right? My name is Jo Smith', names)).toEqual(['Is this right', 'My name is Jo Smith']);
    expect(splitClauses('I am single! My name is Jo', names)).toEqual(['I am single', 'My name is Jo']);
  });
});

describe('fields printed with the same label under two section headings', () => {
  let form: Uint8Array;
  beforeAll(async () => { form = await makeSectionForm(); });
  /** Field name → value read back (names f1_* under "Your information", f2_* under "Spouse"). */
  async function byName(instructions: string) {
    const r = await fillAndRead(form, instructions);
    const after = (await detectForm((await fillForm(form, r.cells, r.answer.assignments)).pdf)).cells;
    return { r, values: Object.fromEntries(after.map((c) => [c.source.kind === 'acroform' ? c.source.fieldName : '', c.text])) };
  }
  const WANT = { f1_1: 'John', f1_2: 'Smith', f1_3: '03/03/1980', f2_1: 'Jane', f2_2: 'Doe', f2_3: '07/12/1982' };

  it('detects the heading each field stands under', async () => {
    const { cells } = await detectForm(form);
    expect(cells.map((c) => [c.labels?.printed, c.labels?.section])).toEqual([
      ['First name', 'Your information'], ['Last name', 'Your information'], ['Date of birth', 'Your information'],
      ['First name', 'Spouse'], ['Last name', 'Spouse'], ['Date of birth', 'Spouse'],
    ]);
  }, 60_000);

  it('"label: value" lines naming the section, the spouse first', async () => {
    const { values } = await byName('Spouse first name: Jane\nSpouse last name: Doe\nSpouse date of birth: 07/12/1982\nFirst name: John\nLast name: Smith\nDate of birth: 03/03/1980');
    expect(values).toMatchObject(WANT);
  }, 60_000);

  it('a paragraph: "my spouse\'s first name is …"', async () => {
    const { values, r } = await byName("My spouse's date of birth is 07/12/1982 and my spouse's last name is Doe. My spouse's first name is Jane. "
      + 'My first name is John, my last name is Smith and my date of birth is 03/03/1980.');
    expect(values).toMatchObject(WANT);
    expect(r.answer.unplaced).toEqual([]);
  }, 60_000);
});

describe('instruction parsing', () => {
  const none = () => false;
  it('splits lists, sentences and clauses but keeps an address or a date whole', () => {
    expect(splitClauses('- Name: Jane Doe\n- Address: 1 Main St, Springfield, IL 62704', none)).toEqual(['Name: Jane Doe', 'Address: 1 Main St, Springfield, IL 62704']);
    expect(splitClauses('I was born on March 4, 1985, and I am single. My email is a@b.co', none)).toEqual(['I was born on March 4, 1985', 'I am single', 'My email is a@b.co']);
    expect(splitClauses('Smoker? No. My email is a@b.co', none)).toEqual(['Smoker? No', 'My email is a@b.co']);
    expect(splitClauses('Apt. No.: 4\nI am single. Name: Jo', none)).toEqual(['Apt. No.: 4', 'I am single', 'Name: Jo']);
    // namesField: how well the leading words (from the given word on) name a field
    const names = (p: string, from = 1) => (from <= 2 && /^(first|last) name\b/i.test(p) ? 1 : 0);
    expect(splitClauses('first name John, last name Smith', names)).toEqual(['first name John', 'last name Smith']);
    expect(splitClauses('City, state, and ZIP code: Springfield, IL 62704', none)).toEqual(['City, state, and ZIP code: Springfield, IL 62704']);
  });
  it('reads the common statement forms', () => {
    expect(parseClause('check the box for Single')).toMatchObject({ kind: 'choose', option: 'Single', on: true });
    expect(parseClause("check 'No' for question 3")).toMatchObject({ kind: 'choose', option: 'No', target: 'question 3' });
    expect(parseClause('I am single')).toMatchObject({ kind: 'fact', value: 'single', negated: false });
    expect(parseClause('my name is Jane')).toMatchObject({ kind: 'value', label: 'name', value: 'Jane' });
    expect(parseClause('I live at 1 Main St')).toMatchObject({ kind: 'value', label: 'address', value: '1 Main St' });
    expect(parseClause('sign as J. Doe')).toMatchObject({ kind: 'sign', value: 'J. Doe' });
    expect(parseClause('first name John')).toMatchObject({ kind: 'loose' });
  });
  it('assigns one value per field, best total score', () => {
    // row 0 alone would take column 0; the best total gives it column 1
    expect(bestAssignment([[0.9, 0.8], [0.85, 0.1]], 0.5)).toEqual([1, 0]);
    expect(bestAssignment([[0.3, 0.2]], 0.5)).toEqual([-1]);
  });
});

describe('fields sharing one printed label', () => {
  it('a value for a label printed over several fields goes to the first in reading order', () => {
    const cell = (index: number, top: number) => ({ index, label: 'Amount', printedLabel: 'Amount', type: 'text' as const, page: 1, currentText: '', box: [0.5, top, 0.7, top + 0.02] as [number, number, number, number] });
    const cells = [cell(0, 0.2), cell(1, 0.3), cell(2, 0.4)];
    const a = mapFormInstructionsByLabel({ instructions: 'Amount: 120', cells });
    expect(a.assignments).toEqual([expect.objectContaining({ cellIndex: 0, value: '120' })]);
  });
  it('the tooltip tells apart two fields printed "Address"; a broad meaning ("address") does not outrank it', () => {
    const cells = [
      { index: 0, label: 'Address Apt No', printedLabel: 'Address', tooltip: 'Address Apt No._Row_1', type: 'text' as const, page: 1, currentText: '' },
      { index: 1, label: 'Address', printedLabel: 'Address', type: 'text' as const, page: 1, currentText: '' },
    ];
    const a = mapFormInstructionsByLabel({ instructions: 'Address Apt No: 4B\nAddress: 12 Oak Street', cells });
    expect(a.assignments.map((x) => [x.cellIndex, x.value])).toEqual([[0, '4B'], [1, '12 Oak Street']]);
  });
  it('a printed label that opens with a verb ("Select your favorite planet") still takes its value', () => {
    const cells = [{ index: 0, label: 'Select your favorite planet', printedLabel: 'Select your favorite planet', type: 'text' as const, page: 1, currentText: '', options: ['Earth', 'Mars', 'Pluto'] }];
    const a = mapFormInstructionsByLabel({ instructions: 'select your favorite planet Pluto', cells });
    expect(a.assignments.map((x) => [x.cellIndex, x.value])).toEqual([[0, 'Pluto']]);
  });
  it('possessives and plurals do not hide a label ("Requester", "account numbers")', () => {
    const cell = (index: number, printedLabel: string) => ({ index, label: printedLabel, printedLabel, type: 'text' as const, page: 1, currentText: '' });
    const cells = [cell(0, "Requester’s name and address (optional)"), cell(1, '7 List account number(s) here (optional)')];
    const a = mapFormInstructionsByLabel({ instructions: 'Requester: Acme Bank\nAccount numbers: 4471', cells });
    expect(a.assignments.map((x) => [x.cellIndex, x.value])).toEqual([[0, 'Acme Bank'], [1, '4471']]);
  });
});
