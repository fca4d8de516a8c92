import { QuireError } from './errors.js';
import type { SourceFormat } from './document.js';

/**
 * Detects the file type from magic bytes (never the name). OOXML files are zips: the caller passes
 * the zip's entry names (from the central directory) to tell docx/pptx/xlsx apart; without them a
 * zip is reported as 'zip'.
 */
export function sniffFileType(head: Uint8Array, zipEntryNames?: readonly string[]): SourceFormat {
  if (head.length === 0) throw new QuireError('FILE_004', 'Empty file');
  const startsWith = (...sig: number[]) => sig.every((b, i) => head[i] === b);
  // PDF: "%PDF-" within the first 1024 bytes (some producers put junk first).
  const scan = Buffer.from(head.subarray(0, 1024)).toString('latin1');
  if (scan.includes('%PDF-')) return 'pdf';
  if (startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (startsWith(0xff, 0xd8, 0xff)) return 'jpeg';
  if (startsWith(0x49, 0x49, 0x2a, 0x00) || startsWith(0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  if (startsWith(0x50, 0x4b, 0x03, 0x04) || startsWith(0x50, 0x4b, 0x05, 0x06)) {
    const names = zipEntryNames ?? [];
    if (names.some((n) => n.startsWith('word/'))) return 'docx';
    if (names.some((n) => n.startsWith('ppt/'))) return 'pptx';
    if (names.some((n) => n.startsWith('xl/'))) return 'xlsx';
    throw new QuireError('FILE_001', 'Unsupported file type: a zip archive that is not DOCX, PPTX or XLSX');
  }
  // Encrypted OOXML is an OLE2 compound file (D0 CF 11 E0): say so instead of "unsupported".
  if (startsWith(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) {
    throw new QuireError('FILE_001', 'Unsupported file type: legacy Office (OLE2) or password-protected Office document', { hint: 'Save as DOCX/PPTX/XLSX without a password' });
  }
  if (looksLikeHtml(head)) return 'html';
  throw new QuireError('FILE_001', 'Unsupported file type (supported: PDF, PNG, JPEG, TIFF, DOCX, PPTX, XLSX, HTML)');
}

function looksLikeHtml(head: Uint8Array): boolean {
  let text = Buffer.from(head.subarray(0, 4096)).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const t = text.trimStart().toLowerCase();
  return t.startsWith('<!doctype html') || t.startsWith('<html') || /^<(\?xml[^>]*>\s*)?<!doctype html/.test(t) ||
    /<(html|head|body|p|div|table|h[1-6])[\s>]/.test(t.slice(0, 1024));
}
