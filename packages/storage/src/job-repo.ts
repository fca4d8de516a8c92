import { eventTypeFor, fromStatusesFor, type JobStatus } from '@quire/core';
import type { SqlClient, SqlExecutor } from './sql-client.js';
import type { JobError, JobRecord, JobSummary } from './records.js';
import type { KeyRepo } from './key-repo.js';

export interface NewJob {
  id: string;
  org_id: string;
  key_id: string | null;
  kind: string;
  request: Record<string, unknown>;
  input: Record<string, unknown>;
  credits_reserved: number;
  expires_at: Date;
  parent_id?: string | null;
}

export interface TransitionPatch {
  result?: unknown;
  /** The result as JSON text already serialized by the caller (instead of `result`): not parsed and re-serialized here. */
  result_json?: string;
  result_blob?: string | null;
  result_inline_blob?: string | null;
  result_token?: string | null;
  error?: JobError | null;
  credits_used?: number;
  pages?: number;
}

/**
 * Every column of `jobs` but `result`, for statements whose callers never read the result: printing a
 * large jsonb costs its size in CPU (in embedded mode PGlite does it in wasm on the main thread), and
 * the completing UPDATE would otherwise hand back the result it was just given. A test checks this
 * list against the table.
 */
export const JOB_SUMMARY_COLUMNS = [
  'id', 'org_id', 'key_id', 'kind', 'status', 'request', 'input', 'result_blob', 'result_inline_blob', 'result_token', 'error', 'progress',
  'attempts', 'credits_reserved', 'credits_used', 'pages', 'parent_id', 'lease_until', 'created_at', 'updated_at', 'started_at',
  'completed_at', 'expires_at', 'result_retrieved_at',
] as const satisfies readonly (keyof JobSummary)[];
const SUMMARY = JOB_SUMMARY_COLUMNS.join(', ');

/**
 * Job rows and their state changes. Every change is a compare-and-set on `status` (the allowed
 * "from" statuses come from core's state machine) and writes its outbox event in the same
 * transaction, so no event is lost across a restart and no canceled job is ever completed.
 */
export class JobRepo {
  constructor(private readonly db: SqlClient, private readonly keys: KeyRepo) {}

  /** Runs `fn` in the caller's transaction when there is one, else in a transaction of its own. */
  private inTransaction<T>(tx: SqlExecutor | undefined, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return tx ? fn(tx) : this.db.transaction(fn);
  }

  async create(j: NewJob, tx?: SqlExecutor): Promise<JobRecord> {
    return this.inTransaction(tx, async (ex) => {
      const { rows } = await ex.query<JobRecord>(
        `INSERT INTO jobs (id, org_id, key_id, kind, status, request, input, credits_reserved, expires_at, parent_id)
         VALUES ($1,$2,$3,$4,'pending',$5,$6,$7,$8,$9) RETURNING *`,
        [j.id, j.org_id, j.key_id, j.kind, JSON.stringify(j.request), JSON.stringify(j.input), j.credits_reserved, j.expires_at, j.parent_id ?? null],
      );
      await writeEvent(ex, rows[0]);
      return rows[0];
    });
  }

  async get(id: string): Promise<JobRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.query<JobRecord>('SELECT * FROM jobs WHERE id = $1', [id])).rows[0];
  }

  /** The job when it belongs to `orgId`; another organization's job is indistinguishable from a missing one. */
  async getForOrg(orgId: string, id: string): Promise<JobRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.query<JobRecord>('SELECT * FROM jobs WHERE id = $1 AND org_id = $2', [id, orgId])).rows[0];
  }

  async status(id: string): Promise<JobStatus | undefined> {
    return (await this.db.query<{ status: JobStatus }>('SELECT status FROM jobs WHERE id = $1', [id])).rows[0]?.status;
  }

  /**
   * Compare-and-set to `to` from any status the state machine allows; undefined when the job was elsewhere.
   * The row comes back without its result (the caller holds it when it just wrote it).
   */
  async transition(id: string, to: JobStatus, patch: TransitionPatch = {}, tx?: SqlExecutor): Promise<JobSummary | undefined> {
    return this.inTransaction(tx, async (ex) => {
      const sets = ['status = $2', 'updated_at = now()'];
      const params: unknown[] = [id, to, fromStatusesFor(to)];
      const add = (col: string, v: unknown) => { params.push(v); sets.push(`${col} = $${params.length}`); };
      if (patch.result_json !== undefined) add('result', patch.result_json);
      else if (patch.result !== undefined) add('result', JSON.stringify(patch.result));
      if (patch.result_blob !== undefined) add('result_blob', patch.result_blob);
      if (patch.result_inline_blob !== undefined) add('result_inline_blob', patch.result_inline_blob);
      if (patch.result_token !== undefined) add('result_token', patch.result_token);
      if (patch.error !== undefined) add('error', patch.error === null ? null : JSON.stringify(patch.error));
      if (patch.credits_used !== undefined) add('credits_used', patch.credits_used);
      if (patch.pages !== undefined) add('pages', patch.pages);
      if (to === 'completed' || to === 'failed' || to === 'canceled') sets.push('completed_at = now()', 'lease_until = NULL');
      if (to === 'pending') sets.push('lease_until = NULL');
      const { rows } = await ex.query<JobSummary>(
        `UPDATE jobs SET ${sets.join(', ')} WHERE id = $1 AND status = ANY($3::text[]) RETURNING ${SUMMARY}`, params);
      // Back to pending is a hand-back (a retry, a job resumed after a restart), not a new job: job.created
      // was written when the job was inserted, once.
      if (rows[0] && to !== 'pending') await writeEvent(ex, rows[0]);
      return rows[0];
    });
  }

  /**
   * Ends a job that will not be charged (it failed, or was canceled) and releases the credits its key
   * reserved when it was accepted, in one transaction. Only the caller whose compare-and-set moves the
   * job releases, so concurrent or repeated calls release once; undefined when the job had already
   * ended (nothing released).
   */
  async endAndRelease(id: string, to: 'failed' | 'canceled', error?: JobError, tx?: SqlExecutor): Promise<JobSummary | undefined> {
    return this.inTransaction(tx, async (ex) => {
      const ended = await this.transition(id, to, error ? { error } : {}, ex);
      if (ended?.key_id) await this.keys.settle(ended.key_id, ended.credits_reserved, 0, ex);
      return ended;
    });
  }

  /**
   * A worker's claim: pending/queued → processing, or re-claim of a processing job whose lease ran
   * out (its worker died). Zero rows = canceled or taken: the caller acknowledges and stops.
   */
  async claim(id: string, leaseMs: number): Promise<JobRecord | undefined> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<JobRecord>(
        `UPDATE jobs SET status = 'processing', attempts = attempts + 1, updated_at = now(),
           started_at = COALESCE(started_at, now()), lease_until = now() + ($2 || ' milliseconds')::interval
         WHERE id = $1 AND (status = ANY($3::text[]) OR (status = 'processing' AND lease_until < now()))
         RETURNING *`, [id, String(leaseMs), fromStatusesFor('processing')]);
      if (rows[0] && rows[0].attempts === 1) await writeEvent(tx, rows[0]);
      return rows[0];
    });
  }

  /** Extends the lease and records progress; returns the current status so the worker can stop when canceled. */
  async heartbeat(id: string, leaseMs: number, progress?: { pages_done: number; pages_total: number }): Promise<JobStatus | undefined> {
    const { rows } = await this.db.query<{ status: JobStatus }>(
      `UPDATE jobs SET lease_until = CASE WHEN status = 'processing' THEN now() + ($2 || ' milliseconds')::interval ELSE lease_until END,
         progress = COALESCE($3::jsonb, progress), updated_at = now()
       WHERE id = $1 RETURNING status`, [id, String(leaseMs), progress ? JSON.stringify(progress) : null]);
    return rows[0]?.status;
  }

  async incrementAttempts(id: string): Promise<void> {
    await this.db.query('UPDATE jobs SET attempts = attempts + 1 WHERE id = $1', [id]);
  }

  /** Jobs accepted but not finished: the embedded queue re-runs them after a restart. */
  async listUnfinished(): Promise<JobRecord[]> {
    return (await this.db.query<JobRecord>(`SELECT * FROM jobs WHERE status IN ('pending','queued','processing') ORDER BY created_at`)).rows;
  }

  async listExpired(now: Date, limit = 100): Promise<JobSummary[]> {
    return (await this.db.query<JobSummary>(
      `SELECT ${SUMMARY} FROM jobs WHERE expires_at < $1 AND status IN ('completed','failed','canceled') ORDER BY expires_at LIMIT $2`, [now, limit])).rows;
  }

  /** Completed jobs of organizations that delete a result once it was read, whose result was read. */
  async listRetrievedToDelete(limit = 500): Promise<JobSummary[]> {
    return (await this.db.query<JobSummary>(
      `SELECT ${JOB_SUMMARY_COLUMNS.map((c) => `j.${c}`).join(', ')} FROM jobs j JOIN organizations o ON o.id = j.org_id
       WHERE o.delete_after_retrieval AND j.status = 'completed' AND j.result_retrieved_at IS NOT NULL LIMIT $1`, [limit])).rows;
  }

  async listChildren(parentId: string): Promise<JobSummary[]> {
    return (await this.db.query<JobSummary>(`SELECT ${SUMMARY} FROM jobs WHERE parent_id = $1 ORDER BY created_at`, [parentId])).rows;
  }

  async markResultRetrieved(id: string): Promise<void> {
    // Only the first read writes: polling a completed job must not rewrite (and lock) its row each time.
    await this.db.query('UPDATE jobs SET result_retrieved_at = now() WHERE id = $1 AND result_retrieved_at IS NULL', [id]);
  }

  /** Single-use result URL: consumes the token; false when it was already used or never existed. */
  async consumeResultToken(id: string, token: string): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE jobs SET result_token = NULL WHERE id = $1 AND result_token = $2', [id, token]);
    return rowCount > 0;
  }

  async countByStatus(): Promise<Record<string, number>> {
    const { rows } = await this.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM jobs GROUP BY status');
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

/** The spec's event payload: type, timestamp, data {job_id, status, pages_processed, processing_time, error}. */
async function writeEvent(tx: SqlExecutor, job: JobSummary): Promise<void> {
  const type = eventTypeFor(job.status);
  if (!type) return;
  const started = job.started_at ? new Date(job.started_at).getTime() : undefined;
  const processing_time = started && job.completed_at ? (new Date(job.completed_at).getTime() - started) / 1000 : 0;
  const payload = {
    type,
    timestamp: new Date().toISOString(),
    data: {
      job_id: job.id,
      status: job.status,
      pages_processed: job.pages ?? 0,
      processing_time,
      ...(job.status === 'failed' && job.error ? { error: job.error.message } : {}),
    },
  };
  await tx.query('INSERT INTO outbox (org_id, job_id, type, payload) VALUES ($1, $2, $3, $4)', [job.org_id, job.id, type, JSON.stringify(payload)]);
}
