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

/**
 * Builtins whose existing methods pdf.js's legacy build replaces process-wide with core-js versions
 * (measured on pdfjs-dist 5.6 / Node 20): Array.prototype.push, JSON.parse, JSON.stringify (a full
 * JavaScript JSON parser, for the source-text-access proposal) and Function.prototype.toString. The
 * replacements only add edge-case or proposal behaviour pdf.js does not use, but they are several
 * times slower than the native ones and slow every caller in the process, not just pdf.js (push
 * alone was ~5 % of text-layer extraction time). Methods core-js only adds (Map#getOrInsertComputed,
 * Math.sumPrecise, …) are kept: pdf.js needs them.
 */
const GUARDED: Array<[string, () => object]> = [
  ['Array.prototype', () => Array.prototype], ['Array', () => Array],
  ['Object', () => Object], ['Object.prototype', () => Object.prototype],
  ['Function.prototype', () => Function.prototype], ['JSON', () => JSON], ['Math', () => Math],
  ['String.prototype', () => String.prototype], ['Number.prototype', () => Number.prototype],
  ['Promise', () => Promise], ['Promise.prototype', () => Promise.prototype],
  ['Map.prototype', () => Map.prototype], ['Set.prototype', () => Set.prototype],
  ['RegExp.prototype', () => RegExp.prototype],
  ['TypedArray.prototype', () => Object.getPrototypeOf(Uint8Array.prototype) as object],
  ['Uint8Array.prototype', () => Uint8Array.prototype], ['ArrayBuffer.prototype', () => ArrayBuffer.prototype],
];

/** Snapshot of the guarded builtins' own function-valued properties; `restore()` puts back any that were replaced and returns their names. */
export function guardBuiltins(): { restore(): string[] } {
  const saved = GUARDED.map(([name, get]) => {
    const target = get();
    const props = new Map<PropertyKey, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(target)) {
      const d = Object.getOwnPropertyDescriptor(target, key);
      if (d && typeof d.value === 'function') props.set(key, d);
    }
    return { name, target, props };
  });
  return {
    restore() {
      const restored: string[] = [];
      for (const { name, target, props } of saved) {
        for (const [key, d] of props) {
          const now = Object.getOwnPropertyDescriptor(target, key);
          if (now && now.value !== d.value) {
            Object.defineProperty(target, key, d);
            restored.push(`${name}.${String(key)}`);
          }
        }
      }
      return restored;
    },
  };
}
