import { S3BlobStore } from '@quire/storage';
import { fleetEnvAvailable, fleetSkipMessage, startFleet, type Fleet } from '../../scripts/lib/fleet.mjs';
import { BOUNDARY, abortMidBody, fileHead, sendRaw } from '../support/raw-multipart.js';

/**
 * The fleet gateway (its own process, uploads streamed to S3) given truncated, malformed and abandoned
 * multipart bodies on every upload route: 400 REQ_002 where an answer can be read, the process stays up
 * and serving, and no object is left in the bucket.
 */
if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the fleet hostile multipart test'));
const maybe = fleetEnvAvailable() ? describe : describe.skip;

const UPLOAD_ROUTES = ['/extract', '/extract_async', '/classify', '/form/detect', '/form/fill', '/form/clear', '/convert', '/batch/extract'];
const fileField = (route: string) => (route === '/batch/extract' ? 'files' : 'file');
const KB = 1024;

maybe('fleet gateway: truncated, malformed and aborted multipart uploads', () => {
  let fleet: Fleet;
  beforeAll(async () => { fleet = await startFleet({ workers: [] }); }, 90_000);
  afterAll(async () => { await fleet?.close(); }, 60_000);

  const expectMalformed = (r: { status: number; body: any }) => {
    expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status: 400, code: 'REQ_002' });
  };

  it.each(UPLOAD_ROUTES)('%s: every bad body is refused and the gateway keeps serving', async (route) => {
    const url = fleet.url + route;
    const truncated = Buffer.concat([Buffer.from(fileHead(fileField(route))), Buffer.alloc(256 * KB, 0x41)]);
    expectMalformed(await sendRaw(url, { key: fleet.key, body: truncated }));
    expectMalformed(await sendRaw(url, { key: fleet.key, body: `--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\nabc\r\n--${BOUNDARY}--\r\n` }));
    expectMalformed(await sendRaw(url, { key: fleet.key, body: 'abc', contentType: 'multipart/form-data' }));
    // Abandoned mid-file: the socket is destroyed once the gateway has answered nothing but read the start.
    await abortMidBody(url, { key: fleet.key, body: truncated, contentLength: truncated.length + 1024 * KB }, async () => {
      expect((await fetch(`${fleet.url}/healthz`)).status).toBe(200); // the gateway is reading the body meanwhile
    });
    expect(fleet.gateway.child.exitCode).toBeNull();
    expect((await fetch(`${fleet.url}/healthz`)).status).toBe(200);
  }, 60_000);

  it('leaves no staged object in the bucket', async () => {
    const blobs = new S3BlobStore({ endpoint: fleet.s3Endpoint, region: 'us-east-1', bucket: fleet.env.QUIRE_S3_BUCKET, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    try {
      // No part above ever completed, so no object may exist (S3 multipart uploads of the aborted parts are aborted too).
      expect(await blobs.deletePrefix(`${fleet.org.id}/`)).toBe(0);
    } finally {
      await blobs.close();
    }
    expect(fleet.gateway.child.exitCode).toBeNull();
  }, 60_000);
});
