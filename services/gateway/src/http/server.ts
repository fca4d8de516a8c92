import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * The gateway's HTTP server. Express gives every request its own request/response prototypes by calling
 * Object.setPrototypeOf on node's objects; changing the prototype of a live object sends V8 (and node's
 * http code handling that object) down slow paths: about 150-200 µs of CPU per request on the benchmark
 * machine, more than all of Quire's own per-request work. Here node constructs the objects with
 * express's prototypes in the first place (http.createServer's IncomingMessage/ServerResponse options),
 * so express's call finds the prototype already in place and changes nothing. Same prototype chain,
 * same behaviour.
 *
 * The constructors run node's own as plain functions (`.call(this, …)`), which keeps V8's fast object
 * layout; Reflect.construct with a foreign new.target measured as slow as the prototype swap. Should a
 * future node turn these constructors into classes, the plain server is used instead.
 */
export function createGatewayServer(app: Express): http.Server {
  return withIdleKeepAlive(buildServer(app));
}

/**
 * Idle keep-alive connections stay open 65 s (node's default is 5 s). A client or load balancer that
 * reuses a pooled connection just as the server closes it gets "other side closed" on a request the
 * gateway never saw; keeping the server's idle timeout above the usual 60 s of proxies and client pools
 * makes the client side close first.
 */
function withIdleKeepAlive(server: http.Server): http.Server {
  server.keepAliveTimeout = 65_000;
  return server;
}

function buildServer(app: Express): http.Server {
  if (!callableConstructor(http.IncomingMessage) || !callableConstructor(http.ServerResponse)) return http.createServer(app);
  const IncomingMessage = http.IncomingMessage as unknown as (this: unknown, socket: Socket) => void;
  const ServerResponse = http.ServerResponse as unknown as (this: unknown, req: http.IncomingMessage, options?: unknown) => void;
  function GatewayRequest(this: unknown, socket: Socket) {
    IncomingMessage.call(this, socket);
  }
  GatewayRequest.prototype = app.request;
  function GatewayResponse(this: unknown, req: http.IncomingMessage, options?: unknown) {
    ServerResponse.call(this, req, options);
  }
  GatewayResponse.prototype = app.response;
  return http.createServer({
    IncomingMessage: GatewayRequest as unknown as typeof http.IncomingMessage,
    ServerResponse: GatewayResponse as unknown as typeof http.ServerResponse,
  }, app);
}

/** A constructor that may be called as a function (not an ES class). */
const callableConstructor = (fn: unknown) => typeof fn === 'function' && !Function.prototype.toString.call(fn).startsWith('class');

/** Listens on port/host (0 = any free port); resolves once listening, rejects on a listen error. */
export function listenGateway(app: Express, port: number, host: string): Promise<http.Server> {
  const server = createGatewayServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
