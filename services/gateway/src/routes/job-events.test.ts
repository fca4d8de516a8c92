import type { AddressInfo } from 'node:net';
import express from 'express';
import { InProcessJobEventBus, type JobEventBus } from '@quire/queue';
import { JobEventPublisher } from '@quire/jobs';
import { createLogger } from '@quire/runtime';
import type { JobRecord } from '@quire/storage';
import type { GatewayDeps, GatewayLifecycle } from '../deps.js';
import { jobEventRoutes } from './job-events.js';
import { openSse } from '../../../../tests/support/sse-client.js';

/**
 * The events route on its own, over a real HTTP server, with the job row in the test's hands: keep-alives,
 * a terminal row whose events never came (a worker that died after committing), a bus that cannot
 * publish, and a draining gateway.
 */
const JOB = '00000000-0000-4000-8000-000000000001';

async function withRoute(
  opts: { row: () => Partial<JobRecord>; bus?: JobEventBus; lifecycle?: GatewayLifecycle },
  run: (url: string, bus: JobEventBus) => Promise<void>,
): Promise<void> {
  const bus = opts.bus ?? new InProcessJobEventBus();
  const log = createLogger('silent');
  const row = () => ({ id: JOB, org_id: 'org', progress: null, error: null, ...opts.row() }) as JobRecord;
  const deps = {
    store: { jobs: { getForOrg: async () => row(), get: async () => row() } },
    events: bus,
    queue: { onSettled: () => () => undefined },
    jobs: { events: new JobEventPublisher(bus, log) },
    lifecycle: opts.lifecycle,
  } as unknown as GatewayDeps;
  const app = express();
  app.use((req, _res, next) => { req.org = { id: 'org' } as never; next(); });
  app.use(jobEventRoutes(deps, { keepAliveMs: 50, terminalGraceMs: 50 }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/job/${JOB}/events`, bus);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
}

describe('GET /job/{id}/events (route)', () => {
  it('sends keep-alive comments while nothing happens, then follows the job to its end', async () => {
    let status = 'processing';
    await withRoute({ row: () => ({ status: status as never }) }, async (url, bus) => {
      const sse = await openSse(url);
      expect(await sse.next()).toEqual({ id: 0, event: 'status', data: { job_id: JOB, status: 'processing' } });
      const pending = sse.next();
      await until(() => sse.comments.includes('keep-alive'));
      status = 'completed';
      await new JobEventPublisher(bus, createLogger('silent')).status({ id: JOB, status: 'completed', error: null });
      expect(await pending).toEqual({ id: 1, event: 'status', data: { job_id: JOB, status: 'completed' } });
      expect(await sse.collect()).toEqual([{ id: 2, event: 'end', data: { job_id: JOB, status: 'completed' } }]);
      expect(bus.listenerCount()).toBe(0);
    });
  });

  it('publishes the terminal status and end itself when the row is terminal and they never came', async () => {
    await withRoute({ row: () => ({ status: 'failed', error: { code: 'PROC_001', message: 'broken' } }) }, async (url, bus) => {
      const frames = await (await openSse(url)).collect();
      expect(frames).toEqual([
        { id: 1, event: 'status', data: { job_id: JOB, status: 'failed', error: { code: 'PROC_001', message: 'broken' } } },
        { id: 2, event: 'end', data: { job_id: JOB, status: 'failed' } },
      ]);
      // retained: the next client gets the same two events
      expect(ids(await (await openSse(url)).collect())).toEqual([1, 2]);
      expect(bus.listenerCount()).toBe(0);
    });
  });

  it('still ends the stream when the bus cannot publish', async () => {
    const broken = new InProcessJobEventBus();
    broken.publish = async () => { throw new Error('redis is down'); };
    await withRoute({ row: () => ({ status: 'canceled' }), bus: broken }, async (url) => {
      const frames = await (await openSse(url)).collect();
      expect(frames.map((f) => [f.event, f.data.status])).toEqual([['status', 'canceled'], ['end', 'canceled']]);
      expect(frames[1].id).toBeGreaterThan(frames[0].id!);
    });
  });

  it('closes its streams when the gateway drains (clients reconnect elsewhere)', async () => {
    const lifecycle: GatewayLifecycle = { draining: false };
    await withRoute({ row: () => ({ status: 'processing' }), lifecycle }, async (url, bus) => {
      const sse = await openSse(url);
      await sse.next();
      lifecycle.draining = true;
      expect(await sse.collect()).toEqual([]);
      expect(sse.closed).toBe(true);
      expect(bus.listenerCount()).toBe(0);
    });
  });
});

const ids = (frames: { id?: number }[]) => frames.map((f) => f.id);
