import type { JobInput, JobKind, JobOptions } from '@quire/queue';

/** One step run of kind K, checked and quoted before any job exists: what jobs.submit needs besides org, key, kind and async. */
export interface StepPlan<K extends JobKind> {
  request: JobOptions<K>;
  input: JobInput<K>;
  quoteCredits: number;
  quotePages: number;
  parentId?: string;
}
