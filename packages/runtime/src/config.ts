import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting, parsed once from QUIRE_* environment variables. Empty means unset; an invalid value
 * fails at start with a message naming the variable. SETTINGS is the one table: it names each
 * variable's place in `Config`, its parser (which also converts units), default and meaning; the
 * `Config` type is derived from it and the README's configuration table mirrors it (config.test.ts).
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v));
const int = (min: number) => z.coerce.number().int().min(min);
const num = (min: number) => z.coerce.number().min(min);
const list = z.string().transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));
/** Seconds in the variable, milliseconds in Config. */
const secondsAsMs = (min: number) => num(min).transform((s) => s * 1000);
const absolutePath = z.string().transform((p) => path.resolve(p));
const withoutTrailingSlash = z.string().url().transform((u) => u.replace(/\/$/, ''));
const retrySchedule = list
  .refine((xs) => xs.length > 0 && xs.every((x) => Number.isFinite(Number(x)) && Number(x) >= 0), 'a comma-separated list of seconds >= 0')
  .transform((xs) => xs.map(Number));

interface Setting<S extends z.ZodType = z.ZodType> {
  env: `QUIRE_${string}`;
  /** Parses the raw text (or undefined when unset and without a default: optional settings accept it). */
  schema: S;
  default?: string;
  /** How the README states a default computed at start. */
  shownDefault?: string;
  /** Another variable whose value stands in while this one is unset. */
  orElse?: `QUIRE_${string}`;
  doc: string;
}

const set = <S extends z.ZodType>(env: Setting['env'], schema: S, doc: string, opts: Omit<Setting, 'env' | 'schema' | 'doc'> = {}): Setting<S> => ({ env, schema, doc, ...opts });
/** A setting with a default: always present in Config. */
const def = <S extends z.ZodType>(env: Setting['env'], schema: S, value: string, doc: string): Setting<S> => set(env, schema, doc, { default: value });
/** A setting without a default: undefined in Config while unset. */
const opt = <S extends z.ZodType>(env: Setting['env'], schema: S, doc: string, opts: Omit<Setting, 'env' | 'schema' | 'doc'> = {}) => set(env, schema.optional(), doc, opts);
/** The number of cores, the default of per-process parallelism; documented as such, not as this machine's figure. */
const cores = <S extends z.ZodType>(env: Setting['env'], schema: S, doc: string): Setting<S> => set(env, schema, doc, { default: String(Math.max(1, os.availableParallelism())), shownDefault: 'number of cores' });

/** A group of settings that exists in Config only while `when` (one of its settings) is set. */
interface Conditional<G extends Table, K extends keyof G> { when: K; group: G }
type Table = { [key: string]: Setting | Table | Conditional<Table, string> };
const presentWhen = <G extends Table, K extends keyof G & string>(when: K, group: G): Conditional<G, K> => ({ when, group });

const SETTINGS = {
  mode: def('QUIRE_MODE', z.enum(['embedded', 'distributed']), 'embedded', 'embedded: one process with PGlite, filesystem blobs and an in-process queue. distributed: Postgres, Redis (BullMQ) and S3; each service runs separately.'),
  host: def('QUIRE_HOST', z.string(), '0.0.0.0', 'Address the gateway listens on.'),
  port: def('QUIRE_PORT', int(0), '8080', 'Gateway port (0 picks a free one).'),
  publicUrl: opt('QUIRE_PUBLIC_URL', withoutTrailingSlash, 'Base URL used in pdf_url, image_url and result URLs. Default: derived from each request.'),
  dataDir: def('QUIRE_DATA_DIR', absolutePath, './data', 'Embedded mode: where PGlite and blobs live.'),
  databaseUrl: opt('QUIRE_DATABASE_URL', z.string(), 'Distributed mode: Postgres connection string.'),
  databasePoolSize: def('QUIRE_DATABASE_POOL_SIZE', int(1), '10', 'Postgres pool size per process.'),
  redisUrl: opt('QUIRE_REDIS_URL', z.string(), 'Distributed mode: Redis for BullMQ, settled notifications and rate limits.'),
  queuePrefix: def('QUIRE_QUEUE_PREFIX', z.string(), 'quire', 'Key prefix for BullMQ queues in Redis.'),
  s3: {
    endpoint: opt('QUIRE_S3_ENDPOINT', z.string(), 'S3-compatible endpoint (MinIO). Unset = AWS default endpoint.'),
    region: def('QUIRE_S3_REGION', z.string(), 'us-east-1', 'S3 region.'),
    bucket: def('QUIRE_S3_BUCKET', z.string(), 'quire', 'S3 bucket for blobs.'),
    accessKeyId: opt('QUIRE_S3_ACCESS_KEY_ID', z.string(), 'S3 access key.'),
    secretAccessKey: opt('QUIRE_S3_SECRET_ACCESS_KEY', z.string(), 'S3 secret key.'),
    createBucket: def('QUIRE_S3_CREATE_BUCKET', bool, 'true', 'Create the bucket at start when it does not exist (needs s3:CreateBucket; turn off where the bucket is provisioned).'),
    forcePathStyle: def('QUIRE_S3_FORCE_PATH_STYLE', bool, 'true', 'Path-style S3 URLs (needed for MinIO and localhost).'),
  },
  bootstrapApiKey: opt('QUIRE_BOOTSTRAP_API_KEY', z.string().min(16), 'Embedded mode: the dev organization gets this key (every flag on, no cap). Unset: a key is generated and printed once.'),
  retentionHours: def('QUIRE_RETENTION_HOURS', num(0), '48', 'Default lifetime of jobs and their artifacts (organizations may override).'),
  backup: {
    intervalHours: def('QUIRE_BACKUP_INTERVAL_HOURS', num(0), '24', 'Embedded mode: how often a consistent copy of the embedded database is written to <data dir>/backups (0: never; `quire admin backup` writes one at any time; `quire restore-backup FILE` restores one).'),
    keep: def('QUIRE_BACKUP_KEEP', int(1), '3', 'Embedded mode: how many of those copies are kept (oldest deleted first).'),
  },
  sweepIntervalSeconds: def('QUIRE_SWEEP_INTERVAL_SECONDS', num(1), '300', 'How often expired jobs and artifacts are swept (embedded: the process; fleet: one gateway per round).'),
  uploadLimitBytes: def('QUIRE_UPLOAD_LIMIT_MB', num(0.001).transform((mb) => Math.round(mb * 1024 * 1024)), '100', 'Largest direct upload; larger files must use file_url (413 FILE_TOO_LARGE_USE_URL).'),
  fileUrl: {
    timeoutMs: def('QUIRE_FILE_URL_TIMEOUT_SECONDS', secondsAsMs(1), '120', 'Time limit for a file_url download, from the request to the last byte (FILE_006 past it).'),
    maxBytes: def('QUIRE_FILE_URL_MAX_MB', num(0.001).transform((mb) => Math.round(mb * 1024 * 1024)), '2048', 'Largest document a file_url download may bring (FILE_002 past it, checked against Content-Length first and counted while streaming).'),
    allowPrivate: def('QUIRE_FILE_URL_ALLOW_PRIVATE', bool, 'false', 'Allow file_url to reach loopback/private/link-local addresses. Development only.'),
    allowHosts: def('QUIRE_FILE_URL_ALLOW_HOSTS', list, '', 'Comma-separated hosts or IPs file_url may reach even when private (e.g. 127.0.0.1 for tests).'),
  },
  parseLimits: {
    maxPages: def('QUIRE_LIMIT_PAGES', int(1), '5000', 'Most pages one document may have processed (REQ_003 past it).'),
    maxPixels: def('QUIRE_LIMIT_PIXELS', int(1), '120000000', 'Largest raster (width × height) an image or a rendered page may have (pixel-bomb guard; REQ_003 past it).'),
    maxPageContentBytes: def('QUIRE_LIMIT_PAGE_CONTENT_MB', num(1).transform((mb) => Math.round(mb * 1024 * 1024)), '256', 'Most bytes one PDF page\'s content streams may decode to, checked before the page is read (flate-bomb guard; FILE_003 past it).'),
  },
  schemaMaxProperties: def('QUIRE_SCHEMA_MAX_PROPERTIES', int(1), '1000', 'Most properties a JSON schema may declare, counted over all its objects (SCHEMA_003 past it, before any work).'),
  htmlFetchImages: def('QUIRE_HTML_FETCH_IMAGES', bool, 'false', 'Fetch remote <img> sources of HTML uploads (through the same SSRF guard and allow-list as file_url; at most 10 MB each). Off: they are listed in warnings.'),
  inlineResultLimitBytes: def('QUIRE_INLINE_RESULT_LIMIT_BYTES', int(1), String(5 * 1024 * 1024), 'Results this size or larger are delivered as a single-use URL.'),
  resultRowLimitBytes: def('QUIRE_RESULT_ROW_LIMIT_BYTES', int(0), String(128 * 1024), 'Results this size or larger (and under QUIRE_INLINE_RESULT_LIMIT_BYTES) are kept in the blob store instead of the job row, and still delivered inline: large jsonb is costly to write and read (in embedded mode PGlite parses it on the main thread). 0 keeps every inline result in the blob store.'),
  syncWaitMs: def('QUIRE_SYNC_WAIT_SECONDS', secondsAsMs(0.1), '300', 'How long a synchronous request waits for its job; past it the job is canceled and PROC_002 returned. A stopping gateway (SIGTERM) lets requests in flight finish for up to this plus 15 s.'),
  workerConcurrency: cores('QUIRE_WORKER_CONCURRENCY', int(1), 'Jobs processed at once per queue in this process.'),
  jobThreads: set('QUIRE_JOB_THREADS', int(0), 'Worker threads that run job handlers in this process (layout, XLSX, tables, forms…), so CPU-heavy steps never block its event loop (the gateway in embedded mode; queue heartbeats and cancel checks in both). Unset: QUIRE_WORKER_CONCURRENCY. 0: handlers run on the main thread.', { orElse: 'QUIRE_WORKER_CONCURRENCY', shownDefault: 'QUIRE_WORKER_CONCURRENCY' }),
  jobThreadMemoryMb: def('QUIRE_JOB_THREAD_MEMORY_MB', int(0), '4096', 'Most JavaScript heap one job thread may hold (its jobs together). A thread past it is ended and replaced; its jobs fail with PROC_001 and are retried like any crash. Decoded file bytes live outside this heap and are bounded by the QUIRE_LIMIT_* settings. 0: V8\'s own limit.'),
  jobLeaseMs: def('QUIRE_JOB_LEASE_SECONDS', secondsAsMs(1), '120', 'A processing job whose worker stops heartbeating for this long is claimed again.'),
  authCacheMs: def('QUIRE_AUTH_CACHE_SECONDS', secondsAsMs(0), '5', 'How long the gateway caches a successful API key lookup (key + organization); revocations and flag changes take effect within this time. 0 disables.'),
  jobCacheMs: def('QUIRE_JOB_CACHE_SECONDS', secondsAsMs(0), '5', 'How long the gateway keeps the serialized view of a completed job for repeated GET /job (0 disables).'),
  rateLimitPerMinute: def('QUIRE_RATE_LIMIT_PER_MINUTE', int(1), '600', 'Requests per minute per API key (token bucket; burst = the same number).'),
  pdfWorkerThread: opt('QUIRE_PDF_WORKER_THREAD', bool, 'Parse PDFs with pdf.js on a worker thread of its own (overlaps parsing with layout); false parses on the calling thread. Unset: a job thread parses on itself (it is already off the event loop; a thread of its own costs ~90 MB on a 1,000-page PDF for ~3 % of speed), handlers on the main thread (QUIRE_JOB_THREADS=0) get one.', { shownDefault: 'true on the main thread, false in job threads' }),
  ocrWorkers: cores('QUIRE_OCR_WORKERS', int(1), 'Workers in the OCR pool: tesseract.js threads, or tesseract processes at once with the native engine.'),
  ocrEngine: def('QUIRE_OCR_ENGINE', z.enum(['wasm', 'native', 'onnx', 'auto']), 'auto', 'auto (default): chosen per page — a flat, crisp scan of ordinary-size print is read by tesseract.js first and kept when it reads at mean confidence ≥ 90; photos, unevenly lit or soft pages, small print and pages tesseract.js is unsure of are read by PP-OCR (PaddleOCR\'s PP-OCRv4 models, packaged, with ONNX Runtime), and by tesseract.js too where PP-OCR reads poorly (mean confidence < 80), line by line the better reading kept; PP-OCR\'s sessions are loaded with the first page that needs them (about 0.4–1 GB more peak memory then; flat scans and text never load them). wasm: tesseract.js alone, nothing else loaded. native: the tesseract 4/5 command-line program (e.g. Debian tesseract-ocr), one process per recognition, about 0.65–0.8× tesseract.js\'s time per page with the same model; a process that runs OCR refuses to start when it is missing. onnx: PP-OCR for every page, at about 2.2× tesseract.js\'s CPU time on a clean 300 DPI page (docs/benchmarks.md, OCR). PP-OCR spells English and Chinese only: onnx and auto read other languages with tesseract.js.'),
  tesseractPath: def('QUIRE_TESSERACT_PATH', z.string(), 'tesseract', 'The native engine\'s executable: a path, or a name looked up on PATH.'),
  ocrTessdataDir: opt('QUIRE_OCR_TESSDATA', absolutePath, 'Folder of <lang>.traineddata (or .traineddata.gz) to read instead of the packaged 4.0.0_best_int model, for both engines (e.g. /usr/share/tesseract-ocr/5/tessdata). Nothing is ever downloaded.'),
  ocrEmbeddedImages: def('QUIRE_OCR_EMBEDDED_IMAGES', bool, 'true', 'OCR large raster images on PDF pages that have a text layer (a letterhead logo with text, a table pasted as a picture) when the page\'s text does not cover them; the words join the page where the image is. Within the two pixel budgets below.'),
  ocrEmbeddedImagePagePixels: def('QUIRE_OCR_EMBEDDED_IMAGE_PAGE_PIXELS', int(0), '12000000', 'Most pixels rendered (at up to 300 DPI, down to 150) to OCR the images of one text-layer page.'),
  ocrEmbeddedImageDocumentPixels: def('QUIRE_OCR_EMBEDDED_IMAGE_DOCUMENT_PIXELS', int(0), '60000000', 'Most pixels rendered to OCR images on the text-layer pages of one document; images past it are skipped and counted in the warnings.'),
  logLevel: def('QUIRE_LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info', 'Log level (JSON logs on stdout).'),
  debugErrors: def('QUIRE_DEBUG_ERRORS', bool, 'false', 'Include internal error text in GENERAL_001 responses (never in production).'),
  webhooks: {
    portalTtlSeconds: def('QUIRE_WEBHOOK_PORTAL_TTL_SECONDS', int(60), '3600', 'How long a webhook portal link from POST /webhook stays valid.'),
    retryScheduleSeconds: def('QUIRE_WEBHOOK_RETRY_SCHEDULE', retrySchedule, '0,5,300,1800,7200,18000,36000,36000', 'Webhook delivery attempts: seconds to wait before each (the first is normally 0); a delivery fails after the last.'),
    pollMs: def('QUIRE_WEBHOOK_POLL_MS', int(10), '1000', 'How often the webhook dispatcher looks for new events when idle.'),
    timeoutMs: def('QUIRE_WEBHOOK_TIMEOUT_SECONDS', secondsAsMs(1), '15', 'Time limit for one webhook delivery request.'),
    allowPrivate: def('QUIRE_WEBHOOK_ALLOW_PRIVATE', bool, 'false', 'Allow webhook endpoints on loopback/private addresses. Development only.'),
    allowHosts: def('QUIRE_WEBHOOK_ALLOW_HOSTS', list, '', 'Hosts, IPs or CIDRs webhook endpoints may use even when private (e.g. 127.0.0.1 for tests).'),
  },
  llm: presentWhen('baseUrl', {
    baseUrl: opt('QUIRE_LLM_BASE_URL', withoutTrailingSlash, 'OpenAI-compatible endpoint (…/v1). Unset: the built-in offline engine answers schema/classify/split/form-fill.'),
    apiKey: opt('QUIRE_LLM_API_KEY', z.string(), 'API key for the OpenAI-compatible endpoint.'),
    // 'default' is sent as the model name to a server that serves one model; not a documented default.
    model: set('QUIRE_LLM_MODEL', z.string().default('default'), 'Model name for schema, classify, split and form filling.'),
    strongModel: opt('QUIRE_LLM_STRONG_MODEL', z.string(), 'Model used when effort=true (default: QUIRE_LLM_MODEL). effort always makes a second verification pass with this model: it checks its first answer against the cited elements and returns a corrected one.'),
    visionModel: opt('QUIRE_LLM_VISION_MODEL', z.string(), 'Model for figure descriptions and chart reading (must accept images).'),
    timeoutMs: def('QUIRE_LLM_TIMEOUT_SECONDS', secondsAsMs(1), '120', 'Time limit per model call.'),
  }),
} satisfies Table;

type Resolved<T> =
  T extends Setting<infer S> ? z.output<S>
  : T extends Conditional<infer G, infer K> ? (Resolved<G> & { [P in K & keyof Resolved<G>]-?: NonNullable<Resolved<G>[P]> }) | undefined
  : { [P in keyof T]: Resolved<T[P]> };
type OptionalKeys<T> = { [P in keyof T]: undefined extends T[P] ? P : never }[keyof T];
/** Keys whose value may be undefined become optional (`publicUrl?:`), as a hand-written interface would have them. */
type Tidy<T> = T extends readonly unknown[] ? T
  : T extends object ? { [P in Exclude<keyof T, OptionalKeys<T>>]: Tidy<T[P]> } & { [P in OptionalKeys<T>]?: Tidy<T[P]> }
  : T;

export type Config = Tidy<Resolved<typeof SETTINGS>>;

const isSetting = (x: object): x is Setting => 'env' in x && 'schema' in x;
const isConditional = (x: object): x is Conditional<Table, string> => 'when' in x && 'group' in x;

function flatten(table: Table): Setting[] {
  return Object.values(table).flatMap((x) => (isSetting(x) ? [x] : isConditional(x) ? flatten(x.group) : flatten(x)));
}

/** Every variable by name (the README's configuration table lists exactly these). */
export const ENV_DOCS: Record<string, Setting> = Object.fromEntries(flatten(SETTINGS).map((s) => [s.env, s]));

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const rawOf = (s: Setting): string | undefined => {
    const given = env[s.env] === '' ? undefined : env[s.env];
    return given ?? (s.orElse ? rawOf(ENV_DOCS[s.orElse]) : s.default);
  };
  const read = (table: Table): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, x] of Object.entries(table)) {
      if (isSetting(x)) {
        const raw = rawOf(x);
        const r = x.schema.safeParse(raw);
        if (r.success) out[key] = r.data;
        else problems.push(`${x.env}=${JSON.stringify(raw)}: ${r.error.issues[0]?.message ?? 'invalid'}`);
      } else if (isConditional(x)) {
        const group = read(x.group);
        if (group[x.when] !== undefined) out[key] = group;
      } else out[key] = read(x);
    }
    return out;
  };
  const config = read(SETTINGS) as Config;
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  if (config.mode === 'distributed') {
    if (config.databaseUrl === undefined) problems.push('QUIRE_DATABASE_URL is required in distributed mode');
    if (config.redisUrl === undefined) problems.push('QUIRE_REDIS_URL is required in distributed mode');
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return config;
}
