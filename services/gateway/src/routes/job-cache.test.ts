import { CompletedJobCache } from './jobs.js';

const view = (bytes: number) => ({ body: Buffer.alloc(bytes), etag: undefined });
const later = Date.now() + 3_600_000;

describe('CompletedJobCache', () => {
  it('keeps views until their time is up or the job expires', () => {
    const c = new CompletedJobCache(5_000);
    c.set('a', view(10), later);
    c.set('gone', view(10), Date.now() - 1);
    expect(c.get('a')?.body.length).toBe(10);
    expect(c.get('gone')).toBeUndefined();
    const off = new CompletedJobCache(0);
    off.set('a', view(10), later);
    expect(off.get('a')).toBeUndefined();
  });

  it('lets go of views whose time is up when the next one is stored, though nobody asks for them again', () => {
    const { jest } = import.meta;
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const c = new CompletedJobCache(5_000);
      for (let i = 0; i < 50; i++) c.set(`old${i}`, view(1_000), later);
      jest.setSystemTime(1_000_000 + 6_000);
      c.set('new', view(10), later);
      expect(c.size).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('is bounded by bytes as well as entries, oldest out first', () => {
    const c = new CompletedJobCache(5_000, 100, 1_000);
    c.set('a', view(200), later);
    c.set('b', view(200), later);
    c.set('c', view(200), later);
    c.set('d', view(200), later);
    c.set('e', view(200), later); // 1,000 bytes: all fit
    expect(['a', 'b', 'c', 'd', 'e'].map((k) => Boolean(c.get(k)))).toEqual([true, true, true, true, true]);
    c.set('f', view(250), later); // over the bound: the two oldest go
    expect(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => Boolean(c.get(k)))).toEqual([false, false, true, true, true, true]);
    c.set('c', view(10), later); // replacing an entry counts its new size only (and makes it the newest)
    c.set('g', view(250), later); // 910 bytes
    c.set('h', view(250), later); // 1,160: the oldest (d) goes
    expect(['c', 'd', 'e', 'f', 'g', 'h'].map((k) => Boolean(c.get(k)))).toEqual([true, false, true, true, true, true]);
    c.set('huge', view(300), later); // over a quarter of the bound: not kept at all, nothing evicted for it
    expect(c.get('huge')).toBeUndefined();
    expect(Boolean(c.get('e'))).toBe(true);
  });

  it('is bounded by entries', () => {
    const c = new CompletedJobCache(5_000, 2);
    c.set('a', view(1), later);
    c.set('b', view(1), later);
    c.set('c', view(1), later);
    expect(['a', 'b', 'c'].map((k) => Boolean(c.get(k)))).toEqual([false, true, true]);
  });
});
