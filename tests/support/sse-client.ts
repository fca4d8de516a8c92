/** A Server-Sent Events reader for tests: parses `id`/`event`/`data` frames and comments off a fetch body. */
export interface SseFrame { id?: number; event: string; data: any }

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The next frame; undefined once the server closed the stream. */
  next(): Promise<SseFrame | undefined>;
  /** Frames until (and including) the one `until` accepts, or until the stream ends. */
  collect(until?: (f: SseFrame) => boolean): Promise<SseFrame[]>;
  /** Comment lines seen so far (`: keep-alive`). */
  comments: string[];
  /** True once the server ended the stream. */
  readonly closed: boolean;
  abort(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ac.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let closed = false;
  const comments: string[] = [];
  const frames: SseFrame[] = [];

  const parseBlock = (block: string) => {
    const f: { id?: number; event: string; data: string[] } = { event: 'message', data: [] };
    let any = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) { comments.push(line.slice(1).trim()); continue; }
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'id') { f.id = Number(value); any = true; } else if (field === 'event') { f.event = value; any = true; } else if (field === 'data') { f.data.push(value); any = true; }
    }
    if (any) frames.push({ id: f.id, event: f.event, data: f.data.length ? JSON.parse(f.data.join('\n')) : undefined });
  };

  const next = async (): Promise<SseFrame | undefined> => {
    for (;;) {
      if (frames.length) return frames.shift();
      if (closed) return undefined;
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        closed = true;
        continue;
      }
      if (chunk.done) { closed = true; buffer += '\n\n'; } else buffer += decoder.decode(chunk.value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.trim()) parseBlock(block);
      }
    }
  };

  return {
    status: res.status, headers: res.headers, comments, next,
    get closed() { return closed && frames.length === 0; },
    async collect(until) {
      const out: SseFrame[] = [];
      for (;;) {
        const f = await next();
        if (!f) return out;
        out.push(f);
        if (until?.(f)) return out;
      }
    },
    abort: () => { ac.abort(); },
  };
}
