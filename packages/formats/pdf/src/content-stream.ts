/*
 * The one content-stream lexer (PDF 32000-1 §7.8.2): marked-content scanning for replacement text
 * (actualtext.ts) walks it cheaply with Lexer.top, which skips the operands it does not need; editors
 * (forms' fill and clear, which drop or replace single operations and copy every other byte unchanged)
 * read whole operations with their byte ranges through parseContent.
 */

/** An operand as far as it is read: numbers, booleans and null inside dictionaries; operators as { kw }. */
export type Operand = number | boolean | null | { name: string } | { str: Uint8Array } | Operand[] | Map<string, Operand> | { kw: string };

const WS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;

export const isName = (o: Operand | undefined): o is { name: string } => !!o && typeof o === 'object' && 'name' in o;
export const isString = (o: Operand | undefined): o is { str: Uint8Array } => !!o && typeof o === 'object' && 'str' in o;

const latin1 = (b: Uint8Array, s: number, e: number) => {
  if (e - s > 64) return Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('latin1');
  let out = '';
  for (let i = s; i < e; i++) out += String.fromCharCode(b[i]);
  return out;
};

/** What Lexer.top returns besides names and dictionaries: an operand nobody looks at, an operator, the end. */
export const OTHER = null, OPERATOR = 1, END = 0;
/** The operators Lexer.top tells apart (Lexer.op); every other one is OP_ANY. */
export const OP_BDC = 1, OP_BMC = 2, OP_DO = 3, OP_BI = 4, OP_ID = 5, OP_ANY = 6, OP_SAVE = 7, OP_RESTORE = 8;

export class Lexer {
  private i = 0;
  /** The operator Lexer.top last returned OPERATOR for. */
  op = OP_ANY;
  constructor(private readonly b: Uint8Array) {}

  /** The offset of the next byte to read. */
  get pos(): number { return this.i; }

  /** Skips whitespace and comments; false at the end of the stream. */
  skipSpace(): boolean {
    const b = this.b;
    for (;;) {
      while (this.i < b.length && WS[b[this.i]]) this.i++;
      if (this.i >= b.length) return false;
      if (b[this.i] !== 0x25) return true;
      while (this.i < b.length && b[this.i] !== 0x0a && b[this.i] !== 0x0d) this.i++;
    }
  }

  /**
   * The next token at the top level of a content stream, cheaply: names and dictionaries (the operands
   * marked content needs) are read, numbers, strings and arrays skipped without building them.
   */
  top(): Operand | typeof OPERATOR | typeof END | typeof OTHER {
    const b = this.b, n = b.length;
    for (;;) {
      while (this.i < n && WS[b[this.i]]) this.i++;
      if (this.i >= n) return END;
      if (b[this.i] !== 0x25) break;
      while (this.i < n && b[this.i] !== 0x0a && b[this.i] !== 0x0d) this.i++;
    }
    const c = b[this.i];
    switch (c) {
      case 0x2f: return { name: this.name() };
      case 0x28: this.skipLiteral(); return OTHER;
      case 0x3c:
        if (b[this.i + 1] === 0x3c) { this.i += 2; return this.dict(); }
        while (this.i < n && b[this.i] !== 0x3e) this.i++;
        this.i++;
        return OTHER;
      case 0x5b: this.skipArray(); return OTHER;
      case 0x5d: case 0x3e: case 0x29: case 0x7b: case 0x7d: this.i++; return OTHER; // stray delimiters
      default: {
        const s = this.i;
        while (this.i < n && !WS[b[this.i]] && !DELIM[b[this.i]]) this.i++;
        const len = this.i - s;
        // numbers (the commonest token) and true/false/null are operands nobody needs
        if ((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x2b) return OTHER;
        if (len === 4 || len === 5) {
          const w = latin1(b, s, this.i);
          if (w === 'true' || w === 'false' || w === 'null') return OTHER;
        }
        this.op = len === 1 ? (c === 0x71 ? OP_SAVE : c === 0x51 ? OP_RESTORE : OP_ANY)
          : len === 3 && c === 0x42 && b[s + 2] === 0x43 ? (b[s + 1] === 0x44 ? OP_BDC : b[s + 1] === 0x4d ? OP_BMC : OP_ANY)
          : len === 2 ? (c === 0x44 && b[s + 1] === 0x6f ? OP_DO : c === 0x42 && b[s + 1] === 0x49 ? OP_BI : c === 0x49 && b[s + 1] === 0x44 ? OP_ID : OP_ANY)
            : OP_ANY;
        return OPERATOR;
      }
    }
  }

  private skipLiteral(): void {
    const b = this.b, n = b.length;
    let depth = 1;
    this.i++;
    while (this.i < n) {
      const c = b[this.i++];
      if (c === 0x5c) this.i++;
      else if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return;
    }
  }

  private skipArray(): void {
    const b = this.b, n = b.length;
    let depth = 0;
    while (this.i < n) {
      const c = b[this.i];
      if (c === 0x28) { this.skipLiteral(); continue; }
      this.i++;
      if (c === 0x5b) depth++;
      else if (c === 0x5d && --depth === 0) return;
      else if (c === 0x25) while (this.i < n && b[this.i] !== 0x0a && b[this.i] !== 0x0d) this.i++;
    }
  }

  /** The next operand or operator ({ kw }), or undefined at the end. */
  next(): Operand | undefined {
    const b = this.b;
    for (;;) {
      while (this.i < b.length && WS[b[this.i]]) this.i++;
      if (this.i >= b.length) return undefined;
      if (b[this.i] !== 0x25) break; // %: a comment to the end of the line
      while (this.i < b.length && b[this.i] !== 0x0a && b[this.i] !== 0x0d) this.i++;
    }
    const c = b[this.i];
    switch (c) {
      case 0x2f: return { name: this.name() }; // /
      case 0x28: return { str: this.literal() }; // (
      case 0x3c: // <
        if (b[this.i + 1] === 0x3c) { this.i += 2; return this.dict(); }
        return { str: this.hex() };
      case 0x5b: { // [
        this.i++;
        const arr: Operand[] = [];
        for (;;) {
          const t = this.peekClose(0x5d);
          if (t) break;
          const v = this.next();
          if (v === undefined) break;
          arr.push(v);
        }
        return arr;
      }
      case 0x5d: case 0x3e: case 0x29: case 0x7b: case 0x7d: this.i++; return this.next(); // stray delimiters
      default: {
        const s = this.i;
        while (this.i < b.length && !WS[b[this.i]] && !DELIM[b[this.i]]) this.i++;
        const word = latin1(b, s, this.i);
        if (word === 'true') return true;
        if (word === 'false') return false;
        if (word === 'null') return null;
        const n = Number(word);
        if (word !== '' && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) && Number.isFinite(n)) return n;
        return { kw: word };
      }
    }
  }

  /** After skipping whitespace, whether the next byte is `close` (consumed if so, or at the end). */
  private peekClose(close: number): boolean {
    const b = this.b;
    while (this.i < b.length && WS[b[this.i]]) this.i++;
    if (this.i >= b.length) return true;
    if (b[this.i] === close) { this.i++; return true; }
    return false;
  }

  private dict(): Map<string, Operand> {
    const d = new Map<string, Operand>();
    const b = this.b;
    for (;;) {
      while (this.i < b.length && WS[b[this.i]]) this.i++;
      if (this.i >= b.length) return d;
      if (b[this.i] === 0x3e && b[this.i + 1] === 0x3e) { this.i += 2; return d; }
      const k = this.next();
      if (k === undefined) return d;
      if (!isName(k)) continue; // malformed: skip a value that is not a key
      const v = this.next();
      if (v === undefined) return d;
      d.set(k.name, v);
    }
  }

  private name(): string {
    const b = this.b;
    const s = ++this.i;
    while (this.i < b.length && !WS[b[this.i]] && !DELIM[b[this.i]]) this.i++;
    const raw = latin1(b, s, this.i);
    return raw.includes('#') ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : raw;
  }

  private literal(): Uint8Array {
    const b = this.b, out: number[] = [];
    let depth = 1;
    this.i++;
    while (this.i < b.length) {
      const c = b[this.i++];
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) break;
      else if (c === 0x5c) { // backslash
        const e = b[this.i++];
        switch (e) {
          case 0x6e: out.push(0x0a); continue; case 0x72: out.push(0x0d); continue; case 0x74: out.push(0x09); continue;
          case 0x62: out.push(0x08); continue; case 0x66: out.push(0x0c); continue;
          case 0x0d: if (b[this.i] === 0x0a) this.i++; continue; // line continuation
          case 0x0a: continue;
          default:
            if (e >= 0x30 && e <= 0x37) {
              let v = e - 0x30;
              for (let k = 0; k < 2 && b[this.i] >= 0x30 && b[this.i] <= 0x37; k++) v = v * 8 + (b[this.i++] - 0x30);
              out.push(v & 0xff);
            } else if (e !== undefined) out.push(e);
            continue;
        }
      }
      out.push(c);
    }
    return Uint8Array.from(out);
  }

  private hex(): Uint8Array {
    const b = this.b, out: number[] = [];
    this.i++;
    let hi = -1;
    while (this.i < b.length) {
      const c = b[this.i++];
      if (c === 0x3e) break;
      const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
      if (v < 0) continue;
      if (hi < 0) hi = v; else { out.push(hi * 16 + v); hi = -1; }
    }
    if (hi >= 0) out.push(hi * 16);
    return Uint8Array.from(out);
  }

  /**
   * Skips an inline image (after BI: its dictionary, ID, the data, EI). The data ends at the first "EI"
   * between whitespace that is followed by text rather than binary bytes (the check pdf.js makes too).
   */
  skipInlineImage(): void {
    const b = this.b;
    for (;;) { // the image dictionary, up to ID
      const t = this.top();
      if (t === END) return;
      if (t === OPERATOR && this.op === OP_ID) break;
    }
    this.i++; // the single whitespace byte after ID
    for (let j = this.i; j + 1 < b.length; j++) {
      if (b[j] !== 0x45 || b[j + 1] !== 0x49 || !WS[b[j - 1]]) continue;
      const after = j + 2;
      if (after < b.length && !WS[b[after]]) continue;
      let binary = false;
      for (let k = after; k < Math.min(b.length, after + 10); k++) {
        if (b[k] > 0x7e || (b[k] < 0x20 && !WS[b[k]])) { binary = true; break; }
      }
      if (binary) continue;
      this.i = after;
      return;
    }
    this.i = b.length;
  }
}

/** One operation of a content stream: its operands, its operator, and the bytes [start, end) it spans. */
export interface ContentOp { op: string; args: Operand[]; start: number; end: number }

/** Splits a decoded content stream into operations; an inline image (BI … ID … EI) is one operation. */
export function parseContent(bytes: Uint8Array): ContentOp[] {
  const lx = new Lexer(bytes);
  const ops: ContentOp[] = [];
  let args: Operand[] = [];
  let start = -1;
  while (lx.skipSpace()) {
    if (start < 0) start = lx.pos;
    const tok = lx.next();
    if (tok === undefined) break;
    if (!isKeyword(tok)) { args.push(tok); continue; }
    if (tok.kw === 'BI') lx.skipInlineImage();
    ops.push({ op: tok.kw, args, start, end: lx.pos });
    args = [];
    start = -1;
  }
  return ops;
}

const isKeyword = (o: Operand): o is { kw: string } => !!o && typeof o === 'object' && 'kw' in o;

/** The stream with the bytes of some operations (by index) replaced; the rest copied unchanged. */
export function rewriteContent(bytes: Uint8Array, ops: readonly ContentOp[], replace: ReadonlyMap<number, string>): Uint8Array {
  const parts: Buffer[] = [];
  let pos = 0;
  ops.forEach((o, k) => {
    const r = replace.get(k);
    if (r === undefined) return;
    parts.push(Buffer.from(bytes.subarray(pos, o.start)), Buffer.from(r, 'latin1'));
    pos = o.end;
  });
  parts.push(Buffer.from(bytes.subarray(pos)));
  return new Uint8Array(Buffer.concat(parts));
}

/** A numeric operand, 0 when it is something else (a malformed stream). */
export const numberOf = (o: Operand | undefined): number => (typeof o === 'number' ? o : 0);
