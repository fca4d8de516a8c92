import { classifyCrash } from './crash-error.js';
import { fromWire, toWire } from './thread-protocol.js';

function stackOverflow(): unknown {
  const down = (n: number): number => down(n + 1) + 1;
  try { down(0); } catch (e) { return e; }
  throw new Error('no stack overflow');
}

describe('classifyCrash', () => {
  test('a stack overflow is an input nested too deep: FILE_003 for documents, SCHEMA_002 for schema work, never retried', () => {
    const e = stackOverflow();
    expect(classifyCrash(e, 'extract')).toMatchObject({ retry: false, error: { code: 'FILE_003' } });
    expect(classifyCrash(e, 'schema')).toMatchObject({ retry: false, error: { code: 'SCHEMA_002' } });
    expect(classifyCrash(e, 'extract').error.status).toBe(400);
  });

  test('the verdict survives the job thread boundary (the error arrives rebuilt from the wire)', () => {
    expect(classifyCrash(fromWire(toWire(stackOverflow())), 'tables')).toMatchObject({ retry: false, error: { code: 'FILE_003' } });
    expect(classifyCrash(fromWire(toWire(new TypeError('x is not a function'))), 'extract')).toMatchObject({ retry: false, error: { code: 'GENERAL_001' } });
  });

  test('other crashes are GENERAL_001 and retried; a RangeError that is not an overflow is not an input error', () => {
    expect(classifyCrash(new Error('job thread exited (code 1)'), 'extract')).toMatchObject({ retry: true, error: { code: 'GENERAL_001' } });
    expect(classifyCrash(new RangeError('Invalid array length'), 'extract')).toMatchObject({ retry: true, error: { code: 'GENERAL_001' } });
    expect(classifyCrash('a string', 'extract')).toMatchObject({ retry: true, error: { code: 'GENERAL_001' } });
  });
});
