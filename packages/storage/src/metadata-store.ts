import type { SqlClient } from './sql-client.js';
import { OrgRepo } from './org-repo.js';
import { KeyRepo } from './key-repo.js';
import { JobRepo } from './job-repo.js';
import { ArtifactRepo } from './artifact-repo.js';
import { LedgerRepo } from './ledger-repo.js';
import { OutboxRepo } from './outbox-repo.js';
import { ConfigRepo } from './config-repo.js';
import { WebhookRepo } from './webhook-repo.js';
import { migrate } from './migrate.js';
import { PgSqlClient } from './pg-sql-client.js';
import { PgliteSqlClient } from './pglite-sql-client.js';

/** The metadata store: repositories over one SqlClient (Postgres in the fleet, PGlite embedded). */
export class MetadataStore {
  readonly orgs: OrgRepo;
  readonly keys: KeyRepo;
  readonly jobs: JobRepo;
  readonly artifacts: ArtifactRepo;
  readonly ledger: LedgerRepo;
  readonly outbox: OutboxRepo;
  readonly configs: ConfigRepo;
  readonly webhooks: WebhookRepo;

  constructor(readonly sql: SqlClient) {
    this.orgs = new OrgRepo(sql);
    this.keys = new KeyRepo(sql);
    this.jobs = new JobRepo(sql, this.keys);
    this.artifacts = new ArtifactRepo(sql);
    this.ledger = new LedgerRepo(sql);
    this.outbox = new OutboxRepo(sql);
    this.configs = new ConfigRepo(sql);
    this.webhooks = new WebhookRepo(sql);
  }

  async ping(): Promise<void> {
    await this.sql.query('SELECT 1');
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}

export type MetadataStoreConfig =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; template?: Blob };

/** Opens the store and applies pending migrations. */
export async function openMetadataStore(cfg: MetadataStoreConfig): Promise<MetadataStore> {
  const sql = cfg.kind === 'postgres'
    ? new PgSqlClient(cfg.url, { max: cfg.poolSize })
    : await PgliteSqlClient.open(cfg.dataDir, cfg.template);
  await migrate(sql);
  return new MetadataStore(sql);
}
