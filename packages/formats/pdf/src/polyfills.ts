// pdf.js 5.x calls Promise.withResolvers and ArrayBuffer.prototype.transferToFixedLength, which Node 20
// lacks. The legacy build bundles core-js shims for both, but a future build may not, and a missing
// shim makes rendering fail silently (blank pages). These guarded versions only fill a gap.

type Resolvers<T> = { promise: Promise<T>; resolve: (v: T | PromiseLike<T>) => void; reject: (e?: unknown) => void };

export function installPolyfills(): void {
  const P = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };
  if (typeof P.withResolvers !== 'function') {
    P.withResolvers = function withResolvers<T>(): Resolvers<T> {
      let resolve!: Resolvers<T>['resolve'];
      let reject!: Resolvers<T>['reject'];
      const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
      return { promise, resolve, reject };
    };
  }
  const AB = ArrayBuffer.prototype as unknown as { transferToFixedLength?: (len?: number) => ArrayBuffer };
  if (typeof AB.transferToFixedLength !== 'function') {
    // A copy instead of a zero-copy transfer: same observable result for pdf.js, which never reads the old buffer.
    Object.defineProperty(AB, 'transferToFixedLength', {
      configurable: true,
      writable: true,
      value: function transferToFixedLength(this: ArrayBuffer, len?: number): ArrayBuffer {
        const n = len ?? this.byteLength;
        const out = new ArrayBuffer(n);
        new Uint8Array(out).set(new Uint8Array(this, 0, Math.min(n, this.byteLength)));
        return out;
      },
    });
  }
}
