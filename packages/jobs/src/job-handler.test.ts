import { QuireError } from '@quire/core';
import type { JobRecord } from '@quire/storage';
import { defineJobHandler, type CheckedJobHandler, type ClaimedJobContext, type JobContext } from './job-handler.js';
import type { JobService } from './job-service.js';

/**
 * Job payloads are typed by kind end to end: the gateway's submit is checked against the kind's
 * request and input, and a handler reads them with the kind's types. The `@ts-expect-error` lines
 * are checked by tsc (the type check covers tests): should the typing regress to something looser,
 * the line compiles and tsc fails on the unused directive. At run time, defineJobHandler checks the
 * stored payload before the handler sees it.
 */

const tablesRequest = { async: false, merge: true, table_format: 'json', charts_to_tables: false };

function claimed(kind: string, request: Record<string, unknown>, input: Record<string, unknown>): ClaimedJobContext {
  const job = { id: 'job-1', kind, request, input } as Partial<JobRecord> as JobRecord;
  return { job, org: {} as never, store: {} as never, blobs: {} as never, config: {} as never, log: {} as never, blobPrefix: 'o/job-1/', checkpoint: async () => undefined, pagesReady: async () => undefined, signal: new AbortController().signal, throwIfStopped: () => undefined, services: { languageModel: {} as never } };
}

describe('defineJobHandler', () => {
  const seen: JobContext<'tables'>[] = [];
  const tables = defineJobHandler('tables', async (ctx) => {
    seen.push(ctx);
    const format: 'html' | 'json' = ctx.job.request.table_format;
    const extractionId: string = ctx.job.input.extraction_id;
    // @ts-expect-error a tables job has no page range (that is extract's option)
    void ctx.job.request.pages;
    // @ts-expect-error a tables job's input is a saved extraction, not a staged file
    void ctx.job.input.blob_key;
    return { result: { format, extractionId }, credits: 0, pages: 0 };
  });

  beforeEach(() => { seen.length = 0; });

  it('hands the handler the payload checked against its kind', async () => {
    const outcome = await tables(claimed('tables', tablesRequest, { extraction_id: 'ex-1' }));
    expect(outcome.result).toEqual({ format: 'json', extractionId: 'ex-1' });
    expect(seen[0].job.kind).toBe('tables');
    expect(tables.kind).toBe('tables');
  });

  it('fails a job whose stored payload does not fit its kind, without running the handler or retrying', async () => {
    const bad = tables(claimed('tables', { ...tablesRequest, table_format: 'xml' }, { extraction_id: 'ex-1' }));
    await expect(bad).rejects.toMatchObject({ code: 'JOB_005', details: { kind: 'tables', part: 'request' } });
    await expect(bad).rejects.toHaveProperty('retryable', false);
    await expect(tables(claimed('tables', tablesRequest, {}))).rejects.toMatchObject({ code: 'JOB_005', details: { part: 'input' } });
    expect(seen).toHaveLength(0);
  });

  it('refuses a job of another kind', async () => {
    await expect(tables(claimed('charts', { async: false }, { extraction_id: 'ex-1' }))).rejects.toBeInstanceOf(QuireError);
    expect(seen).toHaveLength(0);
  });

  it('narrows a union request by its discriminant', async () => {
    const schema = defineJobHandler('schema', async (ctx) => {
      const { request } = ctx.job;
      // @ts-expect-error topics belong to split mode only
      void request.topics;
      const read = request.mode === 'split' ? Object.keys(request.topics) : [request.config_key];
      return { result: { read }, credits: 0, pages: 0 };
    });
    const config = { input_schema: { type: 'object' }, effort: false, agentic_confidence: false };
    const split = await schema(claimed('schema', { async: true, mode: 'split', topics: { invoice: config }, config_key: 'split:1' }, { extraction_ids: ['ex-1'], split_id: 'sp-1' }));
    expect(split.result).toEqual({ read: ['invoice'] });
  });
});

// Compile-time only: what the compiler refuses at the gateway's call sites and in a handler table.
export function submissionsTheCompilerRefuses(jobs: JobService, common: Omit<Parameters<JobService['submit']>[0], 'kind' | 'request' | 'input'>): void {
  void jobs.submit({ ...common, kind: 'tables', request: { merge: true, table_format: 'html', charts_to_tables: false }, input: { extraction_id: 'ex-1' } });
  // @ts-expect-error pages is extract's option, not a tables option
  void jobs.submit({ ...common, kind: 'tables', request: { merge: true, table_format: 'html', charts_to_tables: false, pages: '1-2' }, input: { extraction_id: 'ex-1' } });
  // @ts-expect-error table_format is html or json
  void jobs.submit({ ...common, kind: 'tables', request: { merge: true, table_format: 'xml', charts_to_tables: false }, input: { extraction_id: 'ex-1' } });
  // @ts-expect-error fill needs its instructions
  void jobs.submit({ ...common, kind: 'form_fill', request: { base_url: '' }, input: { form_id: 'f', page_count: 1, source: 'form' } });
  const charts = defineJobHandler('charts', async () => ({ result: {}, credits: 0, pages: 0 }));
  // @ts-expect-error a table of handlers maps each kind to the handler defined for it
  const table: { tables: CheckedJobHandler<'tables'> } = { tables: charts };
  void table;
}
