import type { WebhookEndpoint } from './types.js';

/**
 * Retry schedule (seconds after the previous attempt), Svix's: the first attempt at once, then 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — 8 attempts over about a day. ±10 % jitter.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

/** Delay before attempt number `attemptsMade + 1`, or undefined when the schedule is exhausted. */
export function nextAttemptDelayMs(attemptsMade: number, schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_SECONDS, random: () => number = Math.random): number | undefined {
  if (attemptsMade >= schedule.length) return undefined;
  const base = schedule[attemptsMade] * 1000;
  return Math.max(0, Math.round(base * (0.9 + 0.2 * random())));
}

/** Whether an endpoint receives an event type (test events always go to the endpoint they target). */
export function endpointWants(endpoint: Pick<WebhookEndpoint, 'event_types' | 'disabled'>, type: string): boolean {
  if (endpoint.disabled) return false;
  return endpoint.event_types === null || endpoint.event_types.length === 0 || endpoint.event_types.includes(type);
}

/** The delivered body: the outbox payload as the spec shapes it ({type, timestamp, data}). */
export function deliveryBody(payload: Record<string, unknown>): string {
  return JSON.stringify(payload);
}
