// Lists the workspace's packages (dir + name) from the globs in pnpm-workspace.yaml.
import fs from 'node:fs/promises';
import path from 'node:path';

const GLOBS = ['packages/*', 'packages/formats/*', 'services/*', 'apps/*'];

export async function listWorkspacePackages(root) {
  const out = [];
  for (const glob of GLOBS) {
    const base = path.join(root, glob.replace(/\/\*$/, ''));
    let entries = [];
    try { entries = await fs.readdir(base, { withFileTypes: true }); } catch { continue; }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const dir = path.join(base, e.name);
      try {
        const pkg = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8'));
        await fs.access(path.join(dir, 'src'));
        out.push({ dir, name: pkg.name });
      } catch { /* not a package with sources */ }
    }
  }
  return out;
}
