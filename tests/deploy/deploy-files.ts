// Readers for the deployment files (docker-compose.yml, k8s/*.yaml, infra/), so the test in
// manifests.test.ts can compare them with the code. Just enough of each format for our own files:
// anything outside that subset throws instead of being misread.
import fs from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../../scripts/lib/fleet.mjs';

export { ROOT };
export const read = (rel: string): string => fs.readFileSync(path.join(ROOT, rel), 'utf8');
export const exists = (rel: string): boolean => fs.existsSync(path.join(ROOT, rel));

// ---------------------------------------------------------------- compose

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  env_file?: { path: string; required?: boolean }[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  profiles?: string[];
  volumes?: string[];
}

/** docker-compose.yml with its `<<` merge keys resolved, as compose reads it. */
export function readCompose(): { services: Record<string, ComposeService> } {
  return parse(read('docker-compose.yml'), { merge: true });
}

/** Compose durations ("31m", "30s", "1m30s") in seconds. */
export function durationSeconds(d: string): number {
  const parts = [...d.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== d) throw new Error(`not a compose duration: ${d}`);
  const unit = { h: 3600, m: 60, s: 1, ms: 0.001 } as const;
  return parts.reduce((t, p) => t + Number(p[1]) * unit[p[2] as keyof typeof unit], 0);
}

// ---------------------------------------------------------------- env files

/** KEY=value lines of an env file (comments and blank lines skipped; no quoting or expansion used). */
export function readEnvFile(rel: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of read(rel).split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!m) throw new Error(`${rel}: not KEY=value: ${line}`);
    if (/^["'$]/.test(m[2])) throw new Error(`${rel}: quotes and expansions read differently in compose and docker --env-file: ${line}`);
    env[m[1]] = m[2];
  }
  return env;
}

// ---------------------------------------------------------------- kubernetes

export interface K8sDoc {
  file: string;
  kind: string;
  apiVersion: string;
  metadata: { name: string };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  resources?: string[];
}

export const k8sFiles = (): string[] => fs.readdirSync(path.join(ROOT, 'k8s')).filter((f) => f.endsWith('.yaml')).sort();

/** Every document of every k8s/*.yaml, with the file it came from. */
export function readK8s(): K8sDoc[] {
  return k8sFiles().flatMap((file) => parseAllDocuments(read(`k8s/${file}`)).map((d) => {
    if (d.errors.length) throw new Error(`k8s/${file}: ${d.errors[0].message}`);
    return { file, ...d.toJS() } as K8sDoc;
  }));
}

// ---------------------------------------------------------------- Dockerfile

export interface DockerInstruction { stage: number; op: string; args: string }

/** Instructions in order, continuation lines joined, comments dropped, ARG defaults substituted. */
export function readDockerfile(rel = 'infra/Dockerfile'): DockerInstruction[] {
  const text = read(rel).split('\n').filter((l) => !l.trimStart().startsWith('#')).join('\n').replace(/\\\n/g, ' ');
  const argDefaults: Record<string, string> = {};
  const out: DockerInstruction[] = [];
  let stage = -1;
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const args = m[2].trim().replace(/\$\{(\w+)\}/g, (all, k: string) => argDefaults[k] ?? all);
    if (m[1] === 'ARG' && stage < 0) {
      const [k, v] = args.split('=');
      if (v !== undefined) argDefaults[k] = v;
    }
    if (m[1] === 'FROM') stage++;
    out.push({ stage, op: m[1], args });
  }
  return out;
}

/** JSON (exec) form of CMD/ENTRYPOINT; the shell form is refused (it would not get signals). */
export function execForm(args: string): string[] {
  if (!args.startsWith('[')) throw new Error(`shell form: ${args} (PID 1 would be sh, which does not forward SIGTERM)`);
  return JSON.parse(args);
}

/** `ENV A=1 B=2` → { A: '1', B: '2' } (no quoting used). */
export const envPairs = (args: string): Record<string, string> =>
  Object.fromEntries(args.split(/\s+/).filter(Boolean).map((kv) => kv.split('=') as [string, string]));

/** COPY sources and whether they come from the build context (no --from). */
export function copySources(args: string): { fromContext: boolean; sources: string[] } {
  const tokens = args.split(/\s+/).filter(Boolean);
  const flags = tokens.filter((t) => t.startsWith('--'));
  const paths = tokens.filter((t) => !t.startsWith('--'));
  return { fromContext: !flags.some((f) => f.startsWith('--from=')), sources: paths.slice(0, -1) };
}

/** The paths after each `rm -rf` in a RUN line, up to the next `&&`. */
export function removedPaths(run: string): string[] {
  return [...run.matchAll(/rm -rf ([^&]*)/g)].flatMap((m) => m[1].trim().split(/\s+/));
}

/** A glob (`*` within one path segment, `**\/` any depth) as a test of a path or any folder above it. */
export function globCovers(glob: string, file: string): boolean {
  const part = (p: string) => (p === '**/' ? '(?:.*/)?' : p === '*' ? '[^/]*' : p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`^${glob.split(/(\*\*\/|\*)/).map(part).join('')}$`);
  const parts = file.split('/');
  return parts.some((_, i) => re.test(parts.slice(0, i + 1).join('/')));
}

/** .dockerignore patterns (comments skipped; `!` exceptions are not used and not supported here). */
export function dockerignore(): string[] {
  const patterns = read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  if (patterns.some((p) => p.startsWith('!'))) throw new Error('.dockerignore exceptions (!) are not supported by this reader');
  return patterns;
}

// ---------------------------------------------------------------- commands

/** The script a container runs with node, from its full argv (entrypoint + command). */
export function nodeScript(argv: string[]): { script: string; args: string[] } {
  const i = argv.findIndex((a) => a === 'node' || a.endsWith('/node'));
  if (i < 0) throw new Error(`does not run node: ${JSON.stringify(argv)}`);
  const rest = argv.slice(i + 1).filter((a) => !a.startsWith('-'));
  return { script: rest[0], args: rest.slice(1) };
}

/** The role an entry file runs: services/<role>/dist/main.js, or `apps/cli/dist/main.js serve` = embedded. */
export function roleOf({ script, args }: { script: string; args: string[] }): string {
  const service = /^services\/([a-z-]+)\/dist\/main\.js$/.exec(script);
  if (service) return service[1];
  if (script === 'apps/cli/dist/main.js' && args[0] === 'serve') return 'embedded';
  throw new Error(`not a Quire role: ${script} ${args.join(' ')}`);
}

/** Service folders with a main (the roles of distributed mode) and the queues each worker consumes. */
export function serviceRoles(): Map<string, string[]> {
  const roles = new Map<string, string[]>();
  for (const dir of fs.readdirSync(path.join(ROOT, 'services')).sort()) {
    if (!exists(`services/${dir}/src/main.ts`)) continue;
    const m = /runWorkerService\('([^']+)',\s*\[([^\]]*)\]\)/.exec(read(`services/${dir}/src/main.ts`));
    roles.set(dir, m ? [...m[2].matchAll(/'([^']+)'/g)].map((q) => q[1]) : []);
  }
  return roles;
}

/** Workspace package folders (pnpm-workspace.yaml's `dir/*` globs), relative to the root. */
export function workspacePackageDirs(): string[] {
  const globs: string[] = parse(read('pnpm-workspace.yaml')).packages;
  return globs.flatMap((g) => {
    if (!g.endsWith('/*') || g.slice(0, -2).includes('*')) throw new Error(`workspace glob not read here: ${g}`);
    const base = g.slice(0, -2);
    return fs.readdirSync(path.join(ROOT, base)).map((d) => `${base}/${d}`).filter((d) => exists(`${d}/package.json`));
  });
}
