import fs from 'node:fs';
import path from 'node:path';
import { QUEUE_NAMES, JOB_CATALOG, isJobKind } from '@quire/queue';
import { createWebhookDispatcher, type Config, type ContextOptions } from '@quire/runtime';
import { JobRunner, RetentionSweeper, createServiceContext, type RunnableJobHandler, type ServiceContext } from '@quire/jobs';
import { ServerDrain, createGatewayApp, createGatewayServer, drainTimeoutMs, fileUrlFetcher, type GatewayLifecycle } from '@quire/gateway';
import { JOB_HANDLERS, checkOcrEngine, createStepServices } from '@quire/steps';
import { ensureDevOrganization } from './bootstrap.js';
import { startAdminChannel } from './admin-channel.js';
import { BackupSchedule } from './backup-schedule.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { reservePort, type PortReservation } from './port-reservation.js';

export interface EmbeddedServer {
  url: string;
  ctx: ServiceContext;
  /** The generated dev key, on the first start only. */
  generatedKey?: string;
  close(): Promise<void>;
}

/** Embedded mode: gateway, every worker queue, the retention sweeper — one process over PGlite, fs blobs and the in-process queue. */
export interface EmbeddedOptions extends ContextOptions {
  /** Tests: replace or add job handlers (e.g. a controllable slow job, made with defineJobHandler). */
  handlers?: Record<string, RunnableJobHandler>;
  /** Tests: accept jobs without running them (to stop with work pending). */
  startWorkers?: boolean;
  /** The local admin channel for `quire admin` while serving (default on; see admin-channel.ts). */
  adminChannel?: boolean;
}

export async function startEmbedded(config: Config, opts: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  checkOcrEngine(config); // before anything is opened: a misconfigured engine stops the start
  // The data directory, then the port, before anything opens either: a second start is refused untouched.
  const lock = lockDataDir(config.dataDir);
  let reservation: PortReservation | undefined;
  let ctx: ServiceContext | undefined;
  try {
    reservation = await reservePort(config.port, config.host);
    removeUnfinishedUploads(config.dataDir);
    ctx = await createServiceContext(config, { ...opts, role: 'embedded' });
    return await serve(ctx, reservation, lock, opts);
  } catch (e) {
    await reservation?.close();
    await ctx?.close();
    lock.release();
    throw e;
  }
}

/**
 * The file blob store writes each object to blobs/tmp/ first and renames it into place when complete; an
 * abrupt end (kill -9, power loss) leaves its partial files there. Only the lock holder writes to this data
 * directory, so at start nothing in tmp/ can still be in progress.
 */
function removeUnfinishedUploads(dataDir: string): void {
  const tmp = path.join(dataDir, 'blobs', 'tmp');
  if (!fs.existsSync(tmp)) return;
  for (const name of fs.readdirSync(tmp)) fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
}

async function serve(ctx: ServiceContext, reservation: PortReservation, lock: DataDirLock, opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const { config } = ctx;
  const { newKey } = await ensureDevOrganization(ctx.store, config.bootstrapApiKey);
  const services = createStepServices(ctx);
  // built-in handlers on job threads (see createStepServices); handlers a test injects run here
  const handlers = { ...services.handlers, ...(opts.handlers ?? {}) };
  const runner = new JobRunner({ ...ctx, services: { ocr: services.ocr, languageModel: services.languageModel } }, handlers);
  if (opts.startWorkers !== false) runner.start(QUEUE_NAMES);
  ctx.log.info({ handlersOn: services.handlersOn, jobThreads: config.jobThreads }, 'job handlers ready');
  if (opts.startWorkers !== false) await resumeUnfinishedJobs(ctx);
  const sweeper = new RetentionSweeper(ctx.store, ctx.blobs, ctx.log, ctx.jobs.events);
  sweeper.start(config.sweepIntervalSeconds * 1000);
  const backups = new BackupSchedule(ctx.store, config.dataDir, config.backup.keep, ctx.log);
  backups.start(config.backup.intervalHours * 3600_000);
  const dispatcher = createWebhookDispatcher(ctx.store, config, ctx.log, 'embedded');
  if (opts.startWorkers !== false) dispatcher.start();
  const lifecycle: GatewayLifecycle = { draining: false };
  const server = createGatewayServer(createGatewayApp({ ...ctx, lifecycle, fetchUrl: fileUrlFetcher(config) }));
  await reservation.handOver(server);
  const drain = new ServerDrain(server, lifecycle);
  const admin = opts.adminChannel === false ? undefined : await startAdminChannel(ctx.store, config.dataDir, config.backup.keep);
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${reservation.port}`, ctx, generatedKey: newKey,
    close: () => (closing ??= (async () => {
      const sweeperStopped = sweeper.stop();
      const backupStopped = backups.stop();
      // HTTP first, while the workers still run: a synchronous request in flight waits for a job that
      // this process runs, so it can only finish if the queue is still being worked. Bounded like the
      // fleet gateway's drain (the sync wait plus a margin).
      const { timedOut, cut } = await drain.drain(drainTimeoutMs(config));
      if (timedOut) ctx.log.warn({ cut }, 'requests still in flight at the drain bound were cut (accepted jobs run on, or after the next start)');
      await sweeperStopped; // a round in progress ends after its job in hand, before the stores close
      await backupStopped; // a copy being written is finished
      await dispatcher.stop();
      await admin?.close();
      await ctx.queue.close();      // stop taking work, wait for handlers in flight
      await runner.drain();
      await services.close();
      await ctx.close();
      lock.release(); // last: the data directory is closed
    })()),
  };
}

/** Jobs accepted before a stop are run again: processing ones are handed back first. Nothing accepted is lost. */
async function resumeUnfinishedJobs(ctx: ServiceContext): Promise<void> {
  for (const job of await ctx.store.jobs.listUnfinished()) {
    if (!isJobKind(job.kind)) continue;
    if (job.status === 'processing') await ctx.store.jobs.transition(job.id, 'pending');
    await ctx.queue.enqueue(JOB_CATALOG[job.kind].queue, { jobId: job.id, kind: job.kind });
    ctx.log.info({ jobId: job.id, kind: job.kind }, 'resumed job accepted before the last stop');
  }
}
