import type { MetadataStore, Organization } from '@quire/storage';

const DEV_ORG_NAME = 'dev';

/**
 * Embedded mode's dev organization: every feature flag on, no cap. With QUIRE_BOOTSTRAP_API_KEY it
 * gets exactly that key (idempotent); without, a key is generated on the first start only and
 * returned so it can be printed once (only its hash is kept).
 */
export async function ensureDevOrganization(store: MetadataStore, bootstrapKey?: string): Promise<{ org: Organization; newKey?: string; hasKeys: boolean }> {
  const org = (await store.orgs.findByName(DEV_ORG_NAME))
    ?? (await store.orgs.create({ name: DEV_ORG_NAME, tier: 'self-hosted', flags: { form_filler: true, tables_endpoint: true, agentic_confidence: true } }));
  if (bootstrapKey) {
    await store.keys.create(org.id, { key: bootstrapKey, name: 'bootstrap' });
    return { org, hasKeys: true };
  }
  const existing = await store.keys.listForOrg(org.id);
  if (existing.some((k) => !k.revoked_at)) return { org, hasKeys: true };
  const { key } = await store.keys.create(org.id, { name: 'generated at first start' });
  return { org, newKey: key, hasKeys: true };
}
