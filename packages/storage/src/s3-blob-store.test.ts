import net from 'node:net';
import { startS3rver, type S3rverTestServer } from '../test/s3rver-test-server.js';
import { S3BlobStore } from './s3-blob-store.js';
import { describeBlobStoreConformance } from '../test/blob-store.conformance.js';

let server: S3rverTestServer;
let endpoint: string;
let bucketSeq = 0;

beforeAll(async () => {
  server = await startS3rver();
  endpoint = server.endpoint;
});

afterAll(async () => { await server.stop(); });

const makeStore = (bucket: string, over: Partial<ConstructorParameters<typeof S3BlobStore>[0]> = {}) =>
  new S3BlobStore({
    endpoint, region: 'us-east-1', bucket, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true, ...over,
  });

describeBlobStoreConformance('s3 (s3rver)', async () => {
  const store = makeStore(`quire-test-${++bucketSeq}`);
  await store.ensureBucket();
  return store;
}, { pathTraversal: true });

/** A stand-in S3 endpoint that records requests: HeadBucket → 404, CreateBucket → 200. */
async function recordingS3(): Promise<{ endpoint: string; requests: { method: string; url: string; body: string }[]; close(): Promise<void> }> {
  const http = await import('node:http');
  const requests: { method: string; url: string; body: string }[] = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, body });
      res.statusCode = req.method === 'HEAD' ? 404 : 200;
      res.end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((r) => srv.close(() => r())) };
}

describe('S3BlobStore specifics', () => {
  // AWS refuses a CreateBucket without a location constraint outside us-east-1, and one naming us-east-1;
  // the SDK's location-constraint middleware adds it from the client's region (QUIRE_S3_REGION).
  it('ensureBucket names the region outside us-east-1, and not in us-east-1', async () => {
    const s3 = await recordingS3();
    try {
      await new S3BlobStore({ endpoint: s3.endpoint, region: 'eu-west-1', bucket: 'b-eu', accessKeyId: 'k', secretAccessKey: 's', forcePathStyle: true }).ensureBucket();
      await new S3BlobStore({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'b-us', accessKeyId: 'k', secretAccessKey: 's', forcePathStyle: true }).ensureBucket();
      const creates = s3.requests.filter((r) => r.method === 'PUT');
      expect(creates.map((r) => r.url.replace(/\/$/, ''))).toEqual(['/b-eu', '/b-us']);
      expect(creates[0].body).toContain('<LocationConstraint>eu-west-1</LocationConstraint>');
      expect(creates[1].body).not.toContain('LocationConstraint');
    } finally {
      await s3.close();
    }
  });

  it('ensureBucket is idempotent', async () => {
    const store = makeStore('quire-ensure');
    await store.ensureBucket();
    await store.ensureBucket();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
  });

  it('deletePrefix pages through more than one listing', async () => {
    const store = makeStore('quire-many');
    await store.ensureBucket();
    const n = 1010; // over one ListObjectsV2 / DeleteObjects batch of 1000
    for (let i = 0; i < n; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, j) => store.put(`org/m/${i + j}`, Buffer.from('x'))));
    }
    await store.put('org/other', Buffer.from('keep'));
    expect(await store.deletePrefix('org/m/')).toBe(n);
    expect(await store.head('org/m/5')).toBeNull();
    expect(await store.head('org/other')).not.toBeNull();
    await store.close();
  });

  it('maps an unreachable endpoint to STORAGE_003', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const store = makeStore('quire-down', { endpoint: `http://127.0.0.1:${port}`, maxAttempts: 1 });
    await expect(store.ping()).rejects.toMatchObject({ code: 'STORAGE_003' });
    await expect(store.getBytes('org/a')).rejects.toMatchObject({ code: 'STORAGE_003' });
    await store.close();
  });

  it('a missing bucket is not mistaken for a missing key', async () => {
    const store = makeStore('quire-no-such-bucket');
    await expect(store.getBytes('org/a')).rejects.toMatchObject({ code: expect.stringMatching(/^STORAGE_00[13]$/) });
    await store.close();
  });
});
