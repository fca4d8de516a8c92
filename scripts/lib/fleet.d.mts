import type { ChildProcess } from 'node:child_process';

export const ROOT: string;
export function fleetEnvAvailable(): boolean;
export function fleetSkipMessage(what: string): string;
export function ensureBuilt(): Promise<boolean>;
export function createDatabase(base: string, prefix?: string): Promise<{ url: string; drop(): Promise<void> }>;
export function deleteRedisKeys(url: string, prefix: string): Promise<void>;
export function startS3rver(): Promise<{ endpoint: string; stop(): Promise<void> }>;

export interface ServiceExit { code: number | null; signal: NodeJS.Signals | null }
export interface FleetService {
  name: string;
  child: ChildProcess;
  pid: number;
  ready: Promise<{ ready: true; port?: number }>;
  exited: Promise<ServiceExit>;
  output(): string;
  stop(graceMs?: number): Promise<ServiceExit & { killed: boolean }>;
}
export function spawnService(name: string, script: string, env: Record<string, string>, opts?: { execArgv?: string[]; args?: string[] }): FleetService;
export function admin(env: Record<string, string>, ...args: string[]): any;
export function processMemory(pid: number): { rss: number; peakRss: number } | undefined;

export interface Fleet {
  url: string;
  key: string;
  keyId: string;
  org: { id: string; name: string };
  env: Record<string, string>;
  prefix: string;
  gateway: FleetService;
  workers: FleetService[];
  databaseUrl: string;
  s3Endpoint: string;
  api(pathname: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  stopServices(): Promise<(ServiceExit & { name: string; killed: boolean })[]>;
  close(): Promise<void>;
}
export interface FleetOptions {
  databaseUrl?: string;
  redisUrl?: string;
  env?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  workerEnv?: Record<string, string>;
  gatewayExecArgv?: string[];
  workers?: string[];
  build?: boolean;
}
export function startFleet(opts?: FleetOptions): Promise<Fleet>;
export function sampleMemory(pid: number, intervalMs?: number): { stop(): { before: number; max: number; after: number; growth: number } };
