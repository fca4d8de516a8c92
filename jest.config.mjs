// Native-ESM jest (run with node --experimental-vm-modules) with @swc/jest as the TS transform.
// Workspace imports (@quire/*) resolve to each package's src/index.ts so tests never need a build.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listWorkspacePackages } from './scripts/workspace.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));

export default async () => {
  const pkgs = await listWorkspacePackages(root);
  const workspaceMap = Object.fromEntries(
    pkgs.map((p) => [`^${p.name.replace('/', '\\/')}$`, path.join(p.dir, 'src/index.ts')]),
  );
  return {
    rootDir: root,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    transform: {
      '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
    },
    moduleNameMapper: { ...workspaceMap, '^(\\.{1,2}/.*)\\.js$': '$1' },
    testMatch: ['<rootDir>/packages/**/src/**/*.test.ts', '<rootDir>/services/*/src/**/*.test.ts', '<rootDir>/apps/*/src/**/*.test.ts', '<rootDir>/tests/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    testTimeout: 60_000,
    maxWorkers: 2,
  };
};
