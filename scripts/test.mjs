// The whole test suite: type check, then jest (unit, embedded e2e, fleet). Ends with the plain
// summary line "N passed, N failed, N skipped" that CI reads. Extra arguments go to jest.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const skipTypecheck = process.env.QUIRE_TEST_SKIP_TYPECHECK === '1' || args.length > 0;

let typeFailures = 0;
if (!skipTypecheck) {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'], { stdio: 'inherit' });
  if (tsc.status !== 0) typeFailures = 1;
}

// The fleet tests run the built services (dist/): build first so they never run stale code.
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
if (build.status !== 0) { console.log('build failed'); process.exit(1); }

const report = path.join(os.tmpdir(), `quire-jest-${process.pid}.json`);
const jest = spawnSync(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--json', `--outputFile=${report}`, ...args], { stdio: 'inherit' });

let passed = 0, failed = 0, skipped = 0;
try {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed = r.numPassedTests; failed = r.numFailedTests + r.numRuntimeErrorTestSuites; skipped = r.numPendingTests + r.numTodoTests;
  fs.rmSync(report, { force: true });
} catch {
  failed += 1; // jest crashed before writing its report
}
failed += typeFailures;
if (typeFailures) console.log('typecheck: failed (counted as one failure)');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || jest.status !== 0 ? 1 : 0);
