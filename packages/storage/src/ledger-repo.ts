import type { SqlClient, SqlExecutor } from './sql-client.js';

export interface Charge {
  org_id: string;
  key_id: string | null;
  job_id: string | null;
  kind: string;
  credits: number;
  pages: number;
  documents: number;
}

export interface UsageTotals {
  credits: number;
  pages: number;
  documents: number;
}

export interface UsageBucket extends UsageTotals {
  start: string;
}

/** Every charge is one ledger row; plan_info and /usage are sums over it. */
export class LedgerRepo {
  constructor(private readonly db: SqlClient) {}

  async record(c: Charge, tx?: SqlExecutor): Promise<void> {
    await (tx ?? this.db).query('INSERT INTO ledger (org_id, key_id, job_id, kind, credits, pages, documents) VALUES ($1,$2,$3,$4,$5,$6,$7)',
      [c.org_id, c.key_id, c.job_id, c.kind, c.credits, c.pages, c.documents]);
  }

  async totals(orgId: string, since?: Date, until?: Date): Promise<UsageTotals> {
    const { rows } = await this.db.query<UsageTotals>(
      `SELECT COALESCE(SUM(credits),0)::float8 AS credits, COALESCE(SUM(pages),0)::int AS pages, COALESCE(SUM(documents),0)::int AS documents
       FROM ledger WHERE org_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::timestamptz IS NULL OR created_at < $3)`,
      [orgId, since ?? null, until ?? null]);
    return rows[0];
  }

  /** Pages charged to `orgId` since `since`: what a plan's page limit is checked against when a job is accepted. */
  async pagesSince(orgId: string, since: Date, tx?: SqlExecutor): Promise<number> {
    const { rows } = await (tx ?? this.db).query<{ pages: number }>(
      'SELECT COALESCE(SUM(pages),0)::int AS pages FROM ledger WHERE org_id = $1 AND created_at >= $2', [orgId, since]);
    return rows[0].pages;
  }

  /** Buckets of `unit` (day/week/month) between since and until, empty buckets included. */
  async timeline(orgId: string, unit: 'day' | 'week' | 'month', since: Date, until: Date): Promise<UsageBucket[]> {
    const { rows } = await this.db.query<{ start: Date; credits: number; pages: number; documents: number }>(
      `SELECT g.start, COALESCE(SUM(l.credits),0)::float8 AS credits, COALESCE(SUM(l.pages),0)::int AS pages, COALESCE(SUM(l.documents),0)::int AS documents
       FROM generate_series(date_trunc($2, $3::timestamptz AT TIME ZONE 'UTC'), $4::timestamptz AT TIME ZONE 'UTC', ('1 ' || $2)::interval) AS g(start)
       LEFT JOIN ledger l ON l.org_id = $1 AND (l.created_at AT TIME ZONE 'UTC') >= g.start AND (l.created_at AT TIME ZONE 'UTC') < g.start + ('1 ' || $2)::interval
       GROUP BY g.start ORDER BY g.start`, [orgId, unit, since, until]);
    return rows.map((r) => ({ start: new Date(r.start).toISOString().slice(0, 10), credits: r.credits, pages: r.pages, documents: r.documents }));
  }
}
