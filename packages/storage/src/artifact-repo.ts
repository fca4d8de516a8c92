import type { SqlClient, SqlExecutor } from './sql-client.js';
import type { Artifact, ArtifactType } from './records.js';
import { isUuid } from './job-repo.js';

/** Saved outputs that later steps chain on: extractions, forms, schema records, splits, tables. */
export class ArtifactRepo {
  constructor(private readonly db: SqlClient) {}

  async create(a: { id: string; org_id: string; job_id: string; type: ArtifactType; parent_id?: string | null; data: Record<string, unknown>; expires_at: Date }, tx?: SqlExecutor): Promise<Artifact> {
    const { rows } = await (tx ?? this.db).query<Artifact>(
      `INSERT INTO artifacts (id, org_id, job_id, type, parent_id, data, expires_at) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING *`,
      [a.id, a.org_id, a.job_id, a.type, a.parent_id ?? null, JSON.stringify(a.data), a.expires_at]);
    return rows[0];
  }

  /** The artifact of `type` owned by `orgId`; undefined for a missing id or another organization's (no existence leak). */
  async getForOrg(orgId: string, type: ArtifactType, id: string): Promise<Artifact | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.query<Artifact>('SELECT * FROM artifacts WHERE id = $1 AND org_id = $2 AND type = $3', [id, orgId, type])).rows[0];
  }

  async findAnyType(orgId: string, id: string): Promise<Artifact | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.query<Artifact>('SELECT * FROM artifacts WHERE id = $1 AND org_id = $2', [id, orgId])).rows[0];
  }

  async listForJob(jobId: string): Promise<Artifact[]> {
    return (await this.db.query<Artifact>('SELECT * FROM artifacts WHERE job_id = $1', [jobId])).rows;
  }

  async markExpiredForJob(jobId: string): Promise<void> {
    await this.db.query('UPDATE artifacts SET expired = true WHERE job_id = $1', [jobId]);
  }

  /**
   * Draws the next version of a schema lineage (organization + configuration key), atomically: the
   * lineage's counter row is inserted or incremented in one statement, and Postgres serializes
   * concurrent upserts of one row, so concurrent runs get distinct numbers. A lineage's first draw
   * starts after the records it already has (made before the counter existed). A run that fails
   * after drawing leaves a gap; versions only ever increase.
   */
  async nextSchemaVersion(orgId: string, configKey: string): Promise<number> {
    const { rows } = await this.db.query<{ v: number }>(
      `INSERT INTO schema_versions (org_id, config_key, last_version)
       VALUES ($1, $2, (SELECT COALESCE(MAX((data->>'version')::int), 0) FROM artifacts WHERE org_id = $1 AND type = 'schema' AND data->>'config_key' = $2) + 1)
       ON CONFLICT (org_id, config_key) DO UPDATE SET last_version = schema_versions.last_version + 1
       RETURNING last_version AS v`, [orgId, configKey]);
    return rows[0].v;
  }

  async listSchemaVersions(orgId: string, configKey: string): Promise<Artifact[]> {
    return (await this.db.query<Artifact>(
      `SELECT * FROM artifacts WHERE org_id = $1 AND type = 'schema' AND data->>'config_key' = $2 ORDER BY (data->>'version')::int`, [orgId, configKey])).rows;
  }
}
