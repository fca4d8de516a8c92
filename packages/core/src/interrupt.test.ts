import { checkInterrupt, interruptible } from './interrupt.js';

describe('interruptible / checkInterrupt', () => {
  it('checkInterrupt calls the check of the work running under interruptible, and nothing outside it', () => {
    let calls = 0;
    const check = () => { calls++; };
    checkInterrupt();
    expect(interruptible(check, () => { checkInterrupt(); checkInterrupt(); return 'done'; })).toBe('done');
    checkInterrupt();
    expect(calls).toBe(2);
  });

  it('the check\'s error ends the work and reaches the caller; the scope is left either way', () => {
    const stop = new Error('stopped');
    let steps = 0;
    const work = () => { for (;;) { checkInterrupt(); steps++; } };
    expect(() => interruptible(() => { if (steps === 3) throw stop; }, work)).toThrow(stop);
    expect(steps).toBe(3);
    expect(() => checkInterrupt()).not.toThrow();
  });

  it('a nested call without a check keeps the outer one; with one, uses its own until it returns', () => {
    const seen: string[] = [];
    interruptible(() => seen.push('outer'), () => {
      interruptible(undefined, () => checkInterrupt());
      interruptible(() => seen.push('inner'), () => checkInterrupt());
      checkInterrupt();
    });
    expect(seen).toEqual(['outer', 'inner', 'outer']);
  });

  it('refuses asynchronous work, whose checks after its first await would run outside the scope', () => {
    expect(() => interruptible(() => undefined, async () => undefined)).toThrow(/synchronous work only/);
  });
});
