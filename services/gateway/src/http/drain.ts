import type http from 'node:http';
import type { Config } from '@quire/runtime';
import type { GatewayLifecycle } from '../deps.js';

/**
 * Added to QUIRE_SYNC_WAIT_SECONDS for the drain bound: a synchronous request spends the sync wait on
 * its job, plus the time to receive and store its upload before and to send its answer after.
 */
export const DRAIN_MARGIN_MS = 15_000;

/**
 * How long a stopping gateway lets requests in flight finish before it closes their connections. The
 * longest request the gateway serves by design is a synchronous one, which waits up to
 * QUIRE_SYNC_WAIT_SECONDS for its job; a shorter bound would cut exactly those. The deployment files'
 * grace periods are checked against this (tests/deploy).
 */
export const drainTimeoutMs = (config: Pick<Config, 'syncWaitMs'>): number => config.syncWaitMs + DRAIN_MARGIN_MS;

export interface DrainResult {
  /** The bound passed with connections still open; they were closed. */
  timedOut: boolean;
  /** Requests still in flight when the bound passed, whose connections were closed (0 unless timedOut). */
  cut: number;
}

/**
 * Graceful stop of the gateway's HTTP server. `track` must be called before the server takes requests;
 * `drain` then:
 * - sets `lifecycle.draining`, so /readyz answers 503 to whoever still reaches it (a load balancer's
 *   probe on a kept-alive connection) while /healthz stays 200 (the process is fine, just leaving);
 * - stops listening, so new connections are refused;
 * - lets requests in flight finish, each answered with `Connection: close` (when its headers are not
 *   out yet) so a keep-alive client opens its next connection elsewhere; idle kept-alive connections
 *   are closed at once and the others as soon as their response ends (node keeps a kept-alive
 *   connection open for keepAliveTimeout, 65 s here, after `server.close()` otherwise);
 * - after `timeoutMs` closes whatever is still open.
 * Resolves once every connection is closed.
 */
export class ServerDrain {
  private readonly inFlight = new Set<http.ServerResponse>();
  private draining?: Promise<DrainResult>;

  constructor(private readonly server: http.Server, private readonly lifecycle: GatewayLifecycle) {
    // One listener function for every response (the emitter is `this`): no closure per request on the
    // gateway's hot path.
    const inFlight = this.inFlight;
    const closeIdle = () => server.closeIdleConnections();
    function ended(this: http.ServerResponse) {
      inFlight.delete(this);
      // A response whose headers went out before the drain kept its connection alive: close it now
      // that it is idle (on the next turn, once node has marked the connection idle).
      if (lifecycle.draining) setImmediate(closeIdle);
    }
    // Before the app's own listener, so a response the app sends synchronously (/healthz) still gets the header.
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
      inFlight.add(res);
      if (lifecycle.draining) res.setHeader('Connection', 'close');
      res.on('close', ended); // emitted once per response; `once` would wrap it in a closure
    });
  }

  /** Requests being served now. */
  get active(): number {
    return this.inFlight.size;
  }

  drain(timeoutMs: number): Promise<DrainResult> {
    this.draining ??= new Promise<DrainResult>((resolve) => {
      this.lifecycle.draining = true;
      for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      let timedOut = false;
      let cut = 0;
      const timer = setTimeout(() => {
        timedOut = true;
        cut = this.inFlight.size;
        this.server.closeAllConnections();
      }, timeoutMs);
      // close(): no new connections, idle ones closed now; the callback runs once every connection has
      // ended (with an error argument when the server was not listening: nothing to wait for then).
      this.server.close(() => {
        clearTimeout(timer);
        resolve({ timedOut, cut });
      });
    });
    return this.draining;
  }
}
