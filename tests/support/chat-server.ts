import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server sends back: the assistant message content, an HTTP error, or nothing at all (the request hangs). */
export type ChatReply = string | { status: number; body?: string } | { hang: true };

/**
 * An OpenAI-compatible chat-completions endpoint in the test process: each request body is recorded
 * and answered with `answer(body)`: a string as the assistant message content, `{ status }` as an
 * HTTP error, `{ hang: true }` as no answer until the server closes. `baseUrl` is what
 * QUIRE_LLM_BASE_URL takes.
 */
export async function startChatServer(answer: (body: any) => ChatReply): Promise<{ baseUrl: string; requests: any[]; close: () => Promise<void> }> {
  const requests: any[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data);
      requests.push(body);
      const reply = answer(body);
      if (typeof reply === 'string') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: reply } }] }));
      else if ('status' in reply) res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body ?? '{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
