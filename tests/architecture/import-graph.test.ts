import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../scripts/lib/fleet.mjs';

/**
 * DESIGN.md rule 1: the pure centre never touches the network, the disk or a database. This reads the
 * runtime imports of every pure package's src (tests excluded) and fails on any module that does I/O,
 * on any @quire package outside the pure centre, and on calls to the global fetch.
 */

/** Packages (folders under the repository root) whose src must stay free of I/O. */
const PURE_PACKAGES = [
  'packages/core', 'packages/contracts',
  ...fs.readdirSync(path.join(ROOT, 'packages/formats')).map((f) => `packages/formats/${f}`),
  'packages/layout', 'packages/render', 'packages/tables',
  'packages/extract', 'packages/schema', 'packages/classify', 'packages/split', 'packages/forms',
  'packages/webhooks', // signing, schedule and a dispatcher that reaches its store and HTTP through ports
];

/** Workspace packages a pure one may import besides the pure ones: the LanguageModel port (callers pass an instance in). */
const PORTS = new Set(['@quire/models']);

/** Modules that reach the disk, the network, a database or other processes. */
const IO_MODULES = [
  /^(node:)?(fs|fs\/promises|net|http|https|http2|dgram|dns|dns\/promises|tls|child_process|cluster)$/,
  /^(pg|pg-.+|ioredis|bullmq|undici|express|busboy|s3rver|@electric-sql\/pglite|tesseract\.js)$/, /^@aws-sdk\//,
];

/**
 * Deliberate exceptions, each a library asset read from an installed package (rule 10: nothing is
 * fetched at run time; these files ship with the dependency). An entry that no longer matches fails
 * the test, so the list cannot outlive the code it excuses.
 */
const ALLOWED: { file: string; module: string; why: string }[] = [
  { file: 'packages/formats/pdf/src/pdfium.ts', module: 'node:fs/promises', why: 'reads pdfium.wasm from the installed @embedpdf/pdfium package' },
  { file: 'packages/forms/src/fonts.ts', module: 'node:fs', why: 'reads Liberation Sans from pdfjs-dist\'s standard_fonts folder for values outside WinAnsi' },
];

interface Violation { file: string; module: string; why: string }

const workspaceName = (dir: string): string => JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')).name;

/** The modules a source file loads at run time (type-only imports and exports left out), and whether it calls the global fetch. */
function runtimeImports(fileName: string, text: string): { modules: string[]; callsFetch: boolean } {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const modules: string[] = [];
  let callsFetch = false;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (!clause.name && clause.namedBindings !== undefined
        && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0
        && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) modules.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) modules.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const [arg] = node.arguments;
      const loads = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
      if (loads && arg && ts.isStringLiteralLike(arg)) modules.push(arg.text);
      if ((ts.isIdentifier(callee) && callee.text === 'fetch')
        || (ts.isPropertyAccessExpression(callee) && callee.name.text === 'fetch' && ts.isIdentifier(callee.expression) && callee.expression.text === 'globalThis')) callsFetch = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { modules, callsFetch };
}

/** What in one file breaks rule 1, given the names of the pure workspace packages. */
function violationsOf(file: string, text: string, pureNames: ReadonlySet<string>): Violation[] {
  const { modules, callsFetch } = runtimeImports(file, text);
  const found: Violation[] = [];
  for (const module of modules) {
    if (IO_MODULES.some((re) => re.test(module))) found.push({ file, module, why: 'does I/O' });
    else if (module.startsWith('@quire/') && !pureNames.has(module) && !PORTS.has(module)) found.push({ file, module, why: 'is not a pure package or a port' });
  }
  if (callsFetch) found.push({ file, module: 'fetch()', why: 'reaches the network' });
  return found;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !/\.(test|d)\.[mc]?[tj]s$/.test(entry.name)) out.push(rel);
  }
  return out;
}

const pureNames = new Set(PURE_PACKAGES.map(workspaceName));
const isAllowed = (v: Violation) => ALLOWED.some((a) => a.file === v.file && a.module === v.module);

describe('import graph: the pure centre does no I/O (DESIGN.md rule 1)', () => {
  const all = PURE_PACKAGES.flatMap((dir) => sourceFiles(`${dir}/src`).map((file) => violationsOf(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), pureNames))).flat();

  it('finds no I/O module, impure @quire package or fetch call in a pure package\'s src', () => {
    expect(all.filter((v) => !isAllowed(v))).toEqual([]);
  });

  it('keeps no allow-list entry that matches nothing', () => {
    expect(ALLOWED.filter((a) => !all.some((v) => v.file === a.file && v.module === a.module))).toEqual([]);
  });

  it('catches each kind of breach, and not type-only imports', () => {
    const src = [
      "import net from 'node:net';",
      "import { Pool } from 'pg';",
      "export { S3Client } from '@aws-sdk/client-s3';",
      "import { loadConfig } from '@quire/runtime';",
      "import type { MetadataStore } from '@quire/storage';",
      "import { type JobQueue } from '@quire/queue';",
      "import { parsePageRange } from '@quire/core';",
      "import { z } from 'zod';",
      "const cp = await import('node:child_process');",
      "const r = await fetch('https://example.com');",
    ].join('\n');
    expect(violationsOf('bad.ts', src, pureNames).map((v) => v.module)).toEqual(['node:net', 'pg', '@aws-sdk/client-s3', '@quire/runtime', 'node:child_process', 'fetch()']);
  });
});
