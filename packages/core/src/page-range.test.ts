import { parsePageRange } from './page-range.js';
import { QuireError } from './errors.js';

describe('parsePageRange', () => {
  it('parses ranges and singles, sorted and unique', () => {
    expect(parsePageRange('3,1-2, 2')).toEqual([1, 2, 3]);
  });
  it.each(['', '0', '3-1', 'a', '1-', '1,,2'])('rejects %p with REQ_006', (s) => {
    expect(() => parsePageRange(s)).toThrow(QuireError);
    try { parsePageRange(s); } catch (e) { expect((e as QuireError).code).toBe('REQ_006'); }
  });
  it('rejects pages beyond the document', () => {
    expect(() => parsePageRange('1-5', 3)).toThrow(/outside the document/);
  });
});
