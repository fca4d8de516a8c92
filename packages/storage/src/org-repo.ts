import { randomUUID } from 'node:crypto';
import type { SqlClient } from './sql-client.js';
import type { Organization, OrgFlags } from './records.js';

export interface NewOrganization {
  id?: string;
  name: string;
  tier?: string;
  flags?: OrgFlags;
  retention_hours?: number;
  delete_after_retrieval?: boolean;
  page_limit?: number | null;
  rate_limit_per_minute?: number | null;
}

export class OrgRepo {
  constructor(private readonly db: SqlClient) {}

  async create(o: NewOrganization): Promise<Organization> {
    const { rows } = await this.db.query<Organization>(
      `INSERT INTO organizations (id, name, tier, flags, retention_hours, delete_after_retrieval, page_limit, rate_limit_per_minute)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [o.id ?? randomUUID(), o.name, o.tier ?? 'free', JSON.stringify(o.flags ?? {}), o.retention_hours ?? 48,
        o.delete_after_retrieval ?? false, o.page_limit ?? null, o.rate_limit_per_minute ?? null],
    );
    return rows[0];
  }

  async get(id: string): Promise<Organization | undefined> {
    const { rows } = await this.db.query<Organization>('SELECT * FROM organizations WHERE id = $1', [id]);
    return rows[0];
  }

  async findByName(name: string): Promise<Organization | undefined> {
    const { rows } = await this.db.query<Organization>('SELECT * FROM organizations WHERE name = $1 AND deleted_at IS NULL ORDER BY created_at LIMIT 1', [name]);
    return rows[0];
  }

  async list(): Promise<Organization[]> {
    return (await this.db.query<Organization>('SELECT * FROM organizations ORDER BY created_at')).rows;
  }

  /** Merges `flags` into the organization's flags. */
  async setFlags(id: string, flags: OrgFlags): Promise<Organization | undefined> {
    const { rows } = await this.db.query<Organization>(
      'UPDATE organizations SET flags = flags || $2::jsonb WHERE id = $1 RETURNING *', [id, JSON.stringify(flags)]);
    return rows[0];
  }

  async update(id: string, patch: Partial<Pick<Organization, 'tier' | 'retention_hours' | 'delete_after_retrieval' | 'page_limit' | 'rate_limit_per_minute' | 'suspended' | 'name'>>): Promise<Organization | undefined> {
    const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
    if (!entries.length) return this.get(id);
    const sets = entries.map(([k], i) => `${k} = $${i + 2}`).join(', ');
    const { rows } = await this.db.query<Organization>(`UPDATE organizations SET ${sets} WHERE id = $1 RETURNING *`, [id, ...entries.map(([, v]) => v)]);
    return rows[0];
  }

  async softDelete(id: string): Promise<void> {
    await this.db.query('UPDATE organizations SET deleted_at = now() WHERE id = $1', [id]);
  }
}
