import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ENV_DOCS, Metrics, createLogger, loadConfig } from '@quire/runtime';
import { JOB_CATALOG } from '@quire/queue';
import { DRAIN_MARGIN_MS, createGatewayApp, drainTimeoutMs, listenGateway, type GatewayDeps } from '@quire/gateway';
import { ensureBuilt } from '../../scripts/lib/fleet.mjs';
import {
  copySources, dockerignore, durationSeconds, envPairs, execForm, exists, globCovers, k8sFiles, nodeScript, read,
  readCompose, readDockerfile, readEnvFile, readK8s, removedPaths, roleOf, serviceRoles, workspacePackageDirs, type ComposeService, type K8sDoc,
} from './deploy-files.js';

/**
 * The deployment files (infra/Dockerfile, docker-compose.yml, infra/.env.example, k8s/) checked against
 * the code they deploy. No image is built or run here (no Docker daemon in the test environment):
 * these checks are what can be known without one.
 */
const compose = readCompose();
const k8s = readK8s();
const dockerfile = readDockerfile();
const envExample = readEnvFile('infra/.env.example');
const roles = serviceRoles();
const lastStage = Math.max(...dockerfile.map((i) => i.stage));
const finalOp = (op: string) => dockerfile.filter((i) => i.stage === lastStage && i.op === op);
const ENTRYPOINT = execForm(finalOp('ENTRYPOINT').at(-1)!.args);
const CMD = execForm(finalOp('CMD').at(-1)!.args);
const WORKDIR = finalOp('WORKDIR').at(-1)!.args;
const imageEnv = Object.assign({}, ...finalOp('ENV').map((i) => envPairs(i.args))) as Record<string, string>;

const STORES = ['postgres', 'redis', 'minio'];
const quireServices = Object.entries(compose.services).filter(([name]) => !STORES.includes(name));
const deployments = k8s.filter((d) => d.kind === 'Deployment');
const configMap = k8s.find((d) => d.kind === 'ConfigMap')!;
const secret = k8s.find((d) => d.kind === 'Secret')!;
const container = (d: K8sDoc) => d.spec.template.spec.containers[0];

/** What a compose service runs: the image's entrypoint plus its command (or the image's CMD). */
const composeArgv = (s: ComposeService) => [...ENTRYPOINT, ...(s.command ?? CMD)];
/** Kubernetes: `command` replaces the ENTRYPOINT, `args` the CMD (and CMD is dropped when only command is given). */
const k8sArgv = (c: { command?: string[]; args?: string[] }) => [...(c.command ?? ENTRYPOINT), ...(c.args ?? (c.command ? [] : CMD))];
/** The settings a compose service's processes see: the image's ENV, its env files in order, then `environment`. */
const composeEnv = (s: ComposeService) => ({
  ...imageEnv,
  ...Object.assign({}, ...(s.env_file ?? []).filter((f) => exists(f.path) || f.required !== false).map((f) => readEnvFile(f.path))),
  ...(s.environment ?? {}),
});
const k8sEnv = () => ({ ...imageEnv, ...configMap.data, ...secret.stringData });
const deploymentRole = (d: K8sDoc) => roleOf(nodeScript(k8sArgv(container(d))));

/** expect(actual).toEqual(expected), naming `what` in the failure message. */
const check = (what: string, actual: unknown, expected: unknown) => expect({ what, actual }).toEqual({ what, actual: expected });

beforeAll(async () => {
  await ensureBuilt(); // the entry files are checked in dist/, as the image's build stage produces them
}, 120_000);

describe('deployment files against the code', () => {
  it('name only real settings (QUIRE_* of config.ts / the README table), with values config.ts accepts', () => {
    const files = ['docker-compose.yml', 'infra/.env.example', 'infra/Dockerfile', ...k8sFiles().map((f) => `k8s/${f}`)];
    for (const file of files) {
      // a name ending in * (QUIRE_S3_*) stands for the settings it starts
      const known = (v: string) => (v.endsWith('*') ? Object.keys(ENV_DOCS).some((k) => k.startsWith(v.slice(0, -1))) : v in ENV_DOCS);
      const unknown = [...read(file).matchAll(/\bQUIRE_[A-Z0-9_]*[A-Z0-9]\b\*?|\bQUIRE_[A-Z0-9_]+\*/g)].map((m) => m[0]).filter((v) => !known(v));
      expect({ file, unknown }).toEqual({ file, unknown: [] });
    }
    expect(loadConfig(envExample).mode).toBe('distributed');
    expect(loadConfig(k8sEnv()).mode).toBe('distributed');
    for (const [name, s] of quireServices) check(`compose ${name}`, loadConfig(composeEnv(s)).mode, name === 'embedded' ? 'embedded' : 'distributed');
    expect(loadConfig(imageEnv).mode).toBe('embedded'); // the image's default command is `quire serve`
  });

  it('run one image, and each role by an entry file that the build produces', () => {
    const entries = [
      { where: 'Dockerfile CMD', argv: [...ENTRYPOINT, ...CMD] },
      ...quireServices.map(([name, s]) => ({ where: `compose ${name}`, argv: composeArgv(s) })),
      ...deployments.map((d) => ({ where: `k8s ${d.metadata.name}`, argv: k8sArgv(container(d)) })),
    ];
    for (const { where, argv } of entries) {
      const { script } = nodeScript(argv);
      const source = script.replace(/\/dist\/(.*)\.js$/, '/src/$1.ts');
      check(`${where}: ${script}`, { built: exists(script), source: exists(source) }, { built: true, source: true });
    }
    expect(WORKDIR).toBe('/app'); // the entry paths above are relative to it
    expect(read('apps/cli/src/server-commands.ts')).toContain(`case '${CMD.at(-1)}':`);  // main.ts dispatches; the server's commands live here
    const image = { image: 'quire:local', build: { context: '.', dockerfile: 'infra/Dockerfile' } };
    for (const [name, s] of quireServices) check(`compose ${name}`, { image: s.image, build: s.build }, image);
    expect(new Set(deployments.map((d) => container(d).image)).size).toBe(1);
  });

  it('compose and k8s run every service in services/ and nothing else (compose adds embedded mode)', () => {
    const composeRoles = quireServices.map(([, s]) => roleOf(nodeScript(composeArgv(s)))).sort();
    const k8sRoles = deployments.map(deploymentRole).sort();
    expect(composeRoles).toEqual([...roles.keys(), 'embedded'].sort());
    expect(k8sRoles).toEqual([...roles.keys()].sort());
    for (const d of deployments) check(`${d.metadata.name} sets args, not command (tini stays PID 1)`, container(d).command, undefined);
  });

  it('give each worker time to finish the longest job on its queues, and the gateway time for its preStop and its drain', () => {
    const longestJob = (queues: readonly string[]) => Math.max(0, ...Object.values(JOB_CATALOG).filter((k) => queues.includes(k.queue)).map((k) => k.timeoutMs / 1000));
    // The gateway lets requests in flight finish on SIGTERM for up to drainTimeoutMs (the sync wait, as
    // the deployment configures it, plus a margin), then closes its stores.
    const drain = (env: Record<string, string>) => drainTimeoutMs(loadConfig(env)) / 1000;
    const graceNeeded = (role: string, env: Record<string, string>) => {
      if (role === 'gateway') return drain(env) + 10;
      if (role === 'webhook-dispatcher') return Number(ENV_DOCS.QUIRE_WEBHOOK_TIMEOUT_SECONDS.default) + 5;
      const queues = roles.get(role)!;
      return queues.length ? longestJob(queues) + 30 : 0;
    };
    for (const [role, queues] of roles) if (role.startsWith('worker-')) check(`${role} consumes queues`, queues.length > 0, true);
    check('gateway drain bound', drain(envExample), Number(envExample.QUIRE_SYNC_WAIT_SECONDS) + DRAIN_MARGIN_MS / 1000);
    for (const [name, s] of quireServices.filter(([n]) => roles.has(n))) {
      check(`compose ${name} stop_grace_period`, durationSeconds(s.stop_grace_period ?? '10s') >= graceNeeded(name, composeEnv(s)), true);
    }
    // Embedded mode drains its HTTP requests first while its workers still take jobs, then finishes the jobs in hand.
    const [, embedded] = quireServices.find(([n]) => n === 'embedded')!;
    const allQueues = [...new Set(Object.values(JOB_CATALOG).map((k) => k.queue))];
    check('compose embedded stop_grace_period', durationSeconds(embedded.stop_grace_period ?? '10s') >= drain(composeEnv(embedded)) + longestJob(allQueues) + 30, true);
    for (const d of deployments) {
      const grace = d.spec.template.spec.terminationGracePeriodSeconds ?? 30;
      // Kubernetes counts the preStop hook against the grace period: SIGTERM comes only after it.
      const preStop = Number(container(d).lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      check(`${d.metadata.name} terminationGracePeriodSeconds`, grace >= preStop + graceNeeded(deploymentRole(d), k8sEnv()) && grace > preStop + 5, true);
    }
  });

  it('scale every worker with a CPU-based autoscaler that owns the replica count', () => {
    const hpas = k8s.filter((d) => d.kind === 'HorizontalPodAutoscaler');
    for (const role of [...roles.keys()].filter((r) => r.startsWith('worker-'))) {
      const d = deployments.find((x) => deploymentRole(x) === role)!;
      const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === d.metadata.name);
      check(`${role} autoscaler`, { api: hpa?.apiVersion, kind: hpa?.spec.scaleTargetRef.kind, metric: hpa?.spec.metrics[0].resource.name },
        { api: 'autoscaling/v2', kind: 'Deployment', metric: 'cpu' });
      // a fixed replica count would reset the autoscaler's on every apply; utilization is a share of the request
      check(`${role} deployment`, { replicas: d.spec.replicas, cpuRequest: Boolean(container(d).resources?.requests?.cpu) }, { replicas: undefined, cpuRequest: true });
    }
  });

  it('wire compose to its own stores, started and healthy first', () => {
    const env = envExample;
    const pg = compose.services.postgres.environment!;
    const db = new URL(env.QUIRE_DATABASE_URL);
    check('QUIRE_DATABASE_URL', [db.hostname, db.username, db.password, db.pathname.slice(1)], ['postgres', pg.POSTGRES_USER, pg.POSTGRES_PASSWORD, pg.POSTGRES_DB]);
    check('QUIRE_REDIS_URL', new URL(env.QUIRE_REDIS_URL).hostname, 'redis');
    const minio = compose.services.minio.environment!;
    check('QUIRE_S3_*', [new URL(env.QUIRE_S3_ENDPOINT).hostname, env.QUIRE_S3_ACCESS_KEY_ID, env.QUIRE_S3_SECRET_ACCESS_KEY], ['minio', minio.MINIO_ROOT_USER, minio.MINIO_ROOT_PASSWORD]);
    for (const store of STORES) check(`${store} healthcheck`, Boolean(compose.services[store].healthcheck?.test.length), true);
    const healthyStores = Object.fromEntries(STORES.map((st) => [st, { condition: 'service_healthy' }]));
    for (const [name, s] of quireServices.filter(([n]) => n !== 'embedded')) {
      check(`compose ${name}`, { env_file: s.env_file?.[0].path, depends_on: s.depends_on }, { env_file: 'infra/.env.example', depends_on: healthyStores });
    }
  });

  it('apply the ConfigMap and the workloads with kustomize, reference them by name, and never the placeholder Secret', () => {
    const kustomization = k8s.find((d) => d.kind === 'Kustomization')!;
    expect([...kustomization.resources!].sort()).toEqual(k8sFiles().filter((f) => f !== 'kustomization.yaml' && f !== 'secret.example.yaml'));
    for (const v of Object.values(secret.stringData!)) expect(v).toContain('CHANGE-ME');
    for (const d of deployments) {
      const refs = container(d).envFrom.map((e: any) => e.configMapRef?.name ?? e.secretRef?.name);
      check(`${d.metadata.name} envFrom`, refs, [configMap.metadata.name, secret.metadata.name]);
      // a read-only root still needs a writable /tmp: the native OCR engine unpacks its model there
      const mounts = (container(d).volumeMounts ?? []).map((m: any) => m.mountPath);
      if (container(d).securityContext?.readOnlyRootFilesystem) check(`${d.metadata.name} mounts`, mounts, expect.arrayContaining(['/tmp']));
    }
  });
});

describe('the Dockerfile', () => {
  it('copies only files that exist and .dockerignore lets through, and builds with the pinned pnpm on the supported Node', () => {
    const ignored = dockerignore();
    const inContext = (src: string) => check(src, { exists: exists(src), ignoredBy: ignored.filter((p) => globCovers(p, src)) }, { exists: true, ignoredBy: [] });
    const copies = dockerfile.filter((i) => i.op === 'COPY').map((i) => copySources(i.args)).filter((c) => c.fromContext);
    for (const { sources } of copies) sources.filter((s) => s !== '.').forEach(inContext);
    // `COPY . .` sends the whole context: what the build reads must not be ignored
    const buildScript = /node (\S+)/.exec(JSON.parse(read('package.json')).scripts.build)![1];
    const buildImports = [...read(buildScript).matchAll(/from '(\.[^']+)'/g)].map((m) => path.posix.join(path.posix.dirname(buildScript), m[1]));
    const packages = workspacePackageDirs();
    expect(packages).toEqual(expect.arrayContaining(['apps/cli', 'packages/storage', ...[...roles.keys()].map((r) => `services/${r}`)]));
    const packageInputs = packages.flatMap((d) => [`${d}/package.json`, ...(exists(`${d}/src`) ? [`${d}/src`] : [])]);
    ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', buildScript, ...buildImports, ...packageInputs].forEach(inContext);
    const pinned = JSON.parse(read('package.json')).packageManager.split('+')[0];
    expect(read('infra/Dockerfile')).toContain(`npm install --global ${pinned}`);
    const bases = dockerfile.filter((i) => i.op === 'FROM').map((i) => i.args.split(/\s+/)[0]);
    expect(new Set(bases)).toEqual(new Set(['node:20-bookworm-slim']));
    expect(JSON.parse(read('package.json')).engines.node).toMatch(/^>=20\./);
  });

  it('keeps, after its pruning step, every file the roles load at run time', () => {
    const removed = dockerfile.filter((i) => i.op === 'RUN' && i.stage < lastStage).flatMap((i) => removedPaths(i.args));
    const runtime = [
      nodeScript([...ENTRYPOINT, ...CMD]).script,
      ...[...roles.keys()].map((r) => `services/${r}/dist/main.js`),
      'packages/steps/dist/job-thread.js', // job handlers' worker threads
      'packages/storage/dist/migrations/001_init.sql', // every process migrates at start
    ];
    for (const file of runtime) check(`${file} removed by`, removed.filter((g) => globCovers(g, file)), []);
    expect(removed.some((g) => globCovers(g, 'packages/storage/src/migrate.ts'))).toBe(true); // the pruning does run
  });

  it('runs as a non-root user, with tini and tesseract installed, and a volume at the embedded data directory', () => {
    expect(finalOp('USER').at(-1)?.args).not.toMatch(/^(root|0)$/);
    expect(ENTRYPOINT[0]).toBe('/usr/bin/tini');
    const apt = finalOp('RUN').map((i) => i.args).find((a) => a.includes('apt-get install')) ?? '';
    expect(apt.split(/\s+/)).toEqual(expect.arrayContaining(['tesseract-ocr', 'tini']));
    expect(finalOp('VOLUME').map((i) => i.args)).toContain(imageEnv.QUIRE_DATA_DIR);
  });
});

describe('probes and ports', () => {
  /** The real gateway app over stand-in stores; `storesUp` false makes every store's ping fail; `draining`: a graceful stop has begun. */
  async function gateway(storesUp: boolean, draining = false): Promise<{ url: string; server: Server }> {
    const ping = async () => { if (!storesUp) throw new Error('down'); };
    const deps = {
      config: loadConfig({ QUIRE_LOG_LEVEL: 'silent' }), log: createLogger('silent'), metrics: new Metrics(async () => ({})),
      store: { ping }, blobs: { ping }, queue: { ping, depth: async () => ({}) }, jobs: {}, limiter: {},
      fetchUrl: async () => { throw new Error('not used'); }, lifecycle: { draining },
    } as unknown as GatewayDeps;
    const server = await listenGateway(createGatewayApp(deps), 0, '127.0.0.1');
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }

  const composeChecks = quireServices.filter(([, s]) => s.healthcheck).map(([name, s]) => {
    const m = /http:\/\/127\.0\.0\.1:(\d+)(\/[a-z]+)/.exec(s.healthcheck!.test.join(' '));
    if (!m) throw new Error(`compose ${name}: healthcheck without a URL`);
    return { name, port: Number(m[1]), path: m[2], env: composeEnv(s), ports: s.ports ?? [] };
  });
  const k8sProbes = deployments.flatMap((d) => (['startupProbe', 'readinessProbe', 'livenessProbe'] as const)
    .filter((p) => container(d)[p])
    .map((p) => ({ name: d.metadata.name, probe: p, ...(container(d)[p].httpGet as { path: string; port: string | number }) })));

  it('ask for routes the gateway serves: readiness fails with a store or while draining, liveness does not', async () => {
    const up = await gateway(true);
    const down = await gateway(false);
    const draining = await gateway(true, true);
    try {
      expect(composeChecks.length).toBeGreaterThan(0);
      expect(k8sProbes.map((p) => p.probe)).toEqual(expect.arrayContaining(['readinessProbe', 'livenessProbe']));
      for (const { name, path } of composeChecks) check(`compose ${name} healthcheck ${path}`, (await fetch(up.url + path)).status, 200);
      for (const { name, probe, path } of k8sProbes) {
        check(`${name} ${probe} ${path}`, (await fetch(up.url + path)).status, 200);
        // a liveness probe that failed with Postgres would restart every gateway during an outage
        check(`${name} ${probe} ${path}, stores down`, (await fetch(down.url + path)).status, probe === 'readinessProbe' ? 503 : 200);
        // a stopping gateway leaves the Service's endpoints, but is not restarted for it
        check(`${name} ${probe} ${path}, draining`, (await fetch(draining.url + path)).status, probe === 'readinessProbe' ? 503 : 200);
      }
      expect((await fetch(up.url + '/livez')).status).not.toBe(200); // an unknown path does not pass: the check can fail
    } finally {
      up.server.close();
      down.server.close();
      draining.server.close();
    }
  });

  it('agree on the port: QUIRE_PORT, the container port, the healthchecks, the Service and EXPOSE', () => {
    for (const { name, port, env, ports } of composeChecks) {
      const listens = loadConfig(env).port;
      check(`compose ${name} ports`, { port, published: ports.map((p) => Number(p.split(':').at(-1))) }, { port: listens, published: ports.length ? [listens] : [] });
    }
    const port = loadConfig(k8sEnv()).port;
    const gatewayDeployment = deployments.find((d) => container(d).ports)!;
    const named = Object.fromEntries(container(gatewayDeployment).ports.map((p: any) => [p.name, p.containerPort]));
    for (const p of k8sProbes) check(`${p.name} ${p.probe} port`, typeof p.port === 'number' ? p.port : named[p.port], port);
    const service = k8s.find((d) => d.kind === 'Service')!;
    expect(service.spec.selector).toEqual(gatewayDeployment.spec.selector.matchLabels);
    for (const sp of service.spec.ports) expect(typeof sp.targetPort === 'number' ? sp.targetPort : named[sp.targetPort]).toBe(port);
    expect(finalOp('EXPOSE').map((i) => Number(i.args))).toEqual([loadConfig(imageEnv).port]);
    expect(deployments.filter((d) => container(d).ports).length).toBe(1); // only the gateway listens
  });
});
