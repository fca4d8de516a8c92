import type { z } from 'zod';
import { QuireError } from '@quire/core';

/** Validates with a contracts schema; REQ_004 for missing required fields, REQ_002 for the rest, with the issues in details. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message, code: i.code }));
  const missing = r.error.issues.find((i) => i.code === 'invalid_type' && /received undefined/.test(i.message));
  if (missing) throw new QuireError('REQ_004', `Missing required parameter: ${missing.path.join('.')}`, { issues });
  const unknown = r.error.issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown) throw new QuireError('REQ_002', `Invalid request body: unknown field(s) ${(unknown as { keys?: string[] }).keys?.join(', ')}`, { issues });
  throw new QuireError('REQ_003', `Invalid parameter value: ${issues[0].path || 'body'}: ${issues[0].message}`, { issues });
}
