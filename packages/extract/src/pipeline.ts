import { QuireError, assignIds, type Document, type ParseOptions, type SourceFormat } from '@quire/core';
import { parse as parseHtml } from '@quire/format-html';

/**
 * Bytes → the document model, by format: office and HTML readers produce a Document directly;
 * PDF and image readers produce raw pages that layout analysis turns into one.
 */
export async function extractDocument(bytes: Uint8Array, format: SourceFormat, options: ParseOptions = {}): Promise<Document> {
  switch (format) {
    case 'html':
      return assignIds(await parseHtml(bytes, options));
    default:
      throw new QuireError('GENERAL_005', `Extraction of ${format.toUpperCase()} files is not available in this build yet`, { format });
  }
}
