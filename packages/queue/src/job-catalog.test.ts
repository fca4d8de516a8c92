import { JOB_CATALOG, JOB_KINDS, canRetry, isJobKind, retryDelayMs } from './job-catalog.js';
import { QUEUE_NAMES } from './job-queue.js';

describe('job catalog', () => {
  it('routes every kind to the queue of its worker service', () => {
    expect(JOB_KINDS.sort()).toEqual(
      ['charts', 'classify', 'extract', 'form_clear', 'form_detect', 'form_fill', 'schema', 'split', 'tables'].sort(),
    );
    expect(JOB_CATALOG.extract.queue).toBe('extract');
    expect(JOB_CATALOG.classify.queue).toBe('extract');
    expect(JOB_CATALOG.schema.queue).toBe('schema');
    expect(JOB_CATALOG.split.queue).toBe('schema');
    expect(JOB_CATALOG.tables.queue).toBe('tables');
    expect(JOB_CATALOG.charts.queue).toBe('charts');
    for (const k of ['form_detect', 'form_fill', 'form_clear'] as const) expect(JOB_CATALOG[k].queue).toBe('forms');
    for (const k of JOB_KINDS) {
      const spec = JOB_CATALOG[k];
      expect(QUEUE_NAMES).toContain(spec.queue);
      expect(spec.attempts).toBeGreaterThanOrEqual(1);
      expect(spec.backoff.baseMs).toBeLessThanOrEqual(spec.backoff.maxMs);
      expect(spec.timeoutMs).toBeGreaterThan(0);
    }
  });

  it('recognises kinds', () => {
    expect(isJobKind('form_fill')).toBe(true);
    expect(isJobKind('toString')).toBe(false);
    expect(isJobKind('nope')).toBe(false);
  });

  it('allows retries until the attempts are used up', () => {
    const n = JOB_CATALOG.extract.attempts;
    expect(canRetry('extract', n - 1)).toBe(true);
    expect(canRetry('extract', n)).toBe(false);
  });
});

describe('retryDelayMs', () => {
  const { baseMs, maxMs } = JOB_CATALOG.extract.backoff;

  it('grows exponentially up to the cap (upper end of the jitter range)', () => {
    const top = () => 0.999999;
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((a) => retryDelayMs('extract', a, top));
    expect(delays[0]).toBe(Math.floor(0.999999 * baseMs));
    expect(delays[1]).toBe(Math.floor(0.999999 * baseMs * 2));
    expect(delays[2]).toBe(Math.floor(0.999999 * baseMs * 4));
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
    expect(Math.max(...delays)).toBeLessThan(maxMs);
    expect(retryDelayMs('extract', 1000, top)).toBe(Math.floor(0.999999 * maxMs));
  });

  it('applies full jitter: uniform between 0 and the ceiling', () => {
    expect(retryDelayMs('extract', 3, () => 0)).toBe(0);
    expect(retryDelayMs('extract', 3, () => 0.5)).toBe(Math.floor(0.5 * baseMs * 4));
    expect(retryDelayMs('extract', 3, () => 1)).toBeLessThan(baseMs * 4); // never the ceiling itself
    const samples = Array.from({ length: 2000 }, () => retryDelayMs('extract', 2));
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...samples)).toBeLessThan(baseMs * 2);
    expect(mean).toBeGreaterThan(baseMs * 0.8); // expected mean is baseMs (half of 2·baseMs)
    expect(mean).toBeLessThan(baseMs * 1.2);
  });

  it('uses each kind’s own backoff', () => {
    expect(retryDelayMs('form_fill', 1, () => 0.5)).toBe(Math.floor(0.5 * JOB_CATALOG.form_fill.backoff.baseMs));
  });

  it('rejects attempt numbers below 1 or fractional', () => {
    expect(() => retryDelayMs('extract', 0)).toThrow(RangeError);
    expect(() => retryDelayMs('extract', 1.5)).toThrow(RangeError);
  });
});
