import { randomUUID } from 'node:crypto';
import type { SqlClient } from './sql-client.js';
import { isUuid } from './job-repo.js';

export interface SchemaConfigRecord {
  id: string;
  org_id: string;
  name: string;
  config: Record<string, unknown>;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface PipelineRecord {
  id: string;
  org_id: string;
  name: string;
  description: string;
  keywords: string[];
  created_at: Date;
}

/** Saved schema configurations (schema_config_id) and classify pipelines, per organization. */
export class ConfigRepo {
  constructor(private readonly db: SqlClient) {}

  async createSchemaConfig(orgId: string, name: string, config: Record<string, unknown>): Promise<SchemaConfigRecord> {
    return (await this.db.query<SchemaConfigRecord>(
      'INSERT INTO schema_configs (id, org_id, name, config) VALUES ($1,$2,$3,$4) RETURNING *', [randomUUID(), orgId, name, JSON.stringify(config)])).rows[0];
  }

  async updateSchemaConfig(orgId: string, id: string, patch: { name?: string; config?: Record<string, unknown> }): Promise<SchemaConfigRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.query<SchemaConfigRecord>(
      `UPDATE schema_configs SET name = COALESCE($3, name), config = COALESCE($4::jsonb, config), version = version + 1, updated_at = now()
       WHERE id = $1 AND org_id = $2 RETURNING *`, [id, orgId, patch.name ?? null, patch.config ? JSON.stringify(patch.config) : null])).rows[0];
  }

  async getSchemaConfig(orgId: string, id: string): Promise<SchemaConfigRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.query<SchemaConfigRecord>('SELECT * FROM schema_configs WHERE id = $1 AND org_id = $2', [id, orgId])).rows[0];
  }

  async listSchemaConfigs(orgId: string): Promise<SchemaConfigRecord[]> {
    return (await this.db.query<SchemaConfigRecord>('SELECT * FROM schema_configs WHERE org_id = $1 ORDER BY created_at', [orgId])).rows;
  }

  async createPipeline(orgId: string, p: { name: string; description?: string; keywords?: string[] }): Promise<PipelineRecord> {
    return (await this.db.query<PipelineRecord>(
      'INSERT INTO pipelines (id, org_id, name, description, keywords) VALUES ($1,$2,$3,$4,$5) RETURNING *',
      [randomUUID(), orgId, p.name, p.description ?? '', JSON.stringify(p.keywords ?? [])])).rows[0];
  }

  async listPipelines(orgId: string): Promise<PipelineRecord[]> {
    return (await this.db.query<PipelineRecord>('SELECT * FROM pipelines WHERE org_id = $1 ORDER BY created_at', [orgId])).rows;
  }

  async getPipeline(orgId: string, id: string): Promise<PipelineRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.query<PipelineRecord>('SELECT * FROM pipelines WHERE id = $1 AND org_id = $2', [id, orgId])).rows[0];
  }

  async updatePipeline(orgId: string, id: string, patch: { name?: string; description?: string; keywords?: string[] }): Promise<PipelineRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.db.query<PipelineRecord>(
      `UPDATE pipelines SET name = COALESCE($3, name), description = COALESCE($4, description), keywords = COALESCE($5::jsonb, keywords)
       WHERE id = $1 AND org_id = $2 RETURNING *`,
      [id, orgId, patch.name ?? null, patch.description ?? null, patch.keywords ? JSON.stringify(patch.keywords) : null])).rows[0];
  }

  async deletePipeline(orgId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.db.query('DELETE FROM pipelines WHERE id = $1 AND org_id = $2', [id, orgId])).rowCount > 0;
  }
}
