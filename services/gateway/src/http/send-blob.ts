import { pipeline, type Readable } from 'node:stream';
import type { Response } from 'express';

/**
 * Streams a stored blob as the response body. A client that goes away, or a read that fails half-way,
 * destroys both ends: `body.pipe(res)` leaves the source open in both cases (a file descriptor or an S3
 * socket held until garbage collection) and, on a read error, a response that never ends.
 */
export function sendBlob(res: Response, body: Readable): void {
  pipeline(body, res, () => undefined); // the error, if any, has already destroyed the response: nothing more to send
}
