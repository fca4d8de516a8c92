import { formatNumber, formatGeneral, formatText, isDateFormat, BUILTIN_NUM_FMTS } from './number-format.js';
import { isoToSerial } from './number-format-date.js';

describe('Excel number formats', () => {
  it.each([
    [1234.5, '#,##0.00', '1,234.50'],
    [-1234.5, '#,##0.00', '-1,234.50'],
    [-1234.5, '#,##0.00;(#,##0.00)', '(1,234.50)'],
    [0.256, '0.0%', '25.6%'],
    [0.5, '0%', '50%'],
    [1234.567, '"$"#,##0.00', '$1,234.57'],
    [-1234.567, '"$"#,##0.00_);[Red]("$"#,##0.00)', '($1,234.57)'],
    [1234.5, '[$€-407]#,##0.00', '€1,234.50'],
    [1234.5, '#,##0.00 [$€-1]', '1,234.50 €'],
    [0, '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)', '-'],
    [1234567, '#,##0,', '1,235'],
    [1500000, '0.0,,"M"', '1.5M'],
    [12345.678, '0.00E+00', '1.23E+04'],
    [0.000123, '0.00E+00', '1.23E-04'],
    [5, '000', '005'],
    [3.1, '#.##', '3.1'],
    [0.5, '#.##', '.5'],
    [5551234567, '(###) ###-####', '(555) 123-4567'],
    [1.25, '# ?/?', '1 1/4'],
    [0.75, '?/4', '3/4'],
    [42, '0;[Red]-0;"zero"', '42'],
    [0, '0;-0;"zero"', 'zero'],
    [150, '[>100]"big";"small"', 'big'],
    [7, '"Qty: "0', 'Qty: 7'],
    [3, '0\\x', '3x'],
  ])('%p with %p → %p', (v, code, out) => {
    expect(formatNumber(v, code)).toBe(out);
  });

  it.each([
    [45292, 'm/d/yyyy', '1/1/2024'],
    [45292, 'yyyy-mm-dd', '2024-01-01'],
    [45292.75, 'yyyy-mm-dd hh:mm', '2024-01-01 18:00'],
    [45292.75, 'h:mm AM/PM', '6:00 PM'],
    [45292, 'dddd, mmmm d, yyyy', 'Monday, January 1, 2024'],
    [45292, 'd-mmm-yy', '1-Jan-24'],
    [1.5, '[h]:mm:ss', '36:00:00'],
    [0.000011574, 'mm:ss.0', '00:01.0'],
    [60, 'yyyy-mm-dd', '1900-02-29'],
    [61, 'yyyy-mm-dd', '1900-03-01'],
    [1, 'yyyy-mm-dd', '1900-01-01'],
  ])('date %p with %p → %p', (v, code, out) => {
    expect(formatNumber(v, code)).toBe(out);
  });

  it('uses the 1904 date system when asked', () => {
    expect(formatNumber(0, 'yyyy-mm-dd', { date1904: true })).toBe('1904-01-01');
    expect(formatNumber(43830, 'yyyy-mm-dd', { date1904: true })).toBe('2024-01-01');
  });

  it('formats General like Excel', () => {
    expect(formatGeneral(0.1 + 0.2)).toBe('0.3');
    expect(formatGeneral(123456789012)).toBe('1.23457E+11');
    expect(formatGeneral(1 / 3)).toBe('0.333333333');
    expect(formatGeneral(-42)).toBe('-42');
  });

  it('knows built-in ids and date codes', () => {
    expect(isDateFormat(BUILTIN_NUM_FMTS[14])).toBe(true);
    expect(isDateFormat(BUILTIN_NUM_FMTS[4])).toBe(false);
    expect(isDateFormat('[Red]0.00')).toBe(false);
    expect(isDateFormat('General')).toBe(false);
    expect(formatNumber(0.256, BUILTIN_NUM_FMTS[10])).toBe('25.60%');
    expect(formatNumber(1234, BUILTIN_NUM_FMTS[38])).toBe('1,234');
    expect(formatNumber(-1234, BUILTIN_NUM_FMTS[38])).toBe('(1,234)');
  });

  it('wraps text with the text section', () => {
    expect(formatText('abc', '0;-0;0;"<"@">"')).toBe('<abc>');
    expect(formatText('abc', '@')).toBe('abc');
  });

  it('converts ISO dates to serials', () => {
    expect(isoToSerial('2024-01-01T00:00:00', {})).toBe(45292);
  });
});
