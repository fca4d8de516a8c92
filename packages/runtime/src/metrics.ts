import client from 'prom-client';

/** Prometheus metrics, one registry per process. Queue depth is read at scrape time. */
export class Metrics {
  readonly registry = new client.Registry();
  readonly httpDuration = new client.Histogram({
    name: 'quire_http_request_duration_seconds', help: 'HTTP request latency by route', labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers: [this.registry],
  });
  readonly jobDuration = new client.Histogram({
    name: 'quire_job_duration_seconds', help: 'Job processing time by kind and outcome', labelNames: ['kind', 'status'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600], registers: [this.registry],
  });
  readonly pagesProcessed = new client.Counter({ name: 'quire_pages_processed_total', help: 'Pages processed by kind', labelNames: ['kind'], registers: [this.registry] });
  readonly queueDepth = new client.Gauge({ name: 'quire_queue_depth', help: 'Messages waiting per queue', labelNames: ['queue'], registers: [this.registry] });
  readonly ocrPageSeconds = new client.Histogram({
    name: 'quire_ocr_page_seconds', help: 'OCR time per page by the engine that read it (wasm, native, onnx, or wasm+onnx when QUIRE_OCR_ENGINE=auto read it with both)', labelNames: ['engine'],
    buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60], registers: [this.registry],
  });
  readonly ocrPageConfidence = new client.Histogram({
    name: 'quire_ocr_page_confidence', help: 'Mean word confidence (0..1) of each OCR-read page by engine', labelNames: ['engine'],
    buckets: [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98], registers: [this.registry],
  });
  readonly jobThreads = new client.Gauge({ name: 'quire_job_threads', help: 'Worker threads running job handlers in this process (0: handlers run on the main thread)', registers: [this.registry] });

  constructor(private readonly depth?: () => Promise<Record<string, number>>) {
    client.collectDefaultMetrics({ register: this.registry });
  }

  async render(): Promise<string> {
    if (this.depth) {
      try {
        for (const [q, n] of Object.entries(await this.depth())) this.queueDepth.set({ queue: q }, n);
      } catch { /* queue unreachable: readiness reports it */ }
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
