import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../../scripts/lib/fleet.mjs';

/**
 * The playground's browser code (services/gateway/playground) has its own tsconfig (DOM types, preact
 * JSX), outside the repository's node program that `pnpm typecheck` checks: this keeps it checked too.
 */
it('the playground front-end type-checks', () => {
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'services/gateway/playground/tsconfig.json')], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
}, 120_000);
