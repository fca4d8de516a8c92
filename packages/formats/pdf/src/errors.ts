import { QuireError } from '@quire/core';

/**
 * The one mapping of "this PDF cannot be opened" to spec errors (FILE_003), whichever library found it:
 * pdf.js reading pages, pdf-lib loading a form to fill, or a page count at intake.
 */
export const encryptedPdfError = () =>
  new QuireError('FILE_003', 'The PDF is encrypted with a password; remove the password and upload again', { reason: 'encrypted' });

export const unreadablePdfError = (message: string, reason: 'invalid' | 'corrupted' = 'corrupted') =>
  new QuireError('FILE_003', `The PDF could not be read: ${message}`, { reason });

/** A pdf.js open failure (PasswordException, InvalidPDFException, anything else) as a spec error. */
export function pdfjsOpenError(e: unknown): QuireError {
  const name = (e as { name?: string })?.name;
  if (name === 'PasswordException') return encryptedPdfError();
  return unreadablePdfError(e instanceof Error ? e.message : String(e), name === 'InvalidPDFException' ? 'invalid' : 'corrupted');
}
