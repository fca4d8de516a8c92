import http from 'node:http';

/**
 * Streams a multipart/form-data request whose file part is produced chunk by chunk (the test process
 * never holds the whole upload either). Resolves with the response as soon as the server answers,
 * even when the server answers early and closes the connection mid-upload.
 */
export interface StreamedUploadResult {
  status: number;
  body: any;
  /** Bytes of the file part the client managed to write before the answer. */
  sent: number;
}

export function streamMultipartUpload(url: string, opts: {
  key: string;
  fields?: Record<string, string>;
  filename: string;
  contentType?: string;
  /** Yields the file's bytes. */
  chunks: () => Iterable<Uint8Array>;
  /** Send Content-Length (computed from `totalBytes`) instead of chunked encoding. */
  totalBytes?: number;
}): Promise<StreamedUploadResult> {
  const boundary = `----quire${Math.random().toString(16).slice(2)}`;
  let head = '';
  for (const [k, v] of Object.entries(opts.fields ?? {})) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.filename}"\r\nContent-Type: ${opts.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': opts.key };
  if (opts.totalBytes !== undefined) headers['content-length'] = String(Buffer.byteLength(head) + opts.totalBytes + Buffer.byteLength(tail));
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, { method: 'POST', headers });
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body, sent });
      });
      res.on('error', reject);
    });
    req.on('error', (e) => { if (!answered) reject(e); });
    const it = opts.chunks()[Symbol.iterator]();
    const pump = () => {
      if (answered || req.destroyed) return;
      for (;;) {
        const n = it.next();
        if (n.done) { req.end(tail); return; }
        sent += n.value.byteLength;
        if (!req.write(n.value)) { req.once('drain', pump); return; }
      }
    };
    req.write(head);
    pump();
  });
}

/** `total` bytes in `chunkSize` pieces, all views of one buffer. */
export function* repeatedBytes(total: number, chunkSize = 1024 * 1024, fill = 0x41): Iterable<Uint8Array> {
  const buf = Buffer.alloc(chunkSize, fill);
  for (let left = total; left > 0; left -= chunkSize) yield left >= chunkSize ? buf : buf.subarray(0, left);
}

/**
 * A valid one-page PDF of about `paddingBytes` + 1 KB: an unreferenced padding stream first, then the
 * page objects, xref and trailer with exact offsets — produced as chunks, never whole in memory.
 */
export function paddedPdf(paddingBytes: number, text = 'Large padded PDF'): { size: number; chunks: () => Iterable<Uint8Array> } {
  const header = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const padHead = `6 0 obj\n<< /Length ${paddingBytes} >>\nstream\n`;
  const padTail = '\nendstream\nendobj\n';
  const content = `BT /F1 14 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n',
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>\nendobj\n',
    '4 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n',
    `5 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n`,
  ];
  const latin = (s: string) => Buffer.from(s, 'latin1');
  const offsets: number[] = [];
  let pos = latin(header).length;
  const padOffset = pos;
  pos += latin(padHead).length + paddingBytes + latin(padTail).length;
  for (const o of objects) { offsets.push(pos); pos += latin(o).length; }
  const xrefAt = pos;
  const entry = (n: number) => `${String(n).padStart(10, '0')} 00000 n \n`;
  const xref = `xref\n0 7\n0000000000 65535 f \n${offsets.map(entry).join('')}${entry(padOffset)}trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  const size = xrefAt + latin(xref).length;
  return {
    size,
    *chunks() {
      yield latin(header + padHead);
      yield* repeatedBytes(paddingBytes, 1024 * 1024, 0x20);
      yield latin(padTail + objects.join('') + xref);
    },
  };
}
