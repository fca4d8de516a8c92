import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A throwaway database on the Postgres at DATABASE_URL, for fleet tests. Returns undefined (and the
 * caller skips) when DATABASE_URL is not set.
 */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  const name = `quire_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export const fleetSkipMessage = (what: string) =>
  `skipping ${what}: set DATABASE_URL and REDIS_URL (CI sets them) to run the fleet tests against real Postgres/Redis`;
