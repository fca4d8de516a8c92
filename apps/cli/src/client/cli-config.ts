import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError, EXIT } from './exit-codes.js';

export interface ConnectionFlags { url?: string; apiKey?: string; config?: string }
export interface Connection { url: string; apiKey: string; source: string }

export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** ~/.config/quire/config.json (XDG_CONFIG_HOME honoured), or QUIRE_CONFIG. */
export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.QUIRE_CONFIG) return env.QUIRE_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'quire', 'config.json');
}

/**
 * Where to send requests and with which key: flags, then QUIRE_URL / QUIRE_API_KEY, then the config file
 * ({"url": …, "api_key": …}). A config file named by --config must exist; the default one may be absent.
 */
export function resolveConnection(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const file = flags.config ?? defaultConfigPath(env);
  const fromFile = readConfigFile(file, flags.config !== undefined || env.QUIRE_CONFIG !== undefined);
  const url = flags.url ?? nonEmpty(env.QUIRE_URL) ?? fromFile.url ?? DEFAULT_URL;
  const apiKey = flags.apiKey ?? nonEmpty(env.QUIRE_API_KEY) ?? fromFile.api_key;
  try { new URL(url); } catch { throw new CliError(`Invalid service URL: ${url}`, EXIT.AUTH_CONFIG); }
  if (!apiKey) {
    throw new CliError(`No API key: set QUIRE_API_KEY, pass --api-key, or put "api_key" in ${file} (keys: quire admin key create <org-id>)`, EXIT.AUTH_CONFIG);
  }
  return { url, apiKey, source: flags.apiKey ? '--api-key' : nonEmpty(env.QUIRE_API_KEY) ? 'QUIRE_API_KEY' : file };
}

function readConfigFile(file: string, required: boolean): { url?: string; api_key?: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (!required && (e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read config file ${file}: ${(e as Error).message}`, EXIT.AUTH_CONFIG);
  }
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch (e) { throw new CliError(`Config file ${file} is not JSON: ${(e as Error).message}`, EXIT.AUTH_CONFIG); }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CliError(`Config file ${file} must hold an object like {"url": "…", "api_key": "…"}`, EXIT.AUTH_CONFIG);
  const { url, api_key: apiKey } = parsed as Record<string, unknown>;
  for (const [k, v] of [['url', url], ['api_key', apiKey]] as const) {
    if (v !== undefined && typeof v !== 'string') throw new CliError(`Config file ${file}: "${k}" must be a string`, EXIT.AUTH_CONFIG);
  }
  return { url: url as string | undefined, api_key: apiKey as string | undefined };
}

const nonEmpty = (v: string | undefined) => (v && v.trim() !== '' ? v : undefined);
