/**
 * Bytes → text for an HTML upload, the way browsers decide: a byte-order mark wins, then a
 * <meta charset> / http-equiv Content-Type in the first 4 KB, then UTF-8 when the bytes are valid
 * UTF-8, else windows-1252 (what "latin1" and unlabeled legacy pages mean on the web).
 */
function detectCharset(bytes: Uint8Array): { charset: string; bomLength: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', bomLength: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', bomLength: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', bomLength: 2 };
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const m = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([a-z0-9_:.+-]+)/i.exec(head);
  if (m) {
    const label = m[1].toLowerCase();
    // A page that declares UTF-16 in ASCII-compatible bytes is really UTF-8 (HTML spec, "prescan").
    if (!label.startsWith('utf-16') && isKnown(label)) return { charset: label, bomLength: 0 };
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { charset: 'utf-8', bomLength: 0 };
  } catch {
    return { charset: 'windows-1252', bomLength: 0 };
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

export function decodeHtml(bytes: Uint8Array): { text: string; charset: string } {
  const { charset, bomLength } = detectCharset(bytes);
  const body = bytes.subarray(bomLength);
  const decoder = new TextDecoder(charset);
  const text = decoder.encoding === 'windows-1252' ? decodeWindows1252(body) : decoder.decode(body);
  return { text, charset: decoder.encoding };
}
