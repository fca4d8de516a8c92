import type { MetadataStore } from '@quire/storage';
import { billingPeriod } from './job-service.js';

export interface PlanInfo {
  tier: string;
  total_credits_used: number;
  pages_used: number;
  note?: string;
}

/** An organization's billing for the current period as the ledger has it now (before a job's own charge). */
export interface BillingSnapshot {
  tier: string;
  credits: number;
  pages: number;
  pageLimit: number | null;
  /** The period's end, YYYY-MM-DD. */
  periodEnd: string;
}

export async function billingSnapshot(store: MetadataStore, orgId: string): Promise<BillingSnapshot> {
  const org = await store.orgs.get(orgId);
  const { start, end } = billingPeriod(new Date());
  const t = await store.ledger.totals(orgId, start, end);
  return { tier: org?.tier ?? 'free', credits: t.credits, pages: t.pages, pageLimit: org?.page_limit ?? null, periodEnd: end.toISOString().slice(0, 10) };
}

/**
 * The spec's plan_info: the cumulative billing snapshot for the current period AFTER a request whose
 * own charge (`pendingCredits`/`pendingPages`) is not in `billing` yet. Pure, so a job thread can write
 * it into the result it stores from a snapshot taken before the job ran.
 */
export function planInfoAfter(billing: BillingSnapshot, pendingCredits = 0, pendingPages = 0): PlanInfo {
  const pages = billing.pages + pendingPages;
  const info: PlanInfo = { tier: billing.tier, total_credits_used: round(billing.credits + pendingCredits), pages_used: pages };
  if (billing.pageLimit != null) info.note = `${Math.max(0, billing.pageLimit - pages)} of ${billing.pageLimit} pages left until ${billing.periodEnd}`;
  else info.note = `billing period ends ${billing.periodEnd}`;
  return info;
}

/** plan_info now, with `pendingCredits`/`pendingPages` counted (GET /usage: none pending). */
export async function planInfo(store: MetadataStore, orgId: string, pendingCredits = 0, pendingPages = 0): Promise<PlanInfo> {
  return planInfoAfter(await billingSnapshot(store, orgId), pendingCredits, pendingPages);
}

const round = (n: number) => Math.round(n * 1000) / 1000;
