import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting, parsed once from QUIRE_* environment variables. Empty means unset; an invalid value
 * fails at start with a message naming the variable. The README's configuration table mirrors ENV_DOCS.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v));
const int = (min: number) => z.coerce.number().int().min(min);
const num = (min: number) => z.coerce.number().min(min);
const list = z.string().transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));

/** The number of cores, the default of per-process parallelism; documented as such (`shownDefault`), not as this machine's figure. */
const CORES = { default: String(Math.max(1, os.availableParallelism())), shownDefault: 'number of cores' };

/** `shownDefault`: how the README states a default computed at start. */
export const ENV_DOCS: Record<string, { schema: z.ZodType; default?: string; shownDefault?: string; doc: string }> = {
  QUIRE_MODE: { schema: z.enum(['embedded', 'distributed']), default: 'embedded', doc: 'embedded: one process with PGlite, filesystem blobs and an in-process queue. distributed: Postgres, Redis (BullMQ) and S3; each service runs separately.' },
  QUIRE_HOST: { schema: z.string(), default: '0.0.0.0', doc: 'Address the gateway listens on.' },
  QUIRE_PORT: { schema: int(0), default: '8080', doc: 'Gateway port (0 picks a free one).' },
  QUIRE_PUBLIC_URL: { schema: z.string().url(), doc: 'Base URL used in pdf_url, image_url and result URLs. Default: derived from each request.' },
  QUIRE_DATA_DIR: { schema: z.string(), default: './data', doc: 'Embedded mode: where PGlite and blobs live.' },
  QUIRE_DATABASE_URL: { schema: z.string(), doc: 'Distributed mode: Postgres connection string.' },
  QUIRE_DATABASE_POOL_SIZE: { schema: int(1), default: '10', doc: 'Postgres pool size per process.' },
  QUIRE_REDIS_URL: { schema: z.string(), doc: 'Distributed mode: Redis for BullMQ, settled notifications and rate limits.' },
  QUIRE_QUEUE_PREFIX: { schema: z.string(), default: 'quire', doc: 'Key prefix for BullMQ queues in Redis.' },
  QUIRE_S3_ENDPOINT: { schema: z.string(), doc: 'S3-compatible endpoint (MinIO). Unset = AWS default endpoint.' },
  QUIRE_S3_REGION: { schema: z.string(), default: 'us-east-1', doc: 'S3 region.' },
  QUIRE_S3_BUCKET: { schema: z.string(), default: 'quire', doc: 'S3 bucket for blobs.' },
  QUIRE_S3_ACCESS_KEY_ID: { schema: z.string(), doc: 'S3 access key.' },
  QUIRE_S3_SECRET_ACCESS_KEY: { schema: z.string(), doc: 'S3 secret key.' },
  QUIRE_S3_CREATE_BUCKET: { schema: bool, default: 'true', doc: 'Create the bucket at start when it does not exist (needs s3:CreateBucket; turn off where the bucket is provisioned).' },
  QUIRE_S3_FORCE_PATH_STYLE: { schema: bool, default: 'true', doc: 'Path-style S3 URLs (needed for MinIO and localhost).' },
  QUIRE_BOOTSTRAP_API_KEY: { schema: z.string().min(16), doc: 'Embedded mode: the dev organization gets this key (every flag on, no cap). Unset: a key is generated and printed once.' },
  QUIRE_RETENTION_HOURS: { schema: num(0), default: '48', doc: 'Default lifetime of jobs and their artifacts (organizations may override).' },
  QUIRE_SWEEP_INTERVAL_SECONDS: { schema: num(1), default: '300', doc: 'How often expired jobs and artifacts are swept (embedded: the process; fleet: one gateway per round).' },
  QUIRE_UPLOAD_LIMIT_MB: { schema: num(0.001), default: '100', doc: 'Largest direct upload; larger files must use file_url (413 FILE_TOO_LARGE_USE_URL).' },
  QUIRE_FILE_URL_TIMEOUT_SECONDS: { schema: num(1), default: '120', doc: 'Time limit for a file_url download, from the request to the last byte (FILE_006 past it).' },
  QUIRE_FILE_URL_MAX_MB: { schema: num(0.001), default: '2048', doc: 'Largest document a file_url download may bring (FILE_002 past it, checked against Content-Length first and counted while streaming).' },
  QUIRE_HTML_FETCH_IMAGES: { schema: bool, default: 'false', doc: 'Fetch remote <img> sources of HTML uploads (through the same SSRF guard and allow-list as file_url; at most 10 MB each). Off: they are listed in warnings.' },
  QUIRE_FILE_URL_ALLOW_PRIVATE: { schema: bool, default: 'false', doc: 'Allow file_url to reach loopback/private/link-local addresses. Development only.' },
  QUIRE_FILE_URL_ALLOW_HOSTS: { schema: list, default: '', doc: 'Comma-separated hosts or IPs file_url may reach even when private (e.g. 127.0.0.1 for tests).' },
  QUIRE_INLINE_RESULT_LIMIT_BYTES: { schema: int(1), default: String(5 * 1024 * 1024), doc: 'Results this size or larger are delivered as a single-use URL.' },
  QUIRE_RESULT_ROW_LIMIT_BYTES: { schema: int(0), default: String(128 * 1024), doc: 'Results this size or larger (and under QUIRE_INLINE_RESULT_LIMIT_BYTES) are kept in the blob store instead of the job row, and still delivered inline: large jsonb is costly to write and read (in embedded mode PGlite parses it on the main thread). 0 keeps every inline result in the blob store.' },
  QUIRE_SYNC_WAIT_SECONDS: { schema: num(0.1), default: '300', doc: 'How long a synchronous request waits for its job; past it the job is canceled and PROC_002 returned. A stopping gateway (SIGTERM) lets requests in flight finish for up to this plus 15 s.' },
  QUIRE_WORKER_CONCURRENCY: { schema: int(1), ...CORES, doc: 'Jobs processed at once per queue in this process.' },
  QUIRE_JOB_THREADS: { schema: int(0), shownDefault: 'QUIRE_WORKER_CONCURRENCY', doc: 'Worker threads that run job handlers in this process (layout, XLSX, tables, forms…), so CPU-heavy steps never block its event loop (the gateway in embedded mode; queue heartbeats and cancel checks in both). Unset: QUIRE_WORKER_CONCURRENCY. 0: handlers run on the main thread.' },
  QUIRE_JOB_LEASE_SECONDS: { schema: num(1), default: '120', doc: 'A processing job whose worker stops heartbeating for this long is claimed again.' },
  QUIRE_AUTH_CACHE_SECONDS: { schema: num(0), default: '5', doc: 'How long the gateway caches a successful API key lookup (key + organization); revocations and flag changes take effect within this time. 0 disables.' },
  QUIRE_JOB_CACHE_SECONDS: { schema: num(0), default: '5', doc: 'How long the gateway keeps the serialized view of a completed job for repeated GET /job (0 disables).' },
  QUIRE_RATE_LIMIT_PER_MINUTE: { schema: int(1), default: '600', doc: 'Requests per minute per API key (token bucket; burst = the same number).' },
  QUIRE_PDF_WORKER_THREAD: { schema: bool, shownDefault: 'true on the main thread, false in job threads', doc: 'Parse PDFs with pdf.js on a worker thread of its own (overlaps parsing with layout); false parses on the calling thread. Unset: a job thread parses on itself (it is already off the event loop; a thread of its own costs ~90 MB on a 1,000-page PDF for ~3 % of speed), handlers on the main thread (QUIRE_JOB_THREADS=0) get one.' },
  QUIRE_OCR_WORKERS: { schema: int(1), ...CORES, doc: 'Workers in the OCR pool: tesseract.js threads, or tesseract processes at once with the native engine.' },
  QUIRE_OCR_ENGINE: { schema: z.enum(['wasm', 'native']), default: 'wasm', doc: 'wasm: tesseract.js, nothing to install. native: the tesseract 4/5 command-line program (e.g. Debian tesseract-ocr), one process per recognition, about 0.65–0.8× tesseract.js\'s time per page with the same model; a process that runs OCR refuses to start when it is missing.' },
  QUIRE_TESSERACT_PATH: { schema: z.string(), default: 'tesseract', doc: 'The native engine\'s executable: a path, or a name looked up on PATH.' },
  QUIRE_OCR_TESSDATA: { schema: z.string(), doc: 'Folder of <lang>.traineddata (or .traineddata.gz) to read instead of the packaged 4.0.0_best_int model, for both engines (e.g. /usr/share/tesseract-ocr/5/tessdata). Nothing is ever downloaded.' },
  QUIRE_LOG_LEVEL: { schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), default: 'info', doc: 'Log level (JSON logs on stdout).' },
  QUIRE_DEBUG_ERRORS: { schema: bool, default: 'false', doc: 'Include internal error text in GENERAL_001 responses (never in production).' },
  QUIRE_WEBHOOK_PORTAL_TTL_SECONDS: { schema: int(60), default: '3600', doc: 'How long a webhook portal link from POST /webhook stays valid.' },
  QUIRE_WEBHOOK_RETRY_SCHEDULE: { schema: list, default: '0,5,300,1800,7200,18000,36000,36000', doc: 'Webhook delivery attempts: seconds to wait before each (the first is normally 0); a delivery fails after the last.' },
  QUIRE_WEBHOOK_POLL_MS: { schema: int(10), default: '1000', doc: 'How often the webhook dispatcher looks for new events when idle.' },
  QUIRE_WEBHOOK_TIMEOUT_SECONDS: { schema: num(1), default: '15', doc: 'Time limit for one webhook delivery request.' },
  QUIRE_WEBHOOK_ALLOW_PRIVATE: { schema: bool, default: 'false', doc: 'Allow webhook endpoints on loopback/private addresses. Development only.' },
  QUIRE_WEBHOOK_ALLOW_HOSTS: { schema: list, default: '', doc: 'Hosts, IPs or CIDRs webhook endpoints may use even when private (e.g. 127.0.0.1 for tests).' },
  QUIRE_LLM_BASE_URL: { schema: z.string().url(), doc: 'OpenAI-compatible endpoint (…/v1). Unset: the built-in offline engine answers schema/classify/split/form-fill.' },
  QUIRE_LLM_API_KEY: { schema: z.string(), doc: 'API key for the OpenAI-compatible endpoint.' },
  QUIRE_LLM_MODEL: { schema: z.string(), doc: 'Model name for schema, classify, split and form filling.' },
  QUIRE_LLM_STRONG_MODEL: { schema: z.string(), doc: 'Model used when effort=true (default: QUIRE_LLM_MODEL). effort always makes a second verification pass with this model: it checks its first answer against the cited elements and returns a corrected one.' },
  QUIRE_LLM_VISION_MODEL: { schema: z.string(), doc: 'Model for figure descriptions and chart reading (must accept images).' },
  QUIRE_LLM_TIMEOUT_SECONDS: { schema: num(1), default: '120', doc: 'Time limit per model call.' },
};

type Parsed = { [K in keyof typeof ENV_DOCS]: unknown };

export interface Config {
  mode: 'embedded' | 'distributed';
  host: string;
  port: number;
  publicUrl?: string;
  dataDir: string;
  databaseUrl?: string;
  databasePoolSize: number;
  redisUrl?: string;
  queuePrefix: string;
  s3: { endpoint?: string; region: string; bucket: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean; createBucket: boolean };
  bootstrapApiKey?: string;
  retentionHours: number;
  sweepIntervalSeconds: number;
  uploadLimitBytes: number;
  fileUrl: { timeoutMs: number; maxBytes: number; allowPrivate: boolean; allowHosts: string[] };
  htmlFetchImages: boolean;
  inlineResultLimitBytes: number;
  /** Inline results this size or larger live in the blob store (job row keeps the key), still delivered inline. */
  resultRowLimitBytes: number;
  syncWaitMs: number;
  workerConcurrency: number;
  /** Threads for job handlers (0 = the main thread). */
  jobThreads: number;
  jobLeaseMs: number;
  rateLimitPerMinute: number;
  authCacheMs: number;
  jobCacheMs: number;
  ocrWorkers: number;
  ocrEngine: 'wasm' | 'native';
  tesseractPath: string;
  ocrTessdataDir?: string;
  /** undefined: decided by the thread (see QUIRE_PDF_WORKER_THREAD). */
  pdfWorkerThread: boolean | undefined;
  logLevel: string;
  debugErrors: boolean;
  webhooks: { portalTtlSeconds: number; retryScheduleSeconds: number[]; pollMs: number; timeoutMs: number; allowPrivate: boolean; allowHosts: string[] };
  llm?: { baseUrl: string; apiKey?: string; model: string; strongModel?: string; visionModel?: string; timeoutMs: number };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const v = {} as Parsed;
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(ENV_DOCS)) {
    const raw = env[name] === '' || env[name] === undefined ? spec.default : env[name];
    if (raw === undefined) continue;
    const r = spec.schema.safeParse(raw);
    if (r.success) v[name] = r.data;
    else problems.push(`${name}=${JSON.stringify(raw)}: ${r.error.issues[0]?.message ?? 'invalid'}`);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const g = <T>(k: string) => v[k] as T;
  const mode = g<Config['mode']>('QUIRE_MODE');
  if (mode === 'distributed') {
    for (const k of ['QUIRE_DATABASE_URL', 'QUIRE_REDIS_URL']) if (v[k] === undefined) problems.push(`${k} is required in distributed mode`);
  }
  const schedule = v.QUIRE_WEBHOOK_RETRY_SCHEDULE as string[] | undefined;
  if (schedule && (!schedule.length || schedule.some((x) => !Number.isFinite(Number(x)) || Number(x) < 0))) problems.push('QUIRE_WEBHOOK_RETRY_SCHEDULE: a comma-separated list of seconds >= 0');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const llmBase = g<string | undefined>('QUIRE_LLM_BASE_URL');
  return {
    mode,
    host: g('QUIRE_HOST'),
    port: g('QUIRE_PORT'),
    publicUrl: g<string | undefined>('QUIRE_PUBLIC_URL')?.replace(/\/$/, ''),
    dataDir: path.resolve(g<string>('QUIRE_DATA_DIR')),
    databaseUrl: g('QUIRE_DATABASE_URL'),
    databasePoolSize: g('QUIRE_DATABASE_POOL_SIZE'),
    redisUrl: g('QUIRE_REDIS_URL'),
    queuePrefix: g('QUIRE_QUEUE_PREFIX'),
    s3: {
      endpoint: g('QUIRE_S3_ENDPOINT'), region: g('QUIRE_S3_REGION'), bucket: g('QUIRE_S3_BUCKET'),
      accessKeyId: g('QUIRE_S3_ACCESS_KEY_ID'), secretAccessKey: g('QUIRE_S3_SECRET_ACCESS_KEY'), forcePathStyle: g('QUIRE_S3_FORCE_PATH_STYLE'), createBucket: g('QUIRE_S3_CREATE_BUCKET'),
    },
    bootstrapApiKey: g('QUIRE_BOOTSTRAP_API_KEY'),
    retentionHours: g('QUIRE_RETENTION_HOURS'),
    sweepIntervalSeconds: g('QUIRE_SWEEP_INTERVAL_SECONDS'),
    uploadLimitBytes: Math.round(g<number>('QUIRE_UPLOAD_LIMIT_MB') * 1024 * 1024),
    htmlFetchImages: g('QUIRE_HTML_FETCH_IMAGES'),
    fileUrl: { timeoutMs: g<number>('QUIRE_FILE_URL_TIMEOUT_SECONDS') * 1000, maxBytes: Math.round(g<number>('QUIRE_FILE_URL_MAX_MB') * 1024 * 1024), allowPrivate: g('QUIRE_FILE_URL_ALLOW_PRIVATE'), allowHosts: g('QUIRE_FILE_URL_ALLOW_HOSTS') },
    inlineResultLimitBytes: g('QUIRE_INLINE_RESULT_LIMIT_BYTES'),
    resultRowLimitBytes: g('QUIRE_RESULT_ROW_LIMIT_BYTES'),
    syncWaitMs: g<number>('QUIRE_SYNC_WAIT_SECONDS') * 1000,
    workerConcurrency: g('QUIRE_WORKER_CONCURRENCY'),
    jobThreads: g<number | undefined>('QUIRE_JOB_THREADS') ?? g<number>('QUIRE_WORKER_CONCURRENCY'),
    jobLeaseMs: g<number>('QUIRE_JOB_LEASE_SECONDS') * 1000,
    rateLimitPerMinute: g('QUIRE_RATE_LIMIT_PER_MINUTE'),
    authCacheMs: g<number>('QUIRE_AUTH_CACHE_SECONDS') * 1000,
    jobCacheMs: g<number>('QUIRE_JOB_CACHE_SECONDS') * 1000,
    ocrWorkers: g('QUIRE_OCR_WORKERS'),
    ocrEngine: g('QUIRE_OCR_ENGINE'),
    tesseractPath: g('QUIRE_TESSERACT_PATH'),
    ocrTessdataDir: g<string | undefined>('QUIRE_OCR_TESSDATA') && path.resolve(g<string>('QUIRE_OCR_TESSDATA')),
    pdfWorkerThread: g<boolean | undefined>('QUIRE_PDF_WORKER_THREAD'),
    logLevel: g('QUIRE_LOG_LEVEL'),
    debugErrors: g('QUIRE_DEBUG_ERRORS'),
    webhooks: {
      portalTtlSeconds: g('QUIRE_WEBHOOK_PORTAL_TTL_SECONDS'), retryScheduleSeconds: g<string[]>('QUIRE_WEBHOOK_RETRY_SCHEDULE').map(Number),
      pollMs: g('QUIRE_WEBHOOK_POLL_MS'), timeoutMs: g<number>('QUIRE_WEBHOOK_TIMEOUT_SECONDS') * 1000,
      allowPrivate: g('QUIRE_WEBHOOK_ALLOW_PRIVATE'), allowHosts: g('QUIRE_WEBHOOK_ALLOW_HOSTS'),
    },
    llm: llmBase ? {
      baseUrl: llmBase.replace(/\/$/, ''), apiKey: g('QUIRE_LLM_API_KEY'), model: g<string | undefined>('QUIRE_LLM_MODEL') ?? 'default',
      strongModel: g('QUIRE_LLM_STRONG_MODEL'), visionModel: g('QUIRE_LLM_VISION_MODEL'), timeoutMs: g<number>('QUIRE_LLM_TIMEOUT_SECONDS') * 1000,
    } : undefined,
  };
}
