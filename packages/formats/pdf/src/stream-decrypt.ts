import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

/*
 * Decryption of stream data for the byte-level checks that run before pdf.js (content-bounds.ts), for
 * the common case: the standard security handler opened with the empty user password — revisions 2–4
 * (RC4 or AES-128; PDF 32000-1 §7.6.3, Algorithms 1 and 2) and revisions 5–6 (AES-256; Adobe's
 * extension level 3 and ISO 32000-2 §7.6.4.3.3, Algorithms 2.A and 2.B). That is how published PDFs
 * that "restrict editing" are encrypted: every reader opens them without asking, so a check that
 * skipped them would be a way around it. Other handlers, and files whose user password is not empty
 * (which pdf.js refuses as encrypted anyway), answer null: the caller then does not measure the file.
 */

export type StreamDecryptor = (objectNumber: number, generation: number, data: Uint8Array) => Uint8Array;

const PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');
const md5 = (...parts: Uint8Array[]) => { const h = createHash('md5'); for (const p of parts) h.update(p); return h.digest(); };

/** RC4 (not offered by OpenSSL 3's default provider, hence here). */
export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) { j = (j + s[i] + key[i % key.length]) & 255; const t = s[i]; s[i] = s[j]; s[j] = t; }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255; j = (j + s[i]) & 255;
    const t = s[i]; s[i] = s[j]; s[j] = t;
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

/** A PDF string token at the start of `text` (literal with escapes, or hex), as bytes. */
export function pdfStringBytes(text: string): Buffer | undefined {
  const t = text.trimStart();
  if (t.startsWith('<')) {
    const end = t.indexOf('>');
    if (end < 0) return undefined;
    let hex = t.slice(1, end).replace(/\s+/g, '');
    if (hex.length % 2) hex += '0';
    return Buffer.from(hex, 'hex');
  }
  if (!t.startsWith('(')) return undefined;
  const out: number[] = [];
  let depth = 0;
  for (let i = 1; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x5c) { // backslash
      const n = t[++i];
      const esc: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
      if (n in esc) out.push(esc[n]);
      else if (n >= '0' && n <= '7') {
        let oct = n;
        while (oct.length < 3 && t[i + 1] >= '0' && t[i + 1] <= '7') oct += t[++i];
        out.push(parseInt(oct, 8) & 255);
      } else if (n === '\r') { if (t[i + 1] === '\n') i++; } // line continuation
      else if (n !== '\n') out.push(n.charCodeAt(0));
      continue;
    }
    if (c === 0x28) depth++;
    else if (c === 0x29) { if (depth === 0) return Buffer.from(out); depth--; }
    out.push(c & 255);
  }
  return undefined;
}

/** The value after `/Key` in a dictionary's text: a string's bytes, a number or a name. */
const stringEntry = (dict: string, key: string) => {
  const i = dict.search(new RegExp(`/${key}\\s*[(<]`));
  return i < 0 ? undefined : pdfStringBytes(dict.slice(i + key.length + 1));
};
const numberEntry = (dict: string, key: string) => {
  const m = new RegExp(`/${key}\\s+(-?\\d+)`).exec(dict);
  return m ? Number(m[1]) : undefined;
};

/** The dictionary text that starts at `from` (the first "<<"), nested dictionaries included. */
function dictionaryAt(text: string, from: number): string | undefined {
  const start = text.indexOf('<<', from);
  if (start < 0) return undefined;
  let depth = 0;
  for (let i = start; i < text.length - 1; i++) {
    if (text[i] === '<' && text[i + 1] === '<') { depth++; i++; }
    else if (text[i] === '>' && text[i + 1] === '>') { depth--; i++; if (depth === 0) return text.slice(start, i + 1); }
  }
  return undefined;
}

/**
 * AES-CBC decryption of a stream or string as PDF writes them: the IV in the first 16 bytes, then the
 * data padded to whole blocks (PKCS#7). A valid padding is removed; a damaged one is kept rather than
 * the stream thrown away (the inflater stops at the stream's end), and a trailing partial block dropped.
 */
function aesCbcDecrypt(algorithm: 'aes-128-cbc' | 'aes-256-cbc', key: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length < 32) return new Uint8Array(0);
  const decipher = createDecipheriv(algorithm, key, data.subarray(0, 16));
  decipher.setAutoPadding(false);
  const out = Buffer.concat([decipher.update(data.subarray(16, 16 + Math.floor((data.length - 16) / 16) * 16)), decipher.final()]);
  const pad = out[out.length - 1];
  if (pad < 1 || pad > 16 || pad > out.length) return out;
  for (let i = out.length - pad; i < out.length; i++) if (out[i] !== pad) return out;
  return out.subarray(0, out.length - pad);
}

/** AES-256-CBC decryption with a zero IV and no padding, over whole blocks: how /UE holds the file key. */
function aes256NoIvDecrypt(key: Uint8Array, data: Uint8Array): Buffer {
  const d = createDecipheriv('aes-256-cbc', key, Buffer.alloc(16));
  d.setAutoPadding(false);
  return Buffer.concat([d.update(data), d.final()]);
}

/**
 * The user-password hash of revisions 5 and 6 (the owner's would add /U after the salt; not needed here).
 * Revision 5 (Adobe extension level 3) is one SHA-256 of password ‖ salt; revision 6 is ISO 32000-2
 * Algorithm 2.B: at least 64 rounds, each encrypting 64 copies of password ‖ K with AES-128-CBC (key and
 * IV from K) and hashing the result with SHA-256, -384 or -512 as its first 16 bytes choose, until a
 * round's last byte is at most its number minus 32.
 */
function userPasswordHash(revision: 5 | 6, password: Uint8Array, salt: Uint8Array): Buffer {
  let k = createHash('sha256').update(password).update(salt).digest();
  if (revision === 5) return k;
  for (let round = 0; ; round++) {
    const block = Buffer.concat([password, k]); // K whole: 32, 48 or 64 bytes as the last hash made it
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(Buffer.concat(Array.from({ length: 64 }, () => block))), cipher.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i];
    k = createHash(['sha256', 'sha384', 'sha512'][sum % 3]).update(e).digest();
    if (round >= 63 && e[e.length - 1] <= round - 31) return k.subarray(0, 32);
  }
}

/**
 * Revisions 5–6: the 32-byte file key for the empty user password (Algorithm 2.A), or null when the
 * first 32 bytes of /U are not the empty password's hash under its validation salt (bytes 32–39), i.e.
 * the user password is not empty. The key is /UE decrypted with the hash under the key salt (40–47).
 */
function emptyPasswordFileKey(revision: 5 | 6, u: Uint8Array, ue: Uint8Array): Buffer | null {
  if (u.length < 48 || ue.length < 32) return null;
  const empty = new Uint8Array(0);
  if (!userPasswordHash(revision, empty, u.subarray(32, 40)).equals(u.subarray(0, 32))) return null;
  return aes256NoIvDecrypt(userPasswordHash(revision, empty, u.subarray(40, 48)), ue.subarray(0, 32));
}

/** The method (CFM) of the crypt filter /StmF names: 'Identity' when streams are not encrypted. */
function streamCryptMethod(dict: string): string | undefined {
  const stmF = /\/StmF\s*\/(\w+)/.exec(dict)?.[1] ?? 'Identity';
  if (stmF === 'Identity') return 'Identity';
  const filterDict = dictionaryAt(dict, dict.indexOf(`/${stmF}`)) ?? '';
  return /\/CFM\s*\/(\w+)/.exec(filterDict)?.[1];
}

/**
 * The stream decryptor of an encrypted file for the empty user password, or null when the file's
 * encryption is not one this reads (see above) or its dictionary cannot be found in the file's bytes.
 */
export function emptyPasswordDecryptor(buf: Buffer): StreamDecryptor | null {
  const text = buf.toString('latin1');
  const ref = [...text.matchAll(/\/Encrypt\s+(\d+)\s+(\d+)\s+R/g)].at(-1);
  if (!ref) return null;
  const header = new RegExp(`(?:^|[^\\d])${ref[1]}\\s+${ref[2]}\\s+obj\\b`, 'g');
  const at = [...text.matchAll(header)].at(-1);
  const dict = at ? dictionaryAt(text, at.index!) : undefined;
  if (!dict || !/\/Filter\s*\/Standard\b/.test(dict)) return null;
  const v = numberEntry(dict, 'V') ?? 0, r = numberEntry(dict, 'R') ?? 2, p = numberEntry(dict, 'P');
  if (v === 5) {
    // AES-256: one file key for every object (no per-object key), found from /U and /UE alone
    if (r !== 5 && r !== 6) return null;
    const method = streamCryptMethod(dict);
    if (method === 'Identity') return (_n, _g, data) => data;
    if (method !== 'AESV3') return null;
    const u = stringEntry(dict, 'U'), ue = stringEntry(dict, 'UE');
    const key = u && ue ? emptyPasswordFileKey(r, u, ue) : null;
    return key ? (_n, _g, data) => aesCbcDecrypt('aes-256-cbc', key, data) : null;
  }
  const o = stringEntry(dict, 'O');
  const idMatch = /\/ID\s*\[\s*/.exec(text.slice(text.lastIndexOf('/ID')));
  const id = idMatch ? pdfStringBytes(text.slice(text.lastIndexOf('/ID') + idMatch[0].length)) : undefined;
  if (p === undefined || !o || !id || r < 2 || r > 4 || (v !== 1 && v !== 2 && v !== 4)) return null;
  let aes = false;
  if (v === 4) {
    const cfm = streamCryptMethod(dict);
    if (cfm === 'Identity') return (_n, _g, data) => data;
    if (cfm === 'AESV2') aes = true;
    else if (cfm !== 'V2') return null;
  }
  const length = v === 1 ? 5 : Math.max(5, Math.min(16, (numberEntry(dict, 'Length') ?? 40) / 8));
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p | 0);
  const parts: Uint8Array[] = [PAD, o.subarray(0, 32), pBytes, id];
  if (r >= 4 && /\/EncryptMetadata\s+false/.test(dict)) parts.push(Buffer.from([0xff, 0xff, 0xff, 0xff]));
  let key = md5(...parts).subarray(0, length);
  if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key).subarray(0, length);
  return (objectNumber, generation, data) => {
    const n = Buffer.from([objectNumber & 255, (objectNumber >> 8) & 255, (objectNumber >> 16) & 255, generation & 255, (generation >> 8) & 255]);
    const objectKey = md5(key, n, aes ? Buffer.from('sAlT', 'latin1') : Buffer.alloc(0)).subarray(0, Math.min(length + 5, 16));
    return aes ? aesCbcDecrypt('aes-128-cbc', objectKey, data) : rc4(objectKey, data);
  };
}
