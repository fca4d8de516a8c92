import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout; every request log line carries its request id. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { service: 'quire', ...bindings }, timestamp: pino.stdTimeFunctions.isoTime });
}
