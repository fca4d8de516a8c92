import { installPolyfills } from './polyfills.js';

test('installs Promise.withResolvers and ArrayBuffer.prototype.transferToFixedLength only where missing', async () => {
  const P = Promise as unknown as Record<string, unknown>;
  const AB = ArrayBuffer.prototype as unknown as Record<string, unknown>;
  const saved = { wr: P.withResolvers, tf: Object.getOwnPropertyDescriptor(AB, 'transferToFixedLength') };
  try {
    delete P.withResolvers;
    delete AB.transferToFixedLength;
    installPolyfills();
    const { promise, resolve } = (P.withResolvers as () => { promise: Promise<number>; resolve: (v: number) => void })();
    resolve(42);
    await expect(promise).resolves.toBe(42);
    const src = new Uint8Array([1, 2, 3]).buffer;
    const out = (AB.transferToFixedLength as (this: ArrayBuffer, n?: number) => ArrayBuffer).call(src, 2);
    expect(Array.from(new Uint8Array(out))).toEqual([1, 2]);
    // an existing implementation is left alone
    const mine = () => 'native';
    P.withResolvers = mine;
    installPolyfills();
    expect(P.withResolvers).toBe(mine);
  } finally {
    if (saved.wr) P.withResolvers = saved.wr; else delete P.withResolvers;
    if (saved.tf) Object.defineProperty(AB, 'transferToFixedLength', saved.tf); else delete AB.transferToFixedLength;
  }
});

test('loading pdf.js leaves the native Array#push and JSON methods in place (core-js replaces them otherwise)', async () => {
  // Identity, not toString: core-js makes its replacements print as "[native code]".
  const mapProto = Map.prototype as unknown as { getOrInsertComputed?: unknown };
  expect(mapProto.getOrInsertComputed).toBeUndefined(); // pdf.js (core-js) has not been loaded yet in this file
  const before = [Array.prototype.push, JSON.parse, JSON.stringify, Function.prototype.toString];
  const { loadPdfjs } = await import('./pdfjs.js');
  await loadPdfjs();
  expect([Array.prototype.push, JSON.parse, JSON.stringify, Function.prototype.toString]).toEqual(before);
  before.forEach((f, i) => expect([Array.prototype.push, JSON.parse, JSON.stringify, Function.prototype.toString][i]).toBe(f));
  // what pdf.js needs from core-js is still there
  expect(typeof mapProto.getOrInsertComputed).toBe('function');
});

test('guardBuiltins puts back a replaced builtin and keeps added ones', async () => {
  const { guardBuiltins } = await import('./polyfills.js');
  const native = JSON.parse;
  const guard = guardBuiltins();
  const J = JSON as unknown as Record<string, unknown>;
  J.parse = () => 'polyfilled';
  J.quireAdded = () => 1;
  try {
    expect(guard.restore()).toEqual(['JSON.parse']);
    expect(JSON.parse).toBe(native);
    expect(typeof J.quireAdded).toBe('function');
  } finally {
    JSON.parse = native;
    delete J.quireAdded;
  }
});
