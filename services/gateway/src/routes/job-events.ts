import { Router, type Request, type Response } from 'express';
import { QuireError, isTerminal } from '@quire/core';
import { replayAfter, type SequencedJobEvent } from '@quire/queue';
import { statusEventData } from '@quire/jobs';
import type { GatewayDeps } from '../deps.js';

export interface JobEventRouteOptions {
  /** A `: keep-alive` comment after this long without an event (proxies drop silent streams). */
  keepAliveMs?: number;
  /** How long a stream waits for the worker's own terminal events once the job row is terminal, before publishing them itself. */
  terminalGraceMs?: number;
}

/**
 * GET /job/{jobId}/events: the job's live events as Server-Sent Events (see SseJobStream). Same
 * authentication as GET /job (the ?api_key= form for EventSource is turned into the header before
 * authentication, see eventStreamCredentials).
 */
export function jobEventRoutes(deps: GatewayDeps, opts: JobEventRouteOptions = {}): Router {
  const r = Router();
  r.get('/job/:jobId/events', async (req, res) => {
    const job = await deps.store.jobs.getForOrg(req.org!.id, req.params.jobId);
    if (!job) throw new QuireError('JOB_001', 'Job not found', { job_id: req.params.jobId });
    await new SseJobStream(deps, req, res, job.id, opts).start(lastEventId(req));
  });
  return r;
}

/** `Last-Event-ID` (what EventSource sends on reconnect) or `?last_event_id=`; undefined when absent or not an id. */
function lastEventId(req: Request): number | undefined {
  const raw = req.header('last-event-id') ?? (typeof req.query.last_event_id === 'string' ? req.query.last_event_id : undefined);
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * One client's stream. Subscribes before reading anything, so nothing published in between is lost:
 * events that arrive while the start is written are held and passed on after it, skipping ids already
 * sent. Ids only go up within a stream. The stream ends after an `end` event (the publisher sends one
 * after each terminal status), when the client goes, or when the gateway drains (the client
 * reconnects elsewhere with Last-Event-ID). If the job row is terminal but its terminal events never
 * came (a worker that died between commit and publish), the stream publishes them itself.
 */
class SseJobStream {
  private cursor = -1;
  private ended = false;
  private held: SequencedJobEvent[] | undefined = [];
  private readonly partial: boolean;
  private lastWrite = Date.now();
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly deps: GatewayDeps, req: Request, private readonly res: Response, private readonly jobId: string,
    private readonly opts: JobEventRouteOptions,
  ) {
    this.partial = req.query.partial === 'true' || req.query.partial === '1';
  }

  async start(lastSeen: number | undefined): Promise<void> {
    const { res, deps, jobId } = this;
    res.on('close', () => this.finish());
    // subscribed before the 200 goes out: a bus that cannot subscribe is still an error response
    const off = await deps.events.subscribe(jobId, (e) => (this.held ? this.held.push(e) : this.deliver(e)));
    this.cleanups.push(off);
    if (this.ended) return off(); // the client left while we subscribed
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    const [history, job] = await Promise.all([deps.events.history(jobId), deps.store.jobs.get(jobId)]);
    if (!job || this.ended) return this.finish();
    const replay = lastSeen === undefined ? undefined : replayAfter(history, lastSeen);
    if (replay) {
      for (const e of replay) this.deliver(e);
    } else if (isTerminal(job.status)) {
      // the retained terminal status and its end, as they were sent; else they are published again below
      const end = history.events.at(-1);
      const status = history.events.at(-2);
      if (end?.type === 'end' && status?.type === 'status' && status.data.status === job.status) {
        this.deliver(status);
        this.deliver(end);
      } else {
        this.cursor = history.lastId;
      }
    } else {
      this.write(history.lastId, 'status', statusEventData(job));
    }
    const held = this.held ?? [];
    this.held = undefined;
    for (const e of held) this.deliver(e);
    if (this.ended) return;
    if (isTerminal(job.status)) this.reconcileSoon();
    this.watch();
  }

  private deliver(e: SequencedJobEvent): void {
    if (this.ended || e.id <= this.cursor) return;
    if (e.type !== 'page' || this.partial) this.write(e.id, e.type, e.data);
    else this.cursor = e.id;
    if (e.type === 'end') this.finish();
  }

  private write(id: number, type: string, data: unknown): void {
    this.cursor = Math.max(this.cursor, id);
    this.res.write(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    this.lastWrite = Date.now();
  }

  /** Keep-alives, a drain check, and a look at the job row (a settled notification looks at once). */
  private watch(): void {
    const keepAliveMs = this.opts.keepAliveMs ?? 15_000;
    let lastCheck = Date.now();
    const tick = setInterval(() => {
      if (this.deps.lifecycle?.draining) return this.finish();
      const now = Date.now();
      if (now - this.lastWrite >= keepAliveMs) {
        this.res.write(': keep-alive\n\n');
        this.lastWrite = now;
      }
      if (now - lastCheck >= keepAliveMs) {
        lastCheck = now;
        void this.checkTerminal();
      }
    }, Math.min(1_000, keepAliveMs));
    tick.unref();
    this.cleanups.push(() => clearInterval(tick));
    this.cleanups.push(this.deps.queue.onSettled((id) => { if (id === this.jobId) this.reconcileSoon(); }));
  }

  private reconcileSoon(): void {
    const t = setTimeout(() => void this.checkTerminal(), this.opts.terminalGraceMs ?? 1_000);
    t.unref();
    this.cleanups.push(() => clearTimeout(t));
  }

  /** The row is terminal and no `end` came: publish the terminal status (and its end) for every follower. */
  private async checkTerminal(): Promise<void> {
    if (this.ended) return;
    const job = await this.deps.store.jobs.get(this.jobId).catch(() => undefined);
    if (!job || !isTerminal(job.status) || this.ended) return;
    await this.deps.jobs.events.status(job); // never throws: failures are logged by the publisher
    // the bus did not bring them back (unreachable): tell this client directly, then close
    const t = setTimeout(() => {
      if (this.ended) return;
      const data = statusEventData(job);
      this.write(this.cursor + 1, 'status', data);
      this.write(this.cursor + 1, 'end', { job_id: job.id, status: job.status });
      this.finish();
    }, this.opts.terminalGraceMs ?? 1_000);
    t.unref();
    this.cleanups.push(() => clearTimeout(t));
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const c of this.cleanups.splice(0)) c();
    if (!this.res.writableEnded) this.res.end();
  }
}
