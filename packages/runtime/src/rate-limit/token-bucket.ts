/** Shared argument checks for the token-bucket adapters. */
export interface TakeOptions {
  capacity: number;
  refillPerSecond: number;
  cost?: number;
}

export function checkTakeOptions(opts: TakeOptions): number {
  const cost = opts.cost ?? 1;
  if (!(opts.capacity > 0) || !Number.isFinite(opts.capacity)) throw new RangeError(`capacity must be > 0, got ${opts.capacity}`);
  if (!(opts.refillPerSecond > 0) || !Number.isFinite(opts.refillPerSecond)) {
    throw new RangeError(`refillPerSecond must be > 0, got ${opts.refillPerSecond}`);
  }
  if (!(cost >= 0) || !Number.isFinite(cost)) throw new RangeError(`cost must be ≥ 0, got ${cost}`);
  return cost;
}
