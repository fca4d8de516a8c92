import express, { Router, type Request } from 'express';
import { z } from 'zod';
import { QuireError, isQuireError } from '@quire/core';
import { checkUrlTarget } from '@quire/runtime';
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, generateSecret } from '@quire/webhooks';
import type { GatewayDeps } from '../deps.js';
import { baseUrl } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';
import { PORTAL_HTML } from './webhook-portal-page.js';

/** POST /webhook (x-api-key): a time-limited link to the organization's webhook portal. */
export function webhookRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.post('/webhook', async (req, res) => {
    const ttl = deps.config.webhooks.portalTtlSeconds;
    const token = await deps.store.webhooks.createPortalSession(req.org!.id, ttl);
    res.json({ link: `${baseUrl(req, deps)}/webhook-portal?token=${token}`, expires_in: ttl });
  });
  return r;
}

const EventTypes = z.array(z.enum([...WEBHOOK_EVENT_TYPES])).nullable().optional();
const Headers = z.record(z.string().regex(/^[A-Za-z0-9-]{1,64}$/), z.string().max(1024)).optional()
  .refine((h) => !h || Object.keys(h).every((k) => !/^(webhook-|content-type$|content-length$|host$)/i.test(k)), 'webhook-*, content-type, content-length and host are set by Quire');
const HttpUrl = z.string().url().max(2048).refine((u) => /^https?:\/\//i.test(u), 'http(s) URLs only');
export const NewEndpoint = z.object({ url: HttpUrl, description: z.string().max(500).optional(), event_types: EventTypes, headers: Headers }).strict();
export const PatchEndpoint = z.object({ url: HttpUrl.optional(), description: z.string().max(500).optional(), event_types: EventTypes, headers: Headers, disabled: z.boolean().optional() }).strict();

/** A webhook endpoint as the portal API shows it (OpenAPI). */
export const EndpointView = z.object({
  id: z.string(), url: z.string(), description: z.string(), secret: z.string().describe('Signing secret (whsec_…) for the webhook-signature header'),
  event_types: z.array(z.string()).nullable().describe('null: every event type'), headers: z.record(z.string(), z.string()), disabled: z.boolean(),
  created_at: z.string(), updated_at: z.string(),
});
/** One delivery with every attempt (OpenAPI). */
export const DeliveryView = z.object({
  id: z.number().int(), msg_id: z.string(), event_type: z.string(), status: z.string(), attempts: z.number().int(),
  next_attempt_at: z.string().nullable(), last_status_code: z.number().int().nullable(), last_error: z.string().nullable(), created_at: z.string(),
  payload: z.record(z.string(), z.unknown()),
  attempt_log: z.array(z.object({ at: z.string(), status_code: z.number().int().nullable(), error: z.string().nullable(), duration_ms: z.number().nullable() })),
});

/**
 * Deliveries only go to public addresses (unless allow-listed): an endpoint that could never receive one is
 * refused when it is saved, with the reason, rather than failing every delivery later.
 */
async function refusePrivateUrl(deps: GatewayDeps, url: string): Promise<void> {
  const { allowPrivate, allowHosts, timeoutMs } = deps.config.webhooks;
  try {
    await checkUrlTarget(url, { allowPrivate, allowHosts, timeoutMs });
  } catch (e) {
    if (!isQuireError(e)) throw e;
    throw new QuireError('REQ_003', `Webhook URL refused: ${e.message.replace(/^URL refused: /, '')}`, { field: 'url', ...e.details });
  }
}

const view = (e: { id: string; url: string; description: string; secret: string; event_types: string[] | null; headers: Record<string, string>; disabled: boolean; created_at: Date; updated_at: Date }) => ({
  id: e.id, url: e.url, description: e.description, secret: e.secret, event_types: e.event_types, headers: e.headers, disabled: e.disabled,
  created_at: new Date(e.created_at).toISOString(), updated_at: new Date(e.updated_at).toISOString(),
});

/**
 * The webhook portal: an HTML page and a small JSON API, authenticated by the portal token from
 * POST /webhook (`Authorization: Bearer <token>` or `?token=`), not by an API key. Registered before the
 * key check. Endpoints (several per organization, custom headers, event filters), test events and the
 * delivery log with every attempt.
 */
export function webhookPortalRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.get('/webhook-portal', (_req, res) => {
    res.setHeader('content-security-policy', "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'");
    res.type('html').send(PORTAL_HTML);
  });
  const api = Router();
  api.use(express.json({ limit: '64kb' }));
  api.use(async (req, _res, next) => {
    const auth = req.header('authorization');
    const token = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : typeof req.query.token === 'string' ? req.query.token : undefined;
    if (!token) return next(new QuireError('AUTH_001', 'Portal token required: use the link from POST /webhook'));
    const orgId = await deps.store.webhooks.resolvePortalSession(token);
    if (!orgId) return next(new QuireError('AUTH_002', 'Invalid or expired portal link: request a new one with POST /webhook'));
    (req as Request & { portalOrg: string }).portalOrg = orgId;
    next();
  });
  const org = (req: Request) => (req as Request & { portalOrg: string }).portalOrg;
  const endpointOr404 = async (req: Request) => {
    const e = await deps.store.webhooks.getEndpoint(String(req.params.id), org(req));
    // 404 like any other resource of another organization: whether the id exists elsewhere is not told.
    if (!e) throw new QuireError('STORAGE_002', 'No such webhook endpoint', { endpoint_id: req.params.id });
    return e;
  };
  api.get('/event-types', (_req, res) => { res.json({ event_types: [...WEBHOOK_EVENT_TYPES] }); });
  api.get('/endpoints', async (req, res) => { res.json({ endpoints: (await deps.store.webhooks.listEndpoints(org(req))).map(view) }); });
  api.post('/endpoints', async (req, res) => {
    const b = parseOrThrow(NewEndpoint, req.body ?? {});
    await refusePrivateUrl(deps, b.url);
    const e = await deps.store.webhooks.createEndpoint({ org_id: org(req), url: b.url, description: b.description, event_types: b.event_types ?? null, headers: b.headers, secret: generateSecret() });
    res.status(201).json(view(e));
  });
  api.get('/endpoints/:id', async (req, res) => { res.json(view(await endpointOr404(req))); });
  api.patch('/endpoints/:id', async (req, res) => {
    await endpointOr404(req);
    const b = parseOrThrow(PatchEndpoint, req.body ?? {});
    if (b.url !== undefined) await refusePrivateUrl(deps, b.url);
    res.json(view((await deps.store.webhooks.updateEndpoint(String(req.params.id), org(req), b))!));
  });
  api.delete('/endpoints/:id', async (req, res) => {
    await endpointOr404(req);
    await deps.store.webhooks.deleteEndpoint(String(req.params.id), org(req));
    res.json({ deleted: req.params.id });
  });
  api.post('/endpoints/:id/test', async (req, res) => {
    const e = await endpointOr404(req);
    const d = await deps.store.webhooks.createTestDelivery(e, TEST_EVENT_TYPE, {
      type: TEST_EVENT_TYPE, timestamp: new Date().toISOString(), data: { message: 'Test event from the Quire webhook portal', endpoint_id: e.id },
    });
    res.status(202).json({ delivery_id: d.id, msg_id: d.msg_id, status: d.status });
  });
  api.get('/endpoints/:id/deliveries', async (req, res) => {
    await endpointOr404(req);
    const deliveries = await deps.store.webhooks.listDeliveries(String(req.params.id), org(req));
    res.json({
      deliveries: await Promise.all(deliveries.map(async (d) => ({
        id: d.id, msg_id: d.msg_id, event_type: d.event_type, status: d.status, attempts: d.attempts,
        next_attempt_at: d.status === 'pending' ? new Date(d.next_attempt_at).toISOString() : null,
        last_status_code: d.last_status_code, last_error: d.last_error, created_at: new Date(d.created_at).toISOString(), payload: d.payload,
        attempt_log: (await deps.store.webhooks.listAttempts(d.id)).map((a) => ({
          at: new Date(a.attempted_at).toISOString(), status_code: a.status_code, error: a.error, duration_ms: a.duration_ms,
        })),
      }))),
    });
  });
  r.use('/webhook-portal/api', api);
  return r;
}
