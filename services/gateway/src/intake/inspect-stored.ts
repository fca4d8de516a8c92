import { inspectStoredDocument, type DocumentInfo } from '@quire/extract';
import type { GatewayDeps } from '../deps.js';
import type { ReceivedRequest } from './receive-document.js';

/**
 * Format and page count of a received document, for validation and the credit quote, in bounded
 * memory: large documents are read by range from the blob store, never whole (see inspectStoredDocument).
 * Every step route that quotes by pages should use this instead of blobs.getBytes.
 */
export function inspectReceived(deps: GatewayDeps, document: NonNullable<ReceivedRequest['document']>): Promise<DocumentInfo> {
  return inspectStoredDocument({ size: document.size, read: (start, end) => deps.blobs.getRange(document.blobKey, start, end) });
}
