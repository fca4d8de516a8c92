import { parseCellValue } from './cell-value.js';

describe('parseCellValue', () => {
  it.each([
    ['(1,234.5)', { type: 'number', value: -1234.5 }],
    ['12 %', { type: 'percent', value: 12, unit: '%' }],
    ['-3.5%', { type: 'percent', value: -3.5, unit: '%' }],
    ['$1,200', { type: 'currency', value: 1200, unit: '$' }],
    ['€ 3,50', { type: 'currency', value: 3.5, unit: '€' }],
    ['1.234.567', { type: 'number', value: 1234567 }],
    ['1.234,5', { type: 'number', value: 1234.5 }],
    ['12 345', { type: 'number', value: 12345 }],
    ['−7', { type: 'number', value: -7 }],
    ['2023', { type: 'number', value: 2023 }],
    ['–', { type: 'missing', value: null }],
    ['n/a', { type: 'missing', value: null }],
    ['', { type: 'empty', value: null }],
    ['North', { type: 'string', value: 'North' }],
    ['12 34 56', { type: 'string', value: '12 34 56' }],
    ['Q1 2023', { type: 'string', value: 'Q1 2023' }],
  ])('%s', (text, expected) => expect(parseCellValue(text)).toEqual(expected));
});
