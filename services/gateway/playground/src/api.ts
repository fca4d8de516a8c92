/** The playground's calls to the API: the key from sessionStorage on every request, errors as the spec's body. */

const KEY_ITEM = 'quire.playground.apiKey';

export const storedKey = (): string | null => sessionStorage.getItem(KEY_ITEM);
export const storeKey = (key: string): void => sessionStorage.setItem(KEY_ITEM, key);
export const forgetKey = (): void => sessionStorage.removeItem(KEY_ITEM);

/** A failed call: the spec's error code and message (or the HTTP status when the body is not the spec's). */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) { super(message); }
}

export async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const key = storedKey();
  if (key) headers.set('x-api-key', key);
  const res = await fetch(path, { ...init, headers });
  if (!res.ok) {
    const body = await res.json().catch(() => undefined) as { error?: { code?: string; message?: string } } | undefined;
    throw new ApiError(res.status, body?.error?.code ?? `HTTP_${res.status}`, body?.error?.message ?? res.statusText);
  }
  return res;
}

export const apiJson = async <T>(path: string, init?: RequestInit): Promise<T> => (await api(path, init)).json() as Promise<T>;

export interface JobView {
  job_id: string;
  status: string;
  kind?: string;
  progress?: { pages_done?: number; pages_total?: number } | null;
  result?: unknown;
  error?: { code: string; message: string } | null;
}

export interface Progress { status: string; pagesDone?: number; pagesTotal?: number; via: 'events' | 'polling' }

/** A page's result as it finished (GET /job/{id}/events?partial=true); provisional for PDF and image pages. */
export interface LivePage {
  page: number; markdown: string; provisional: boolean; elements: { type: string; markdown_span: [number, number] }[];
  error?: { code: string; message: string };
}

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'expired']);

/**
 * Follows a job to its end: live events from GET /job/{id}/events (EventSource cannot send headers,
 * so the key goes as ?api_key=), falling back to polling GET /job/{id} with exponential backoff and
 * jitter when the events route is unavailable (an error before the first event). Resolves with the
 * final job, its result fetched when it was delivered as a URL.
 */
export async function followJob(jobId: string, onProgress: (p: Progress) => void, onPage?: (p: LivePage) => void): Promise<JobView> {
  const live = await followEvents(jobId, onProgress, onPage);
  if (!live) await pollUntilDone(jobId, onProgress);
  return finalJob(jobId);
}

/** true once the stream reported the end; false when it could not be used (the caller polls). */
function followEvents(jobId: string, onProgress: (p: Progress) => void, onPage?: (p: LivePage) => void): Promise<boolean> {
  if (typeof EventSource === 'undefined') return Promise.resolve(false);
  return new Promise((resolve) => {
    // pages asked for: from the job's first event (replayed), so pages read before the stream opened are shown too
    const pages = onPage ? '&partial=true&last_event_id=0' : '';
    const es = new EventSource(`/job/${encodeURIComponent(jobId)}/events?api_key=${encodeURIComponent(storedKey() ?? '')}${pages}`);
    let seen = false;
    let last: Progress = { status: 'pending', via: 'events' };
    const update = (data: string, done: boolean) => {
      seen = true;
      const d = JSON.parse(data) as { status?: string; pages_done?: number; pages_total?: number };
      last = { status: d.status ?? last.status, pagesDone: d.pages_done ?? last.pagesDone, pagesTotal: d.pages_total ?? last.pagesTotal, via: 'events' };
      onProgress(last);
      if (done) { es.close(); resolve(true); }
    };
    es.addEventListener('status', (e) => update((e as MessageEvent).data, false));
    es.addEventListener('progress', (e) => update((e as MessageEvent).data, false));
    es.addEventListener('end', (e) => update((e as MessageEvent).data, true));
    es.addEventListener('page', (e) => { seen = true; onPage?.(JSON.parse((e as MessageEvent).data) as LivePage); });
    es.onerror = () => {
      // before any event: the route is missing or refused (EventSource does not say which): poll instead.
      // after events: the browser reconnects with Last-Event-ID by itself, unless it gave up.
      if (!seen || es.readyState === EventSource.CLOSED) { es.close(); resolve(TERMINAL.has(last.status)); }
    };
  });
}

async function pollUntilDone(jobId: string, onProgress: (p: Progress) => void): Promise<void> {
  let delay = 250;
  for (;;) {
    const job = await apiJson<JobView>(`/job/${encodeURIComponent(jobId)}`);
    onProgress({ status: job.status, pagesDone: job.progress?.pages_done, pagesTotal: job.progress?.pages_total, via: 'polling' });
    if (TERMINAL.has(job.status)) return;
    const jittered = delay * (0.75 + Math.random() * 0.5);
    await new Promise((r) => setTimeout(r, jittered));
    delay = Math.min(delay * 1.6, 3000);
  }
}

async function finalJob(jobId: string): Promise<JobView> {
  const job = await apiJson<JobView>(`/job/${encodeURIComponent(jobId)}`);
  const r = job.result as { is_url?: boolean; url?: string } | undefined;
  if (r?.is_url && r.url) job.result = await apiJson(new URL(r.url, location.href).pathname + new URL(r.url, location.href).search);
  return job;
}

/** Submits a job (async=true) and follows it; throws ApiError for a refused request or a failed job. */
export async function runJob(path: string, body: FormData | Record<string, unknown>, onProgress: (p: Progress) => void, onPage?: (p: LivePage) => void): Promise<JobView> {
  const init: RequestInit = body instanceof FormData
    ? { method: 'POST', body: withAsync(body) }
    : { method: 'POST', body: JSON.stringify({ ...body, async: true }), headers: { 'content-type': 'application/json' } };
  const accepted = await apiJson<{ job_id: string }>(path, init);
  onProgress({ status: 'pending', via: 'polling' });
  const job = await followJob(accepted.job_id, onProgress, onPage);
  if (job.status !== 'completed') throw new ApiError(500, job.error?.code ?? 'JOB_005', job.error?.message ?? `Job ${job.status}`);
  return job;
}

function withAsync(form: FormData): FormData {
  form.set('async', 'true');
  return form;
}

/** Page n of a job's source document (or of the PDF a form fill produced) as a blob: URL (an <img src> could not send the key). */
export async function pageImageUrl(jobId: string, page: number, dpi: number, of: 'source' | 'output' = 'source'): Promise<string> {
  const res = await api(`/results/${encodeURIComponent(jobId)}/pages/${page}.png?dpi=${dpi}${of === 'output' ? '&of=output' : ''}`);
  return URL.createObjectURL(await res.blob());
}
