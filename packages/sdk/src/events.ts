import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { backoffDelay, sleep } from './backoff.js';
import { QuireError, isAbortError } from './errors.js';
import type { Transport } from './transport.js';
import type { JobStatus } from './types.js';

/** One element of a live page result, in reading order. */
export interface JobPageElement {
  type: 'heading' | 'list' | 'text' | 'table' | 'figure';
  /** Text elements: their category in the extraction layout (Title, Header, Text, List Items, caption…). */
  category?: string;
  /** [start, end): where the element sits in the page's markdown, `markdown.slice(start, end)` (UTF-16 offsets). */
  markdown_span: [number, number];
  /** Normalized polygon [x0,y0,x1,y0,x1,y1,x0,y1]; null when the source has no geometry. */
  bounding_box: number[] | null;
}

/**
 * One page's result as soon as the page is done (`partial`). `provisional`: a PDF or image page laid out on its
 * own while later pages were still being read; the final result decides running headers and footers, heading
 * levels and footnotes over the whole document and may differ there. Office and HTML pages come final.
 */
export interface JobPageResult {
  page: number; markdown: string; elements: JobPageElement[]; provisional: boolean;
  /** The page could not be read (too large, broken, OCR failed): why it has no content. */
  error?: { code: string; message: string };
}

/** Events of GET /job/{jobId}/events (docs: the live progress contract). */
export type JobEvent =
  | { id?: number; type: 'status'; data: { job_id: string; status: JobStatus; pages_done?: number; pages_total?: number; error?: { code: string; message: string } } }
  | { id?: number; type: 'progress'; data: { job_id: string; pages_done: number; pages_total: number } }
  | { id?: number; type: 'page'; data: { job_id: string } & JobPageResult }
  | { id?: number; type: 'end'; data: { job_id: string; status: JobStatus } };

/** The service has no events route (older server) or it failed before the first event: poll instead. */
export class EventsUnavailableError extends Error {
  constructor(reason: string) {
    super(`live progress unavailable: ${reason}`);
    this.name = 'EventsUnavailableError';
  }
}

export interface JobEventsOptions {
  signal?: AbortSignal;
  /** Ask for `page` events: each page's result (markdown and elements) as soon as it is done. */
  partial?: boolean;
  /** Resume after this event id (Last-Event-ID). */
  lastEventId?: number;
  /** Reconnections after a dropped stream before giving up (default 5). */
  maxReconnects?: number;
}

const KNOWN_TYPES = new Set(['status', 'progress', 'page', 'end']);

/**
 * Streams a job's events until `end`. A stream that drops is reopened with Last-Event-ID, so events are neither
 * lost nor repeated (the server replays what it retains, or sends a fresh status snapshot). Throws
 * EventsUnavailableError when the route is missing (404/405/501, or not an event stream) or the connection fails
 * before any event arrived.
 */
export async function* jobEvents(t: Transport, jobId: string, o: JobEventsOptions = {}): AsyncGenerator<JobEvent> {
  let lastId = o.lastEventId;
  let received = false;
  for (let reconnects = 0; ; ) {
    let res: Response;
    try {
      res = await t.request('GET', `/job/${encodeURIComponent(jobId)}/events`, {
        signal: o.signal, noRetry: true, query: { partial: o.partial ? 'true' : undefined },
        headers: { accept: 'text/event-stream', ...(lastId !== undefined ? { 'last-event-id': String(lastId) } : {}) },
      });
    } catch (e) {
      if (o.signal?.aborted || isAbortError(e)) throw e;
      if (e instanceof QuireError && !routeMissing(e)) throw e; // auth and such are real
      if (!received) throw new EventsUnavailableError(e instanceof Error ? e.message : String(e));
      if (++reconnects > (o.maxReconnects ?? 5)) throw e;
      await sleep(backoffDelay(reconnects - 1, { initialMs: 250, maxMs: 4000 }), o.signal);
      continue;
    }
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      await res.body?.cancel();
      throw new EventsUnavailableError(`GET /job/{id}/events answered ${res.headers.get('content-type') ?? 'no content type'}`);
    }
    let ended = false;
    try {
      for await (const msg of readEvents(res.body!)) {
        if (!msg.event || !KNOWN_TYPES.has(msg.event)) continue; // later additions to the contract
        const id = msg.id !== undefined && msg.id !== '' ? Number(msg.id) : undefined;
        if (id !== undefined && Number.isFinite(id)) lastId = id;
        received = true;
        reconnects = 0;
        const event = { id, type: msg.event, data: JSON.parse(msg.data) } as JobEvent;
        yield event;
        if (event.type === 'end') { ended = true; break; }
      }
    } catch (e) {
      if (o.signal?.aborted || isAbortError(e)) throw o.signal?.reason ?? e;
      if (!received) throw new EventsUnavailableError((e as Error).message);
      // dropped mid-stream: reconnect below
    }
    if (ended) return;
    if (++reconnects > (o.maxReconnects ?? 5)) throw new QuireError('GENERAL_002', 'Job event stream kept closing before the job ended', 0, { job_id: jobId });
    await sleep(backoffDelay(reconnects - 1, { initialMs: 250, maxMs: 4000 }), o.signal);
  }
}

/**
 * The contract's "route unavailable": 404/405/501 or no response; also the 400 REQ_003 "No such endpoint" (with
 * details.path) that servers from before the route answer for unknown paths.
 */
function routeMissing(e: QuireError): boolean {
  return e.status === 0 || [404, 405, 501].includes(e.status) || (e.code === 'REQ_003' && typeof e.details?.path === 'string');
}

/** Parses a text/event-stream body into messages (comments and keep-alives are skipped by the parser). */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => queue.push(m) });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(value);
      while (queue.length) yield queue.shift()!;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
