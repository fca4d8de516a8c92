import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * Test support (not exported from the package): runs s3rver in a child process on 127.0.0.1, port 0.
 * A child process because s3rver 3.7 mints ListObjectsV2 continuation tokens with DES, which OpenSSL 3
 * only offers through the legacy provider (`--openssl-legacy-provider`, a process-wide flag); without
 * it any truncated listing answers 500. Also keeps the server's event loop apart from the client's.
 */
export interface S3rverTestServer {
  endpoint: string;
  stop(): Promise<void>;
}

const CHILD = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ address: '127.0.0.1', port: 0, directory: process.argv[2], silent: true });
server.run().then(({ address, port }) => process.stdout.write(JSON.stringify({ address, port }) + '\\n'));
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop); // parent gone → stop
process.stdin.resume();
`;

export async function startS3rver(): Promise<S3rverTestServer> {
  const require = createRequire(import.meta.url);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-s3rver-'));
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', '-e', CHILD, require.resolve('s3rver'), dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const { address, port } = await new Promise<{ address: string; port: number }>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited early (${code})`)));
    child.once('error', reject);
  });
  return {
    endpoint: `http://${address}:${port}`,
    async stop() {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); });
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
