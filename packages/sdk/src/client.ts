import type { BackoffOptions } from './backoff.js';
import { jobEvents, type JobEventsOptions } from './events.js';
import { Transport, type TransportOptions } from './transport.js';
import { multipartBody, prepareInput, type FileInput, type PreparedInput } from './upload.js';
import { resultOf, waitForJob, type JobProgress, type WaitOptions } from './wait-for-job.js';
import type {
  BatchAccepted, BatchExtractOptions, BatchResult, BatchSchemaRequest, BatchSplitRequest, BatchTablesRequest, CancelResponse,
  ChartsRequest, ChartsResult, ClassifyOptions, ClassifyResult, ConvertResult, ExtractOptions, ExtractResult, FormOptions,
  FormResult, Job, JobAccepted, SchemaRequest, SchemaResult, SplitRequest, SplitResult, TablesRequest, TablesResult, Usage,
  UsageQuery, WebhookPortalLink,
} from './types.js';

export interface QuireClientOptions extends Omit<TransportOptions, 'baseUrl'> {
  /** Service URL (default: QUIRE_URL, else http://127.0.0.1:8080). */
  baseUrl?: string;
  /** API key (default: QUIRE_API_KEY). */
  apiKey?: string;
  /** Default polling backoff for async jobs. */
  poll?: BackoffOptions;
}

/**
 * Per call. `async: true` (or a progress callback) submits the work as a job and waits for it — live events, or
 * polling — instead of holding one HTTP request open; the result is the same. Aborting `signal` stops the call
 * and cancels the job it started.
 */
export interface CallOptions extends Omit<WaitOptions, 'cancelOnAbort'> {
  async?: boolean;
  /** Name sent for a Buffer, Blob or stream input (its extension gives the content type). */
  filename?: string;
}

/** A form call's source: a form_id from an earlier detect/fill/clear, or a document. */
export type FormSource = { form_id: string } | FileInput;

export class Quire {
  readonly transport: Transport;
  private readonly poll?: BackoffOptions;

  constructor(o: QuireClientOptions = {}) {
    const baseUrl = o.baseUrl ?? process.env.QUIRE_URL ?? 'http://127.0.0.1:8080';
    this.transport = new Transport({ ...o, baseUrl, apiKey: o.apiKey ?? process.env.QUIRE_API_KEY });
    this.poll = o.poll;
  }

  // ---- steps on a document ----

  /** POST /extract: markdown, layout, tables, figures, chunks and an extraction_id. */
  async extract(file: FileInput, options: ExtractOptions = {}, call: CallOptions = {}): Promise<ExtractResult> {
    return this.runStep('/extract', await this.multipart(file, options, call), call);
  }
  async startExtract(file: FileInput, options: ExtractOptions = {}, call: CallOptions = {}): Promise<JobAccepted> {
    return this.submit('/extract', await this.multipart(file, options, call), call);
  }

  /** POST /classify on a document, or on a saved extraction with `{ extraction_id }`. */
  async classify(source: FileInput | { extraction_id: string }, options: ClassifyOptions = {}, call: CallOptions = {}): Promise<ClassifyResult> {
    return this.runStep('/classify', await this.classifyBody(source, options, call), call);
  }
  async startClassify(source: FileInput | { extraction_id: string }, options: ClassifyOptions = {}, call: CallOptions = {}): Promise<JobAccepted> {
    return this.submit('/classify', await this.classifyBody(source, options, call), call);
  }

  // ---- steps on a saved extraction (JSON bodies) ----

  schema(request: SchemaRequest, call: CallOptions = {}): Promise<SchemaResult> { return this.runStep('/schema', { json: request }, call); }
  startSchema(request: SchemaRequest, call: CallOptions = {}): Promise<JobAccepted> { return this.submit('/schema', { json: request }, call); }
  tables(request: TablesRequest, call: CallOptions = {}): Promise<TablesResult> { return this.runStep('/tables', { json: request }, call); }
  startTables(request: TablesRequest, call: CallOptions = {}): Promise<JobAccepted> { return this.submit('/tables', { json: request }, call); }
  charts(request: ChartsRequest, call: CallOptions = {}): Promise<ChartsResult> { return this.runStep('/charts', { json: request }, call); }
  startCharts(request: ChartsRequest, call: CallOptions = {}): Promise<JobAccepted> { return this.submit('/charts', { json: request }, call); }
  split(request: SplitRequest, call: CallOptions = {}): Promise<SplitResult> { return this.runStep('/split', { json: request }, call); }
  startSplit(request: SplitRequest, call: CallOptions = {}): Promise<JobAccepted> { return this.submit('/split', { json: request }, call); }

  // ---- forms (multipart; form_id chaining) ----

  async formDetect(source: FormSource, options: FormOptions = {}, call: CallOptions = {}): Promise<FormResult> {
    return this.runStep('/form/detect', await this.formBody(source, options, call), call);
  }
  async formFill(source: FormSource, instructions: string, options: FormOptions = {}, call: CallOptions = {}): Promise<FormResult> {
    return this.runStep('/form/fill', await this.formBody(source, { ...options, instructions }, call), call);
  }
  async formClear(source: FormSource, options: FormOptions = {}, call: CallOptions = {}): Promise<FormResult> {
    return this.runStep('/form/clear', await this.formBody(source, options, call), call);
  }
  async startForm(op: 'detect' | 'fill' | 'clear', source: FormSource, options: FormOptions & { instructions?: string } = {}, call: CallOptions = {}): Promise<JobAccepted> {
    return this.submit(`/form/${op}`, await this.formBody(source, options, call), call);
  }

  // ---- batch (always asynchronous: a parent job) ----

  /** POST /batch/extract: files and URLs together (at most 50); wait with waitForBatch(accepted.job_id). */
  async batchExtract(files: FileInput[], options: BatchExtractOptions = {}, call: Pick<CallOptions, 'signal'> = {}): Promise<BatchAccepted> {
    const prepared = await Promise.all(files.map((f, i) => prepareInput(f, `document-${i + 1}`)));
    const urls = prepared.filter((p): p is Extract<PreparedInput, { kind: 'url' }> => p.kind === 'url').map((p) => p.url);
    const body = () => {
      const form = multipartBody(undefined, { ...options, file_urls: urls.length ? urls : undefined });
      for (const p of prepared) if (p.kind === 'file') form.append('files', p.blob, p.filename);
      return form;
    };
    return this.transport.json('POST', '/batch/extract', { body, signal: call.signal });
  }
  batchSchema(request: BatchSchemaRequest, call: Pick<CallOptions, 'signal'> = {}): Promise<BatchAccepted> { return this.transport.json('POST', '/batch/schema', { json: request, signal: call.signal }); }
  batchTables(request: BatchTablesRequest, call: Pick<CallOptions, 'signal'> = {}): Promise<BatchAccepted> { return this.transport.json('POST', '/batch/tables', { json: request, signal: call.signal }); }
  batchSplit(request: BatchSplitRequest, call: Pick<CallOptions, 'signal'> = {}): Promise<BatchAccepted> { return this.transport.json('POST', '/batch/split', { json: request, signal: call.signal }); }
  /** The parent's summary once every child settled (each child's own result: waitForJob(child.job_id)). */
  waitForBatch(jobId: string, wait: WaitOptions = {}): Promise<BatchResult> { return this.waitForJob<BatchResult>(jobId, wait); }

  // ---- jobs and results ----

  getJob(jobId: string, call: Pick<CallOptions, 'signal'> = {}): Promise<Job> { return this.transport.json('GET', `/job/${enc(jobId)}`, { signal: call.signal }); }
  cancelJob(jobId: string, call: Pick<CallOptions, 'signal'> = {}): Promise<CancelResponse> { return this.transport.json('DELETE', `/job/${enc(jobId)}`, { signal: call.signal }); }
  /** Waits for any job (live events or polling) and returns its typed result; failures throw QuireError. */
  waitForJob<R = unknown>(jobId: string, wait: WaitOptions = {}): Promise<R> { return waitForJob<R>(this.transport, jobId, { poll: this.poll, ...wait }); }
  /** The raw event stream of a job (GET /job/{id}/events); see waitForJob for the version with fallback. */
  jobEvents(jobId: string, o: JobEventsOptions = {}) { return jobEvents(this.transport, jobId, o); }
  /** GET /results/{jobId}: a completed job's result JSON (large results). */
  getResult<R = unknown>(jobId: string, call: Pick<CallOptions, 'signal'> = {}): Promise<R> { return this.transport.json('GET', `/results/${enc(jobId)}`, { signal: call.signal }); }
  /** A settled job's result: inline, or downloaded from its single-use URL. */
  resultOf<R = unknown>(job: Job, call: Pick<CallOptions, 'signal'> = {}): Promise<R> { return resultOf<R>(this.transport, job, call.signal); }
  /** GET /results/{jobId}/pdf: the PDF of a form call (a form_id/job id, or the pdf_url it returned). */
  downloadPdf(jobIdOrUrl: string, call: Pick<CallOptions, 'signal'> = {}): Promise<Uint8Array> {
    return this.transport.bytes(isUrl(jobIdOrUrl) ? jobIdOrUrl : `/results/${enc(jobIdOrUrl)}/pdf`, { signal: call.signal });
  }
  /** GET /results/{jobId}/images/{filename}: a figure image (its image_url, or job id and file name). */
  downloadImage(imageUrlOrJobId: string, filename?: string, call: Pick<CallOptions, 'signal'> = {}): Promise<Uint8Array> {
    return this.transport.bytes(filename === undefined ? imageUrlOrJobId : `/results/${enc(imageUrlOrJobId)}/images/${enc(filename)}`, { signal: call.signal });
  }

  /**
   * GET /results/{jobId}/pages/{n}.png: page n (1-based) of a job's source document drawn as PNG (PDF and image
   * sources), at `dpi` (36-300); `of: 'output'` draws the PDF a form fill or clear produced.
   */
  downloadPageImage(jobId: string, page: number, o: { dpi?: number; of?: 'source' | 'output' } & Pick<CallOptions, 'signal'> = {}): Promise<Uint8Array> {
    return this.transport.bytes(`/results/${enc(jobId)}/pages/${page}.png`, { query: { dpi: o.dpi, of: o.of }, signal: o.signal });
  }

  // ---- account ----

  usage(query: UsageQuery = {}, call: Pick<CallOptions, 'signal'> = {}): Promise<Usage> { return this.transport.json('GET', '/usage', { query, signal: call.signal }); }
  /** POST /webhook: a link to the webhook portal. */
  webhookPortal(call: Pick<CallOptions, 'signal'> = {}): Promise<WebhookPortalLink> { return this.transport.json('POST', '/webhook', { signal: call.signal }); }
  /** POST /convert (legacy): host a document; its url is accepted as file_url. */
  async convert(file: FileInput, call: Pick<CallOptions, 'signal' | 'filename'> = {}): Promise<ConvertResult> {
    const prepared = await prepareInput(file, call.filename);
    return this.transport.json('POST', '/convert', { body: () => multipartBody(prepared, {}), signal: call.signal });
  }

  // ---- internals ----

  private async runStep<R>(path: string, body: StepBody, call: CallOptions): Promise<R> {
    if (call.async || call.onProgress || call.onPage) {
      const accepted = await this.submit(path, body, call);
      return this.waitForJob<R>(accepted.job_id, { ...call, cancelOnAbort: true });
    }
    return this.transport.json<R>('POST', path, { ...this.bodyFor(body, false), signal: call.signal });
  }

  private submit(path: string, body: StepBody, call: CallOptions): Promise<JobAccepted> {
    return this.transport.json<JobAccepted>('POST', path, { ...this.bodyFor(body, true), signal: call.signal });
  }

  private bodyFor(body: StepBody, async: boolean) {
    if ('json' in body) return { json: { ...body.json, ...(async ? { async: true } : {}) } };
    return { body: () => multipartBody(body.input, { ...body.fields, ...(async ? { async: 'true' } : {}) }) };
  }

  private async multipart(file: FileInput, fields: object, call: CallOptions): Promise<StepBody> {
    return { input: await prepareInput(file, call.filename), fields: { ...fields } };
  }

  private async classifyBody(source: FileInput | { extraction_id: string }, options: ClassifyOptions, call: CallOptions): Promise<StepBody> {
    if (isObject(source) && 'extraction_id' in source) return { json: { ...options, extraction_id: source.extraction_id } };
    return this.multipart(source as FileInput, options, call);
  }

  private async formBody(source: FormSource, options: object, call: CallOptions): Promise<StepBody> {
    if (isObject(source) && 'form_id' in source && typeof source.form_id === 'string') return { input: undefined, fields: { ...options, form_id: source.form_id } };
    return this.multipart(source as FileInput, options, call);
  }
}

type StepBody = { json: Record<string, unknown> } | { input: PreparedInput | undefined; fields: Record<string, unknown> };

const enc = encodeURIComponent;
const isUrl = (s: string) => /^https?:\/\//i.test(s);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && !(v instanceof URL);

export type { JobProgress };
