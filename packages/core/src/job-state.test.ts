import { canTransition, fromStatusesFor, assertCancelable } from './job-state.js';

describe('job state machine', () => {
  it('never lets a canceled job complete', () => {
    expect(canTransition('canceled', 'completed')).toBe(false);
    expect(fromStatusesFor('completed')).toEqual(['processing']);
  });
  it('claims only from pending or queued', () => {
    expect(fromStatusesFor('processing').sort()).toEqual(['pending', 'queued']);
  });
  it('a second cancel is JOB_002', () => {
    expect(() => assertCancelable('canceled')).toThrow(expect.objectContaining({ code: 'JOB_002' }));
    expect(() => assertCancelable('processing')).not.toThrow();
  });
});
