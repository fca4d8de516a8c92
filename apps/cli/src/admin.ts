import type { MetadataStore } from '@quire/storage';
import { FEATURE_FLAGS, writeBackup } from '@quire/storage';

/**
 * `quire admin …`: organizations, keys, flags, caps and plans, straight on the metadata store of the
 * configured mode (Postgres in the fleet; the embedded PGlite directory when the server is stopped).
 */
export const ADMIN_USAGE = `quire admin <command>
  org create <name> [--tier T] [--page-limit N] [--retention-hours H] [--delete-after-retrieval]
  org list
  org set <org-id> [--tier T] [--page-limit N|none] [--retention-hours H] [--rate-limit N] [--delete-after-retrieval true|false] [--suspended true|false]
  key create <org-id> [--name N] [--cap C] [--expires ISO-DATE]
  key list <org-id>
  key revoke <key-id>
  flags set <org-id> <flag>=<true|false> …      (flags: ${FEATURE_FLAGS.join(', ')})
  cap set <key-id> <credits|none>
  backup                                           (embedded: a consistent copy of the database into <data dir>/backups now)`;

/** Where `admin backup` writes (embedded mode only). */
export interface AdminBackupTarget { dataDir: string; keep: number }

export async function runAdmin(store: MetadataStore, argv: string[], out: (s: string) => void, backupTarget?: AdminBackupTarget): Promise<void> {
  const [area, verb, ...rest] = argv;
  if (area === 'backup' && verb === undefined) {
    if (!backupTarget) fail('backups are for embedded mode (the fleet\'s Postgres has its own tools)');
    return out(JSON.stringify(await writeBackup(store.sql, backupTarget.dataDir, backupTarget.keep), null, 2));
  }
  const { positional, flags } = parseArgs(rest);
  const need = (i: number, what: string) => positional[i] ?? fail(`missing ${what}`);
  const optNum = (v: string | undefined) => (v === undefined ? undefined : v === 'none' ? null : Number(v));
  const optBool = (v: string | undefined) => (v === undefined ? undefined : v === 'true' || v === '');
  const print = (v: unknown) => out(JSON.stringify(v, null, 2));
  switch (`${area} ${verb}`) {
    case 'org create':
      return print(await store.orgs.create({ name: need(0, 'name'), tier: flags.tier, page_limit: optNum(flags['page-limit']) ?? null,
        retention_hours: optNum(flags['retention-hours']) ?? undefined, delete_after_retrieval: optBool(flags['delete-after-retrieval']) }));
    case 'org list': return print(await store.orgs.list());
    case 'org set':
      return print(await store.orgs.update(need(0, 'org id'), { tier: flags.tier, page_limit: optNum(flags['page-limit']), retention_hours: optNum(flags['retention-hours']) ?? undefined,
        rate_limit_per_minute: optNum(flags['rate-limit']), delete_after_retrieval: optBool(flags['delete-after-retrieval']), suspended: optBool(flags.suspended) }) ?? fail('no such organization'));
    case 'key create': {
      const org = await store.orgs.get(need(0, 'org id')) ?? fail('no such organization');
      const { key, record } = await store.keys.create(org.id, { name: flags.name, creditCap: optNum(flags.cap) ?? null, expiresAt: flags.expires ? new Date(flags.expires) : null });
      return print({ key, key_id: record.id, note: 'shown once: store it now; only its hash is kept' });
    }
    case 'key list': return print((await store.keys.listForOrg(need(0, 'org id'))).map(({ hash: _h, ...k }) => k));
    case 'key revoke': await store.keys.revoke(need(0, 'key id')); return print({ revoked: positional[0] });
    case 'flags set': {
      const set: Record<string, boolean> = {};
      for (const kv of positional.slice(1)) {
        const [k, v] = kv.split('=');
        if (!(FEATURE_FLAGS as readonly string[]).includes(k)) fail(`unknown flag ${k} (known: ${FEATURE_FLAGS.join(', ')})`);
        set[k] = v !== 'false';
      }
      return print(await store.orgs.setFlags(need(0, 'org id'), set) ?? fail('no such organization'));
    }
    case 'cap set': return print(await store.keys.setCap(need(0, 'key id'), optNum(need(1, 'credits')) ?? null) ?? fail('no such key'));
    default: fail(`unknown admin command\n${ADMIN_USAGE}`);
  }
}

function parseArgs(args: string[]): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [], flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split('=');
      if (v !== undefined) flags[k] = v;
      else if (args[i + 1] !== undefined && !args[i + 1].startsWith('--')) flags[k] = args[++i];
      else flags[k] = '';
    } else positional.push(a);
  }
  return { positional, flags };
}

function fail(msg: string): never {
  throw new Error(msg);
}
