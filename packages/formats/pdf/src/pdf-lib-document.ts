import type { PDFDocument } from 'pdf-lib';
import { QuireError } from '@quire/core';
import { encryptedPdfError, unreadablePdfError } from './errors.js';
import { L, loadPdfLib } from './pdf-lib-objects.js';
import { decryptedCopy } from './pdfium.js';

const LOAD_OPTIONS = { updateMetadata: false, throwOnInvalidObject: false, ignoreEncryption: true } as const;

/**
 * Opens a PDF with pdf-lib to change it (fill or clear a form), with the same FILE_003 answers as pdf.js's
 * opener, so a document that reads is never refused here. pdf-lib cannot decrypt: a file encrypted with
 * an empty user password (one every reader opens without asking) is decrypted first (PDFium), and the
 * changed document is written without encryption; a file that needs a password is refused as encrypted.
 */
export async function loadEditablePdf(bytes: Uint8Array): Promise<PDFDocument> {
  if (bytes.length === 0) throw new QuireError('FILE_004', 'Empty file');
  await loadPdfLib();
  const doc = await load(bytes);
  if (!doc.isEncrypted) return doc;
  let plain: Uint8Array | undefined;
  try {
    plain = await decryptedCopy(bytes);
  } catch {
    throw encryptedPdfError();
  }
  // PDFium finds no encryption that pdf-lib saw (an /Encrypt entry it ignores): the file reads as it is
  return plain ? load(plain) : doc;
}

async function load(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await L.PDFDocument.load(bytes, LOAD_OPTIONS);
  } catch (e) {
    throw unreadablePdfError(e instanceof Error ? e.message : String(e));
  }
}
