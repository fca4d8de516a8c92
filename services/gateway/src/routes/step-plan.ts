/** One step run, checked and quoted before any job exists: what jobs.submit needs besides org, key and kind. */
export interface StepPlan {
  request: Record<string, unknown>;
  input: Record<string, unknown>;
  quoteCredits: number;
  quotePages: number;
  parentId?: string;
}
