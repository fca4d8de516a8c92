import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { SqlClient, SqlExecutor } from './sql-client.js';
import type { ApiKeyRecord } from './records.js';

const KEY_PREFIX = 'qk_';
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Generates a high-entropy key; only its hash is stored. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export class KeyRepo {
  constructor(private readonly db: SqlClient) {}

  /** Stores the hash of `key` (generated when absent) and returns the plaintext once. */
  async create(orgId: string, opts: { key?: string; name?: string; creditCap?: number | null; expiresAt?: Date | null } = {}): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = opts.key ?? generateApiKey();
    const { rows } = await this.db.query<ApiKeyRecord>(
      `INSERT INTO api_keys (id, org_id, name, prefix, hash, credit_cap, expires_at) VALUES ($1,$2,$3,$4,$5,$6,$7)
       ON CONFLICT (hash) DO UPDATE SET name = EXCLUDED.name RETURNING *`,
      [randomUUID(), orgId, opts.name ?? '', key.slice(0, 8), hashKey(key), opts.creditCap ?? null, opts.expiresAt ?? null],
    );
    return { key, record: rows[0] };
  }

  /**
   * Looks a presented key up by its hash and compares the hashes in constant time (the lookup by an
   * indexed hash already leaks nothing about the key; the compare guards against a collision-free
   * but non-constant path in future changes).
   */
  async findByKey(key: string): Promise<ApiKeyRecord | undefined> {
    const h = hashKey(key);
    const { rows } = await this.db.query<ApiKeyRecord>('SELECT * FROM api_keys WHERE hash = $1', [h]);
    const rec = rows[0];
    if (!rec) return undefined;
    const a = Buffer.from(rec.hash, 'hex'), b = Buffer.from(h, 'hex');
    return a.length === b.length && timingSafeEqual(a, b) ? rec : undefined;
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    return (await this.db.query<ApiKeyRecord>('SELECT * FROM api_keys WHERE id = $1', [id])).rows[0];
  }

  async listForOrg(orgId: string): Promise<ApiKeyRecord[]> {
    return (await this.db.query<ApiKeyRecord>('SELECT * FROM api_keys WHERE org_id = $1 ORDER BY created_at', [orgId])).rows;
  }

  async setCap(id: string, cap: number | null): Promise<ApiKeyRecord | undefined> {
    return (await this.db.query<ApiKeyRecord>('UPDATE api_keys SET credit_cap = $2 WHERE id = $1 RETURNING *', [id, cap])).rows[0];
  }

  async revoke(id: string): Promise<void> {
    await this.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [id]);
  }

  async expire(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE api_keys SET expires_at = $2 WHERE id = $1', [id, at]);
  }

  /**
   * Reserves `credits` against the key's cap atomically: zero rows when used + reserved + credits
   * would pass the cap. This is how a request is rejected before any processing.
   */
  async reserve(keyId: string, credits: number, tx?: SqlExecutor): Promise<boolean> {
    const { rowCount } = await (tx ?? this.db).query(
      `UPDATE api_keys SET credits_reserved = credits_reserved + $2
       WHERE id = $1 AND (credit_cap IS NULL OR credits_used + credits_reserved + $2 <= credit_cap)`, [keyId, credits]);
    return rowCount > 0;
  }

  /** Turns a reservation into a charge of `charged` (which may differ from the reservation; 0 releases it). */
  async settle(keyId: string, reserved: number, charged: number, tx?: SqlExecutor): Promise<void> {
    await (tx ?? this.db).query(
      `UPDATE api_keys SET credits_reserved = GREATEST(credits_reserved - $2, 0), credits_used = credits_used + $3 WHERE id = $1`,
      [keyId, reserved, charged]);
  }
}
