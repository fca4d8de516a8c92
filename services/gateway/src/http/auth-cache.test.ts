import { PgliteSqlClient, MetadataStore } from '@quire/storage';
import { migratedPgliteTemplate } from '../../../../tests/support/pglite-template.js';
import { AuthCache } from './auth.js';

describe('AuthCache', () => {
  let store: MetadataStore;
  beforeAll(async () => {
    const sql = await PgliteSqlClient.open(undefined, await migratedPgliteTemplate());
    store = new MetadataStore(sql);
  });
  afterAll(() => store.close());

  it('serves a hit from memory within the TTL, sees changes after it, and never caches failures', async () => {
    const org = await store.orgs.create({ name: 'cache' });
    const { key, record } = await store.keys.create(org.id);
    let lookups = 0;
    const orig = store.keys.findByKey.bind(store.keys);
    store.keys.findByKey = async (k: string) => { lookups++; return orig(k); };
    let clock = 1_000_000;
    const cache = new AuthCache(store, 150, 10_000, () => clock);
    expect((await cache.lookup(key)).rec?.id).toBe(record.id);
    expect((await cache.lookup(key)).org?.id).toBe(org.id);
    expect(lookups).toBe(1);
    await store.keys.revoke(record.id);
    clock += 150; // the TTL runs out
    expect((await cache.lookup(key)).rec?.revoked_at).toBeTruthy(); // reloaded after the TTL
    await cache.lookup(key);
    expect(lookups).toBe(3); // revoked keys are not cached
    await cache.lookup('qk_unknown_key_000000000000');
    await cache.lookup('qk_unknown_key_000000000000');
    expect(lookups).toBe(5);
    const off = new AuthCache(store, 0, 10_000, () => clock);
    await off.lookup(key);
    await off.lookup(key);
    expect(lookups).toBe(7);
  });
});
