import { findDates, inferDayFirst } from './dates.js';

describe('written dates in the languages of European and Asian business paper', () => {
  it.each([
    ['14 marzo 2024', '2024-03-14'], ['14 de marzo de 2024', '2024-03-14'], ['14 de março de 2024', '2024-03-14'], ['14 maart 2024', '2024-03-14'],
    ['14 mars 2024', '2024-03-14'], ['14. März 2024', '2024-03-14'], ['14 marca 2024', '2024-03-14'], ['1 października 2023', '2023-10-01'],
    ['3 augusti 2022', '2022-08-03'], ['21 novembre 2022', '2022-11-21'], ['5 mei 2021', '2021-05-05'],
    ['2024年3月14日', '2024-03-14'], ['2024년 3월 14일', '2024-03-14'], ['Le lundi 21 novembre 2022', '2022-11-21'],
    // abbreviated month words of German, Dutch, Spanish and Italian paper
    ['27. Okt. 2024', '2024-10-27'], ['3. Dez. 2024', '2024-12-03'], ['12 mrt 2024', '2024-03-12'], ['5 dic. 2024', '2024-12-05'], ['9 ene 2024', '2024-01-09'],
    ['3 ott 2024', '2024-10-03'], ['14 giu 2024', '2024-06-14'], ['21 ago 2024', '2024-08-21'], ['2 de setiembre de 2024', '2024-09-02'],
    // Danish and Norwegian, Czech and Slovak (genitive), Romanian, Catalan, Turkish, Russian; Hungarian year first
    ['14. marts 2024', '2024-03-14'], ['14. desember 2024', '2024-12-14'], ['14. března 2024', '2024-03-14'], ['2. října 2023', '2023-10-02'],
    ['14. apríla 2024', '2024-04-14'], ['14 martie 2024', '2024-03-14'], ['14 de juliol de 2024', '2024-07-14'], ['14 Şubat 2024', '2024-02-14'],
    ['14 марта 2024', '2024-03-14'], ['2024. március 14.', '2024-03-14'],
    // the month word between dashes or slashes, month or year first
    ['Dec 31,2024', '2024-12-31'], ['31 de diciembre del 2024', '2024-12-31'],
    ['Feb-03-2017', '2017-02-03'], ['Invoice date: Mar/14/2024', '2024-03-14'], ['2017-Feb-03', '2017-02-03'], ['2024 Mar 14', '2024-03-14'],
  ])('%s → %s', (text, iso) => {
    expect(findDates(text)[0]?.iso).toBe(iso);
  });
});

describe('day/month order from the document', () => {
  it('counts only real dates: a time printed with dots ("10.59.33") is no month-first date', () => {
    expect(inferDayFirst(['TIME 10.59.33', 'DATE 06.03.2018'])).toBeUndefined();
    expect(inferDayFirst(['TIME 10.59.33', 'DATE 06.03.2018'], true)).toBe(true);
    expect(inferDayFirst(['DUE 03/25/2018', 'DATE 06/03/2018'])).toBe(false);
    expect(inferDayFirst(['25/03/2018'])).toBe(true);
  });
});

describe('numeric dates with a space after each point', () => {
  it.each([
    ['Datum vystavení: 14. 3. 2024', '2024-03-14'], ['14. 03. 2024', '2024-03-14'], ['Kelt: 2024. 03. 14.', '2024-03-14'],
    // a slash or dash with a space beside it, as OCR reads a date or a form prints it, with a full year
    ['Date: 14 /03/ 2024', '2024-03-14'], ['14/03 /2024', '2024-03-14'], ['14 / 03 / 2024', '2024-03-14'], ['14-03- 2024', '2024-03-14'],
  ])('%s → %s', (text, iso) => {
    expect(findDates(text)[0]?.iso).toBe(iso);
  });

  it('reads no date in amounts and short numbers set the same way ("Pos. 1. 2. 24", "12. 50")', () => {
    expect(findDates('Pos. 1. 2. 24')).toEqual([]);
    expect(findDates('Preis 12. 50')).toEqual([]);
    expect(findDates('Seite 1 / 2 / 24')).toEqual([]);
  });
});
