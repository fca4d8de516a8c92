import { Router } from 'express';
import { UsageQuerySchema } from '@quire/contracts';
import { QuireError } from '@quire/core';
import { billingPeriod, planInfo } from '@quire/jobs';
import type { GatewayDeps } from '../deps.js';
import { parseOrThrow } from '../http/validate.js';

const DEFAULT_SPAN: Record<'day' | 'week' | 'month', number> = { day: 30, week: 7 * 12, month: 31 * 12 };

/** GET /usage: billing period status, key cap status, totals and a day/week/month timeline. */
export function usageRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.get('/usage', async (req, res) => {
    const q = parseOrThrow(UsageQuerySchema, req.query);
    const org = req.org!, key = req.apiKey!;
    const now = new Date();
    const to = q.to ? new Date(q.to) : now;
    const from = q.from ? new Date(q.from) : new Date(to.getTime() - DEFAULT_SPAN[q.granularity] * 86400_000);
    if (!(from < to)) throw new QuireError('REQ_003', 'Invalid parameter value: from must be before to');
    if ((to.getTime() - from.getTime()) / 86400_000 > 3660) throw new QuireError('REQ_003', 'Invalid parameter value: at most 10 years per request');
    const period = billingPeriod(now);
    const [inPeriod, all, buckets, info] = await Promise.all([
      deps.store.ledger.totals(org.id, period.start, period.end),
      deps.store.ledger.totals(org.id, from, to),
      deps.store.ledger.timeline(org.id, q.granularity, from, to),
      planInfo(deps.store, org.id),
    ]);
    const freshKey = (await deps.store.keys.get(key.id))!;
    res.json({
      billing_period: {
        start: period.start.toISOString(), end: period.end.toISOString(), credits_used: inPeriod.credits, pages_used: inPeriod.pages,
        page_limit: org.page_limit, pages_remaining: org.page_limit === null ? null : Math.max(0, org.page_limit - inPeriod.pages),
      },
      key: {
        credit_cap: freshKey.credit_cap, credits_used: freshKey.credits_used,
        credits_remaining: freshKey.credit_cap === null ? null : Math.max(0, freshKey.credit_cap - freshKey.credits_used - freshKey.credits_reserved),
      },
      totals: { documents: all.documents, pages: all.pages, credits: all.credits },
      timeline: { granularity: q.granularity, from: from.toISOString(), to: to.toISOString(), buckets },
      plan_info: info,
    });
  });
  return r;
}
