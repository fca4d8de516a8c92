// Bundles the playground (preact + TSX) into dist/playground/app.js and app.css with esbuild: one
// file each, minified, no source from a CDN. scripts/build.mjs calls it after the packages' swc build.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Writes services/gateway/dist/playground/{app.js,app.css}; returns the output file names. */
export async function bundlePlayground() {
  const outdir = path.join(here, '..', 'dist', 'playground');
  const result = await build({
    entryPoints: { app: path.join(here, 'src', 'main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  return Object.keys(result.metafile.outputs).map((f) => path.basename(f));
}
