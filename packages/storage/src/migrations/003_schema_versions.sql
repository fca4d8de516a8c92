-- The last schema-record version drawn per lineage (organization + configuration key). Drawing a
-- version is one upsert that increments this row under its row lock, so two runs of the same
-- lineage at the same instant can never draw the same number (MAX(version) + 1 over artifacts could).
CREATE TABLE schema_versions (
  org_id uuid NOT NULL REFERENCES organizations(id),
  config_key text NOT NULL,
  last_version integer NOT NULL,
  PRIMARY KEY (org_id, config_key)
);
