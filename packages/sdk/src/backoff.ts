/** Exponential backoff with jitter ("equal jitter": half fixed, half random), the spec's advice for polling and retryable codes. */
export interface BackoffOptions {
  /** First delay's ceiling in ms. */
  initialMs: number;
  /** Ceiling of any delay in ms. */
  maxMs: number;
  factor?: number;
}

/** Delay before attempt `attempt` (0-based): a random value in [ceiling/2, ceiling], ceiling = initial·factor^attempt capped. */
export function backoffDelay(attempt: number, o: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(o.maxMs, o.initialMs * (o.factor ?? 2) ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return; }
    const onAbort = () => { clearTimeout(timer); reject(signal!.reason); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
