import type { MetadataStore } from '@quire/storage';
import { billingPeriod } from './job-service.js';

export interface PlanInfo {
  tier: string;
  total_credits_used: number;
  pages_used: number;
  note?: string;
}

/**
 * The spec's plan_info: the cumulative billing snapshot for the current period AFTER this request
 * (`pendingCredits`/`pendingPages` are the request's own charge, not yet in the ledger when called).
 */
export async function planInfo(store: MetadataStore, orgId: string, pendingCredits = 0, pendingPages = 0): Promise<PlanInfo> {
  const org = await store.orgs.get(orgId);
  const { start, end } = billingPeriod(new Date());
  const t = await store.ledger.totals(orgId, start, end);
  const pages = t.pages + pendingPages;
  const info: PlanInfo = { tier: org?.tier ?? 'free', total_credits_used: round(t.credits + pendingCredits), pages_used: pages };
  if (org?.page_limit != null) info.note = `${Math.max(0, org.page_limit - pages)} of ${org.page_limit} pages left until ${end.toISOString().slice(0, 10)}`;
  else info.note = `billing period ends ${end.toISOString().slice(0, 10)}`;
  return info;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
