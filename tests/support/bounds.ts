/**
 * Time and memory taken by one hostile request against a server running in this process (the embedded
 * test server, job threads included, so this process's RSS is the server's): RSS is sampled every 20 ms
 * while `fn` runs, and the growth is the highest sample less the RSS before.
 */
export async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; rssGrowth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  const started = Date.now();
  try {
    const value = await fn();
    return { value, ms: Date.now() - started, rssGrowth: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(sampler);
  }
}

export const MB = 1024 * 1024;
/** RSS growth a hostile request may cause: far below what the inputs would take unbounded (gigabytes). */
export const HOSTILE_RSS_GROWTH_LIMIT = 700 * MB;
