import net from 'node:net';

/**
 * Hand-made multipart requests over a raw socket, for bodies no HTTP client would send: cut short,
 * malformed, or abandoned mid-body. The request line and headers are written as given, so the declared
 * Content-Length may disagree with what is sent.
 */
export const BOUNDARY = 'quire-hostile-boundary';

/** The start of a multipart body up to the first bytes of a file part (no closing boundary). */
export function fileHead(field = 'file', filename = 'doc.pdf', fields: Record<string, string> = {}): string {
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  return `${head}--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`;
}

export interface RawAnswer {
  status: number;
  body: any;
}

export interface RawRequest {
  key: string;
  /** The body bytes sent. */
  body: string | Buffer;
  /** Content-Length to declare (default: the body's length). */
  contentLength?: number;
  contentType?: string;
}

function requestHead(url: URL, r: RawRequest): string {
  const length = r.contentLength ?? Buffer.byteLength(r.body);
  return `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${r.key}\r\n` +
    `Content-Type: ${r.contentType ?? `multipart/form-data; boundary=${BOUNDARY}`}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
}

/** Sends a complete (if malformed or truncated) request and reads the answer until the server closes. */
export function sendRaw(urlText: string, r: RawRequest): Promise<RawAnswer> {
  const url = new URL(urlText);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const raw = rest.join('\r\n\r\n');
      let body: unknown = raw;
      try { body = JSON.parse(raw); } catch { /* not JSON */ }
      resolve({ status, body });
    });
    socket.write(requestHead(url, r));
    socket.write(r.body);
  });
}

/**
 * Starts a request that declares more body than it sends, writes what is given, then waits for
 * `whenToAbort` (a condition the caller observes on the server, e.g. the upload being staged) and
 * destroys the socket without ever finishing the body.
 */
export async function abortMidBody(urlText: string, r: RawRequest, whenToAbort: () => Promise<void>): Promise<void> {
  const url = new URL(urlText);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined); // a reset from the server after the abort is expected
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
  socket.write(requestHead(url, r));
  socket.write(r.body);
  await whenToAbort();
  socket.destroy();
}
