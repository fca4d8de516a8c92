import { QuireError, isQuireError } from '@quire/core';
import { JobStoppedError } from './job-handler.js';
import { fromWire, toWire } from './thread-protocol.js';

describe('errors across threads', () => {
  it('keep their code, details and type', () => {
    const q = fromWire(toWire(new QuireError('FILE_003', 'The PDF could not be read', { reason: 'bad xref' })));
    expect(isQuireError(q) && q instanceof QuireError).toBe(true);
    expect(q).toMatchObject({ code: 'FILE_003', message: 'The PDF could not be read', details: { reason: 'bad xref' }, status: 400 });
    const stopped = fromWire(toWire(new JobStoppedError('canceled')));
    expect(stopped).toBeInstanceOf(JobStoppedError);
    expect((stopped as JobStoppedError).status).toBe('canceled');
    const other = fromWire(toWire(new TypeError('x is not a function')));
    expect(isQuireError(other)).toBe(false);
    expect(other).toMatchObject({ name: 'TypeError', message: 'x is not a function' });
    expect(fromWire(toWire('a thrown string')).message).toBe('a thrown string');
  });

  it('drop details that cannot be cloned rather than failing to report', () => {
    const w = toWire(new QuireError('PROC_001', 'failed', { at: 3, fn: () => 1 } as Record<string, unknown>));
    expect(w).toEqual({ kind: 'quire', code: 'PROC_001', message: 'failed', details: { at: 3 } });
  });
});
