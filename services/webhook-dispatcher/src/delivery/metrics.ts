// The dispatcher's metrics: attempts by outcome and how long they took, deliveries given up, and
// endpoints disabled. Every label comes from a set declared here, never from an endpoint, an
// integration or an answer's text; attribute sets are made once, so recording allocates nothing.
import { durationHistogram, lazyCounter, type Attributes } from '@handoff/observability';
import type { SendResult } from '../adapters/sender.ts';

/**
 * How an attempt ended:
 * - `delivered`: a 2xx answer;
 * - `http_error`: any other answer (3xx: redirects are not followed, 410 included);
 * - `timeout`: no answer within the attempt's deadline;
 * - `network_error`: no answer for another reason (refused, reset, DNS);
 * - `refused_url`: the target policy refused the URL or its address, and nothing was sent;
 * - `aborted`: the dispatcher stopped while it was under way.
 */
export const ATTEMPT_OUTCOMES = [
  'delivered',
  'http_error',
  'timeout',
  'network_error',
  'refused_url',
  'aborted',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** The answer's status class; `_OTHER` for a status outside 1xx–5xx. */
export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx', '_OTHER'] as const;

/** Why a delivery was given up: its last retry failed, or the endpoint answered 410. */
export const PARK_REASONS = ['exhausted', 'gone'] as const;
export type ParkReason = (typeof PARK_REASONS)[number];
/** Why an endpoint was disabled by the dispatcher (staff and integrations disable by the API). */
export const DISABLE_REASONS = ['gone', 'failing'] as const;
export type DisableReason = (typeof DISABLE_REASONS)[number];

/** The outcome of a sent attempt ({@link ATTEMPT_OUTCOMES}). */
export function attemptOutcome(
  send: Pick<SendResult, 'outcome' | 'statusCode' | 'error'>,
): AttemptOutcome {
  if (send.outcome === 'success') return 'delivered';
  if (send.outcome === 'refused') return 'refused_url';
  if (send.statusCode !== null) return 'http_error';
  if (send.error === 'timeout') return 'timeout';
  if (send.error === 'aborted') return 'aborted';
  return 'network_error';
}

function statusClassIndex(statusCode: number | null): number {
  if (statusCode === null) return -1;
  const hundreds = Math.floor(statusCode / 100);
  return hundreds >= 1 && hundreds <= 5 ? hundreds - 1 : STATUS_CLASSES.length - 1;
}

/** Per outcome: its attributes without a status, then one set per status class. */
const attemptAttributes = new Map<AttemptOutcome, { none: Attributes; byClass: Attributes[] }>(
  ATTEMPT_OUTCOMES.map((outcome) => [
    outcome,
    {
      none: { outcome },
      byClass: STATUS_CLASSES.map((statusClass) => ({
        outcome,
        'http.response.status_code': statusClass,
      })),
    },
  ]),
);

const attemptDuration = durationHistogram(
  'handoff.webhook.attempt.duration',
  'Webhook attempts, from the first byte sent (or the target check) to the answer or the failure.',
);

const attempts = lazyCounter('handoff.webhook.attempts', 'Webhook attempts made, by outcome.');
const parked = lazyCounter(
  'handoff.webhook.deliveries.parked',
  'Webhook deliveries given up (failed for good): the retry schedule ran out, or the endpoint is gone.',
);
const disabled = lazyCounter(
  'handoff.webhook.endpoints.disabled',
  'Webhook endpoints the dispatcher disabled: gone (410), or failing for too long.',
);

const parkAttributes: Record<ParkReason, Attributes> = {
  exhausted: { reason: 'exhausted' },
  gone: { reason: 'gone' },
};
const disableAttributes: Record<DisableReason, Attributes> = {
  gone: { reason: 'gone' },
  failing: { reason: 'failing' },
};

/** Counts and times an attempt that went out (or was refused before it could). */
export function attemptMade(send: SendResult): void {
  const sets = attemptAttributes.get(attemptOutcome(send));
  if (sets === undefined) return;
  const index = statusClassIndex(send.statusCode);
  const attributes = sets.byClass[index] ?? sets.none;
  attempts().add(1, attributes);
  attemptDuration().record(send.durationMs / 1_000, attributes);
}

export const deliveryParked = (reason: ParkReason): void => parked().add(1, parkAttributes[reason]);

/** The label sets an attempt can have: 2xx only when delivered, an answer's class or none. */
function reachableAttemptSets(): Attributes[] {
  return [...attemptAttributes].flatMap(([outcome, { none, byClass }]) => {
    if (outcome === 'delivered')
      return byClass.filter((set) => set['http.response.status_code'] === '2xx');
    if (outcome === 'http_error')
      return byClass.filter((set) => set['http.response.status_code'] !== '2xx');
    return [none];
  });
}

/**
 * Makes every series of the dispatcher's counters exist at 0 from the start, so that a scrape
 * shows them before the first attempt, park or disable, and `rate()`/`increase()` see the first
 * one (a series that appears at 1 has no increase). Called once the meter provider is named.
 */
export function countFromZero(): void {
  for (const attributes of reachableAttemptSets()) attempts().add(0, attributes);
  for (const reason of PARK_REASONS) parked().add(0, parkAttributes[reason]);
  for (const reason of DISABLE_REASONS) disabled().add(0, disableAttributes[reason]);
}

export const endpointDisabled = (reason: DisableReason): void =>
  disabled().add(1, disableAttributes[reason]);
