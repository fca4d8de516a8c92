/**
 * Bytes → text for an HTML upload, the way browsers decide, with one correction: a byte-order mark
 * wins; then a <meta charset> / http-equiv Content-Type in the first 4 KB — unless it names a legacy
 * encoding while the bytes are valid UTF-8 with non-ASCII characters in it (a page saved as UTF-8 under
 * an old template's declaration: read as declared it becomes mojibake, and legacy text is almost never
 * valid multi-byte UTF-8 by chance); then UTF-8 when the bytes are valid UTF-8, else windows-1252 (what
 * "latin1" and unlabeled legacy pages mean on the web). `declared` is set when a declaration was overruled.
 */
function detectCharset(bytes: Uint8Array): { charset: string; bomLength: number; declared?: string } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', bomLength: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', bomLength: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', bomLength: 2 };
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const m = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([a-z0-9_:.+-]+)/i.exec(head);
  const utf8 = isUtf8(bytes);
  if (m) {
    const label = m[1].toLowerCase();
    // A page that declares UTF-16 in ASCII-compatible bytes is really UTF-8 (HTML spec, "prescan").
    if (!label.startsWith('utf-16') && isKnown(label)) {
      const legacy = new TextDecoder(label).encoding !== 'utf-8';
      if (legacy && utf8 && bytes.some((b) => b >= 0x80)) return { charset: 'utf-8', bomLength: 0, declared: label };
      return { charset: label, bomLength: 0 };
    }
  }
  return { charset: utf8 ? 'utf-8' : 'windows-1252', bomLength: 0 };
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function isKnown(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** windows-1252's 0x80..0x9F (undefined positions map to the C1 control of the same code). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** Node 20's TextDecoder decodes "windows-1252" as ISO-8859-1 (C1 controls instead of “ ” € …): map those bytes ourselves. */
function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  const CHUNK = 8192;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const part = bytes.subarray(i, i + CHUNK);
    out += String.fromCharCode(...part).replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);
  }
  return out;
}

/** The text, the encoding it was read in, and the declared encoding when the bytes overruled it. */
export function decodeHtml(bytes: Uint8Array): { text: string; charset: string; declared?: string } {
  const { charset, bomLength, declared } = detectCharset(bytes);
  const body = bytes.subarray(bomLength);
  const decoder = new TextDecoder(charset);
  const text = decoder.encoding === 'windows-1252' ? decodeWindows1252(body) : decoder.decode(body);
  return { text, charset: decoder.encoding, ...(declared ? { declared } : {}) };
}
