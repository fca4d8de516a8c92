import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartRefusedError } from './start-refused.js';

/**
 * The gateway's port, bound before the embedded server opens anything else: a second `quire serve` on a
 * port in use is refused before it touches the data directory, and nothing is opened only to be closed
 * again. Until the gateway takes the listening socket over (handOver), requests are answered 503
 * GENERAL_002 with Retry-After, so a client or probe arriving during the start sees "not yet" rather
 * than a refused connection.
 */
export interface PortReservation {
  readonly port: number;
  /** The gateway server starts accepting on the reserved socket; the reservation answers nothing more. */
  handOver(server: http.Server): Promise<void>;
  close(): Promise<void>;
}

const STARTING = JSON.stringify({ error: { code: 'GENERAL_002', message: 'Quire is starting; retry in a moment' } });

export async function reservePort(port: number, host: string): Promise<PortReservation> {
  const holder = http.createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' }).end(STARTING);
  });
  await new Promise<void>((resolve, reject) => {
    holder.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' || e.code === 'EACCES' ? new PortUnavailableError(port, host, e.code) : e));
    holder.listen(port, host, () => resolve());
  });
  let handedOver = false;
  return {
    port: (holder.address() as AddressInfo).port,
    handOver: (server) => new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // listen(handle): the gateway server adopts the bound socket; the holder keeps no claim on it.
      server.listen(holder, () => {
        server.off('error', reject);
        handedOver = true;
        resolve();
      });
    }),
    close: () => (handedOver ? Promise.resolve() : new Promise<void>((resolve) => holder.close(() => resolve()))),
  };
}

export class PortUnavailableError extends StartRefusedError {
  constructor(port: number, host: string, code: string) {
    super(code === 'EADDRINUSE'
      ? `Port ${port} on ${host} is already in use (another Quire server or another program). Stop it, or set QUIRE_PORT to a free port.`
      : `Not allowed to listen on port ${port} on ${host} (${code}). Set QUIRE_PORT to a port above 1023, or grant the permission.`);
  }
}
