import type { Router } from 'express';

/** What router 2.x exposes on a layer: its pattern as given, a matcher, and its route or sub-router. */
interface Layer {
  rawPath?: unknown;
  path?: string;
  /** false, or (router 2.3) the match with the part of the path it consumed; older versions set `path` instead. */
  match(path: string): boolean | { path?: string };
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

export interface MountedRoute { method: string; path: string }

/**
 * The routes the gateway's modules mount, read from the routers themselves (so it cannot disagree with
 * what express dispatches): for answering 405 with an `Allow` header when a path exists under other
 * methods, and for checking that every mounted route is in the OpenAPI document.
 */
export class RouteTable {
  constructor(private readonly routers: readonly Router[]) {}

  /** Every method + pattern (`/job/:jobId`), sub-routers' routes under their mount path. */
  routes(): MountedRoute[] {
    const out: MountedRoute[] = [];
    const walk = (stack: Layer[], prefix: string) => {
      for (const layer of stack) {
        if (layer.route) {
          for (const pattern of patterns(layer.route.path)) {
            for (const method of Object.keys(layer.route.methods)) if (method !== '_all') out.push({ method, path: prefix + pattern });
          }
        } else if (layer.handle?.stack) {
          for (const pattern of patterns(layer.rawPath)) walk(layer.handle.stack, prefix + (pattern === '/' ? '' : pattern));
        }
      }
    };
    for (const r of this.routers) walk(r.stack as unknown as Layer[], '');
    return out;
  }

  /** The methods (upper case, HEAD with GET) of the routes whose pattern matches the path; empty for an unknown path. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    const walk = (stack: Layer[], p: string) => {
      for (const layer of stack) {
        if (layer.route) {
          if (layer.match(p)) for (const m of Object.keys(layer.route.methods)) if (m !== '_all') methods.add(m.toUpperCase());
        } else if (layer.handle?.stack) {
          const m = layer.match(p);
          if (!m) continue;
          const consumed = (typeof m === 'object' ? m.path : undefined) ?? layer.path ?? '';
          const rest = p.slice(consumed.length);
          walk(layer.handle.stack, rest.startsWith('/') ? rest : `/${rest}`);
        }
      }
    };
    for (const r of this.routers) walk(r.stack as unknown as Layer[], path);
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}

const patterns = (p: unknown): string[] => (Array.isArray(p) ? p.flat(Infinity) : [p]).filter((x): x is string => typeof x === 'string');
