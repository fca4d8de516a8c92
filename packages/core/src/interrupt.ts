/**
 * Stopping long synchronous work when its job is canceled or runs out of time.
 *
 * A job on a worker thread is told to stop by a message, and a thread reads messages only when its event
 * loop turns: a page's layout or a large sheet's rows, synchronous and possibly seconds long, would run to
 * the end (or until the thread is terminated, taking the jobs beside it down) before the job's AbortSignal
 * fires. A StopCheck sees the stop at once — on a job thread it reads a flag in memory shared with the
 * owning thread — and throws the error the job ends with. Long loops call it.
 *
 * Readers get it as `ParseOptions.throwIfStopped` and call it themselves. Synchronous work that is too deep
 * to hand a function to (layout's many loops) runs under `interruptible(check, work)` and calls
 * `checkInterrupt()`: while `work` runs nothing else can, so one module-level check is this work's own.
 */
export type StopCheck = () => void;

let active: StopCheck | undefined;

/** Runs synchronous `work` with `check` as what checkInterrupt calls (nested calls keep an outer check when given none). */
export function interruptible<T>(check: StopCheck | undefined, work: () => T): T {
  const outer = active;
  active = check ?? outer;
  try {
    const result = work();
    // an async function would leave this scope at its first await and check nothing after it
    if (result instanceof Promise) throw new Error('interruptible() runs synchronous work only');
    return result;
  } finally {
    active = outer;
  }
}

/** Throws if the work running under interruptible() must stop; nothing outside it. Cheap: call it in long loops. */
export function checkInterrupt(): void {
  active?.();
}
