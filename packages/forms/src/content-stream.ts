/**
 * A minimal PDF content-stream lexer: splits a decoded stream into operations (operands + operator)
 * with their byte ranges, so that clear can drop exactly the operations it means to and copy every
 * other byte unchanged. Strings keep their raw bytes; inline images (BI … ID … EI) are one operation.
 */

export type Operand =
  | { t: 'num'; v: number }
  | { t: 'name'; v: string }
  | { t: 'str'; v: Uint8Array }
  | { t: 'arr'; v: Operand[] }
  | { t: 'dict'; v: Operand[] }
  | { t: 'kw'; v: string };

export interface Op { op: string; args: Operand[]; start: number; end: number }

const WS = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

export function parseContent(b: Uint8Array): Op[] {
  const ops: Op[] = [];
  let i = 0;
  let args: Operand[] = [];
  let opStart = -1;
  const skipWs = () => {
    while (i < b.length) {
      if (WS.has(b[i])) i++;
      else if (b[i] === 0x25) { while (i < b.length && b[i] !== 0x0a && b[i] !== 0x0d) i++; }
      else break;
    }
  };
  const readObj = (): Operand | null => {
    skipWs();
    if (i >= b.length) return null;
    const c = b[i];
    if (c === 0x2f) { // name
      let j = i + 1;
      while (j < b.length && !WS.has(b[j]) && !DELIM.has(b[j])) j++;
      const v = decodeName(latin1(b, i + 1, j)); i = j; return { t: 'name', v };
    }
    if (c === 0x28) return { t: 'str', v: readLiteral() };
    if (c === 0x3c && b[i + 1] === 0x3c) { i += 2; const v: Operand[] = []; for (;;) { skipWs(); if (i >= b.length) break; if (b[i] === 0x3e && b[i + 1] === 0x3e) { i += 2; break; } const o = readObj(); if (!o) break; v.push(o); } return { t: 'dict', v }; }
    if (c === 0x3c) { const j = b.indexOf(0x3e, i); const end = j < 0 ? b.length : j; const hex = latin1(b, i + 1, end).replace(/[^0-9a-fA-F]/g, ''); i = end + 1; return { t: 'str', v: hexBytes(hex) }; }
    if (c === 0x5b) { i++; const v: Operand[] = []; for (;;) { skipWs(); if (i >= b.length) break; if (b[i] === 0x5d) { i++; break; } const o = readObj(); if (!o) break; v.push(o); } return { t: 'arr', v }; }
    if (c === 0x5d || c === 0x29 || c === 0x3e || c === 0x7b || c === 0x7d) { i++; return { t: 'kw', v: String.fromCharCode(c) }; }
    let j = i;
    while (j < b.length && !WS.has(b[j]) && !DELIM.has(b[j])) j++;
    const tok = latin1(b, i, j); i = j;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(tok)) return { t: 'num', v: Number(tok) };
    return { t: 'kw', v: tok };
  };
  const readLiteral = (): Uint8Array => {
    const out: number[] = [];
    let depth = 0; i++;
    while (i < b.length) {
      const c = b[i++];
      if (c === 0x5c) {
        const n = b[i++];
        const map: Record<number, number> = { 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12, 0x28: 0x28, 0x29: 0x29, 0x5c: 0x5c };
        if (n in map) out.push(map[n]);
        else if (n >= 0x30 && n <= 0x37) { let v = n - 0x30; for (let k = 0; k < 2 && b[i] >= 0x30 && b[i] <= 0x37; k++) v = v * 8 + (b[i++] - 0x30); out.push(v & 0xff); }
        else if (n === 0x0d) { if (b[i] === 0x0a) i++; }
        else if (n !== 0x0a) out.push(n);
      } else if (c === 0x28) { depth++; out.push(c); }
      else if (c === 0x29) { if (depth === 0) break; depth--; out.push(c); }
      else out.push(c);
    }
    return Uint8Array.from(out);
  };
  for (;;) {
    skipWs();
    if (i >= b.length) break;
    if (opStart < 0) opStart = i;
    const o = readObj();
    if (!o) break;
    if (o.t !== 'kw' || ['true', 'false', 'null'].includes(o.v)) { args.push(o); continue; }
    if (o.v === 'BI') { // inline image: skip to EI preceded by whitespace
      const id = findSeq(b, 'ID', i);
      let k = id + 3;
      for (; k < b.length - 2; k++) if (WS.has(b[k - 1]) && b[k] === 0x45 && b[k + 1] === 0x49 && (k + 2 >= b.length || WS.has(b[k + 2]))) break;
      i = Math.min(b.length, k + 2);
    }
    ops.push({ op: o.v, args, start: opStart, end: i });
    args = []; opStart = -1;
  }
  return ops;
}

function findSeq(b: Uint8Array, s: string, from: number): number {
  for (let k = from; k < b.length - 1; k++) if (b[k] === s.charCodeAt(0) && b[k + 1] === s.charCodeAt(1) && WS.has(b[k + 2] ?? 0x20) && WS.has(b[k - 1] ?? 0x20)) return k;
  return b.length;
}

const latin1 = (b: Uint8Array, s: number, e: number) => Buffer.from(b.subarray(s, e)).toString('latin1');
const decodeName = (s: string) => s.replace(/#([0-9a-fA-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
function hexBytes(hex: string): Uint8Array {
  const h = hex.length % 2 ? hex + '0' : hex;
  const out = new Uint8Array(h.length / 2);
  for (let k = 0; k < out.length; k++) out[k] = parseInt(h.slice(2 * k, 2 * k + 2), 16);
  return out;
}

/** Rebuilds a stream, replacing the byte ranges of some operations (undefined = keep). */
export function rewrite(b: Uint8Array, ops: Op[], replace: Map<number, string>): Uint8Array {
  const parts: Buffer[] = [];
  let pos = 0;
  ops.forEach((o, k) => {
    const r = replace.get(k);
    if (r === undefined) return;
    parts.push(Buffer.from(b.subarray(pos, o.start)), Buffer.from(r, 'latin1'));
    pos = o.end;
  });
  parts.push(Buffer.from(b.subarray(pos)));
  return new Uint8Array(Buffer.concat(parts));
}

export const num = (o: Operand | undefined) => (o && o.t === 'num' ? o.v : 0);
