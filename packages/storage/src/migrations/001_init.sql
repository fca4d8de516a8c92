-- Quire metadata schema. Runs unchanged on Postgres (fleet) and PGlite (embedded).
CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  tier text NOT NULL DEFAULT 'free',
  flags jsonb NOT NULL DEFAULT '{}'::jsonb,
  retention_hours integer NOT NULL DEFAULT 48,
  delete_after_retrieval boolean NOT NULL DEFAULT false,
  page_limit integer,                 -- pages per billing period; NULL = unlimited
  rate_limit_per_minute integer,      -- NULL = the service default
  suspended boolean NOT NULL DEFAULT false,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations(id),
  name text NOT NULL DEFAULT '',
  prefix text NOT NULL,               -- first characters, for display only
  hash text NOT NULL UNIQUE,          -- sha256 hex of the whole key; the key itself is never stored
  credit_cap numeric,                 -- NULL = no cap
  credits_used numeric NOT NULL DEFAULT 0,
  credits_reserved numeric NOT NULL DEFAULT 0,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations(id),
  key_id uuid,
  kind text NOT NULL,
  status text NOT NULL,
  request jsonb NOT NULL DEFAULT '{}'::jsonb,
  input jsonb NOT NULL DEFAULT '{}'::jsonb,
  result jsonb,
  result_blob text,
  result_token text,
  error jsonb,
  progress jsonb,
  attempts integer NOT NULL DEFAULT 0,
  credits_reserved numeric NOT NULL DEFAULT 0,
  credits_used numeric NOT NULL DEFAULT 0,
  pages integer NOT NULL DEFAULT 0,
  parent_id uuid,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  expires_at timestamptz NOT NULL,
  result_retrieved_at timestamptz
);
CREATE INDEX jobs_org_created ON jobs (org_id, created_at);
CREATE INDEX jobs_active ON jobs (status) WHERE status IN ('pending', 'queued', 'processing');
CREATE INDEX jobs_expiry ON jobs (expires_at) WHERE status <> 'expired';
CREATE INDEX jobs_parent ON jobs (parent_id) WHERE parent_id IS NOT NULL;

-- Saved artifacts of completed steps. Their blobs live under "<org>/<job>/".
CREATE TABLE artifacts (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations(id),
  job_id uuid NOT NULL,
  type text NOT NULL,                 -- extraction | form | schema | split | tables | classify
  parent_id uuid,                     -- lineage: the form/extraction this one was made from
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  expired boolean NOT NULL DEFAULT false
);
CREATE INDEX artifacts_org_type ON artifacts (org_id, type);
CREATE INDEX artifacts_job ON artifacts (job_id);

CREATE TABLE schema_configs (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations(id),
  name text NOT NULL DEFAULT '',
  config jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pipelines (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations(id),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  keywords jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every charge, one row; usage and plan_info are sums over it.
CREATE TABLE ledger (
  id bigserial PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations(id),
  key_id uuid,
  job_id uuid,
  kind text NOT NULL,
  credits numeric NOT NULL,
  pages integer NOT NULL DEFAULT 0,
  documents integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_org_time ON ledger (org_id, created_at);

-- Transactional outbox: every job state change, written in the same transaction as the change.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  org_id uuid NOT NULL,
  job_id uuid NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX outbox_undelivered ON outbox (id) WHERE delivered_at IS NULL;
