import { createDatabase } from '../../scripts/lib/fleet.mjs';

/**
 * A throwaway database on the Postgres at DATABASE_URL, for fleet tests (the fleet harness's own
 * helper). Returns undefined (and the caller skips) when DATABASE_URL is not set.
 */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const base = process.env.DATABASE_URL;
  return base ? createDatabase(base, 'quire_test') : undefined;
}
