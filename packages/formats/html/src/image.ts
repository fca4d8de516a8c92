import { attr, type El } from './dom.js';

/** Decodes a data: URI (base64 or percent-encoded) into bytes and its MIME type. */
export function decodeDataUri(uri: string): { bytes: Uint8Array; mime: string } | null {
  const m = /^data:([^,]*?),(.*)$/s.exec(uri.trim());
  if (!m) return null;
  const meta = m[1].split(';').map((s) => s.trim());
  const mime = (meta[0] || 'text/plain').toLowerCase();
  const isBase64 = meta.slice(1).some((p) => p.toLowerCase() === 'base64');
  try {
    const bytes = isBase64
      ? Buffer.from(m[2].replace(/\s+/g, ''), 'base64')
      : Buffer.from(decodeURIComponent(m[2]), 'utf8');
    return bytes.length > 0 ? { bytes: new Uint8Array(bytes), mime } : null;
  } catch {
    return null;
  }
}

/**
 * Icons, spacers and tracking pixels are not figures: an <img> whose declared width or height is
 * under 24 px is skipped (only declared sizes are known without decoding the image).
 */
export function isDecorative(img: El): boolean {
  const small = (v: string | undefined) => v !== undefined && /^\s*\d+(\.\d+)?\s*(px)?\s*$/i.test(v) && parseFloat(v) < 24;
  return small(attr(img, 'width')) || small(attr(img, 'height')) || attr(img, 'role') === 'presentation';
}

export const imageSource = (img: El) => attr(img, 'src') ?? attr(img, 'data-src') ?? '';
