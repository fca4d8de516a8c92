// Transpiles every workspace package's src/**/*.ts to dist/ with swc (type checking is `pnpm typecheck`).
// swc is used instead of tsc for the build because it takes seconds on a 2-core machine and needs no
// project references; tsc --noEmit still checks the whole tree in one program.
import { transformFile } from '@swc/core';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listWorkspacePackages } from './workspace.mjs';
import { bundlePlayground } from '../services/gateway/playground/bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function* walk(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

const isSource = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.test.ts');

async function buildPackage(dir) {
  const src = path.join(dir, 'src');
  const dist = path.join(dir, 'dist');
  await fs.rm(dist, { recursive: true, force: true });
  let count = 0;
  for await (const file of walk(src)) {
    const rel = path.relative(src, file);
    const out = path.join(dist, rel);
    await fs.mkdir(path.dirname(out), { recursive: true });
    if (!isSource(file)) {
      if (!file.endsWith('.ts')) await fs.copyFile(file, out); // assets (sql, json) travel with the code
      continue;
    }
    const { code, map } = await transformFile(file, {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
      module: { type: 'es6' },
      sourceMaps: true,
      filename: file,
    });
    const jsOut = out.replace(/\.ts$/, '.js');
    await fs.writeFile(jsOut, code + `\n//# sourceMappingURL=${path.basename(jsOut)}.map\n`);
    if (map) await fs.writeFile(jsOut + '.map', map);
    count++;
  }
  return count;
}

const started = Date.now();
const pkgs = await listWorkspacePackages(root);
const counts = await Promise.all(pkgs.map((p) => buildPackage(p.dir)));
const files = counts.reduce((a, b) => a + b, 0);
// The browser playground (preact, bundled by esbuild) goes into the gateway's dist, after its swc build cleared it.
const playground = await bundlePlayground();
console.log(`built ${pkgs.length} packages (${files} files) and the playground (${playground.join(', ')}) in ${Date.now() - started} ms`);
