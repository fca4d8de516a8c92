import type { FillableCell } from '@quire/models';
import { formatValue, mapFormInstructionsByLabel } from './map.js';

const cells: FillableCell[] = [
  { index: 0, label: 'Full name', type: 'text', page: 1, currentText: '' },
  { index: 1, label: 'Date of birth', type: 'text', page: 1, currentText: '', datePattern: 'MM/DD/YYYY' },
  { index: 2, label: 'Marital status', type: 'checkbox', page: 1, currentText: '', options: ['Single', 'Married', 'Divorced'] },
  { index: 3, label: '3. Do you smoke?', type: 'checkbox', page: 1, currentText: '', options: ['Yes', 'No'] },
  { index: 4, label: 'Signature', type: 'signature', page: 1, currentText: '' },
  { index: 5, label: 'ZIP code', type: 'text', page: 1, currentText: '', maxLength: 5 },
  { index: 6, label: 'Newsletter', type: 'checkbox', page: 1, currentText: '' },
  { index: 7, label: 'Country', type: 'text', page: 1, currentText: '', options: ['France', 'Poland', 'United States'] },
];
const byCell = (instr: string, cs = cells) => {
  const r = mapFormInstructionsByLabel({ instructions: instr, cells: cs });
  return { map: Object.fromEntries(r.assignments.map((a) => [a.cellIndex, a.value])), r };
};

describe('form instruction mapper: the cases of the first built-in mapper', () => {
  it("maps the issue's example sentence", () => {
    const { map, r } = byCell("Name: Jane Doe; date of birth 2 Feb 1990; she is married; check 'No' for question 3; sign as J. Doe");
    expect(map).toEqual({ 0: 'Jane Doe', 1: '02/02/1990', 2: 'Married', 3: 'No', 4: 'J. Doe' });
    expect(r.unmatched).toEqual([]);
    expect(r.assignments.find((a) => a.cellIndex === 1)?.instruction).toBe('date of birth 2 Feb 1990');
  });

  it('understands "set X to Y", "X is Y", "X = Y", tick and uncheck', () => {
    const { map } = byCell('Set the ZIP code to 12345. My full name is Ada Lovelace. Country = poland. Tick newsletter. Uncheck No for question 3');
    expect(map).toEqual({ 0: 'Ada Lovelace', 5: '12345', 6: 'true', 7: 'Poland', 3: 'false' });
  });

  it('formats values to the field and reports what it changed', () => {
    const { r } = byCell('zip code: 12-345-678; date of birth: 1990-02-28');
    const zip = r.assignments.find((a) => a.cellIndex === 5)!;
    expect(zip.value).toBe('12345');
    expect(zip.note).toMatch(/truncated to 5/);
    expect(r.assignments.find((a) => a.cellIndex === 1)!.value).toBe('02/28/1990');
    expect(formatValue({ ...cells[1], datePattern: 'DD.MM.YYYY' }, 'March 5th, 2001').value).toBe('05.03.2001');
    expect(formatValue(cells[5], '123 45').value).toBe('12345');
  });

  it('reports fragments that name nothing on the form', () => {
    const { map, r } = byCell('Name: Jane; favourite colour: blue; check Maybe for question 3');
    expect(map).toEqual({ 0: 'Jane' });
    expect(r.unmatched).toEqual(['favourite colour: blue', 'check Maybe for question 3']);
  });

  it('answers yes/no to a single checkbox and negated facts', () => {
    expect(byCell('Newsletter: yes').map).toEqual({ 6: 'true' });
    expect(byCell('Newsletter: no').map).toEqual({ 6: 'false' });
  });
});
