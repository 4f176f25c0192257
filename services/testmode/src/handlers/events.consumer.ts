// The durable consumer `testmode` of HANDOFF_EVENTS: the simulated provider hears the events of
// test requests (envelope `livemode: false`) and answers them as a human provider would, through
// the same operations. Live events are acknowledged untouched.
import { BusError, type Bus } from '@handoff/bus';
import {
  Dispute,
  type EventEnvelope,
  type EventType,
  Message,
  Milestone,
  PaymentRequest,
  SIMULATED_PROVIDER_ID,
  subjects,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { startEventConsumer } from '@handoff/runtime';
import { createSerializer, type Store } from '@handoff/store';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { acting, unlessRefused, type Acting } from './acting.ts';
import {
  answerAgentMessage,
  answerDispute,
  answerOffer,
  completeWhenPaid,
  reportFailedPayment,
  requestPayment,
  reviseWork,
  startWork,
} from './provider.ts';
import { leases, type Leases } from '../store/leases.ts';
import { scenarios, type Scenarios } from './scenarios.ts';
import { approvePaymentRequest, settlePayment } from './staff.ts';

export const TESTMODE_CONSUMER = 'testmode';

/** Test requests handled at once; one request's events are always handled one at a time. */
const CONCURRENCY = 8;

interface Reacting {
  a: Acting;
  scenarios: Scenarios;
  event: EventEnvelope;
  requestId: string;
}
type Reaction = (r: Reacting) => Promise<void>;

/** The event's object as `schema`, or undefined when it is not one (then nothing is done). */
const objectOf = <S extends z.ZodType>(schema: S, event: EventEnvelope): z.output<S> | undefined =>
  schema.safeParse(event.data.object).data;

const bySimulated = <T extends { provider_id: string }>(object: T | undefined): T | undefined =>
  object?.provider_id === SIMULATED_PROVIDER_ID ? object : undefined;

/** What each kind of event of a test request makes test mode do; kinds not listed, nothing. */
export const REACTIONS: Partial<Record<EventType, Reaction>> = {
  'request.created': async ({ scenarios: known, event }) => {
    known.learn(event.data.object);
  },
  'request.updated': async ({ a, scenarios: known, event, requestId }) => {
    const request = known.learn(event.data.object);
    if (!request) return;
    const scenario = await known.of(requestId);
    if (request.status === 'routed' && request.routing.provider_ids.includes(SIMULATED_PROVIDER_ID))
      await answerOffer(a, requestId, scenario);
    if (request.status === 'in_progress' && request.engaged_provider_id === SIMULATED_PROVIDER_ID)
      await startWork(a, requestId, scenario);
  },
  'message.created': async ({ a, scenarios: known, event, requestId }) => {
    if (objectOf(Message, event)?.author_role !== 'agent') return;
    await answerAgentMessage(a, requestId, await known.of(requestId));
  },
  'milestone.updated': async ({ a, scenarios: known, event, requestId }) => {
    const milestone = bySimulated(objectOf(Milestone, event));
    if (milestone?.status !== 'changes_requested') return;
    await reviseWork(a, milestone.id, await known.of(requestId));
  },
  'milestone.approved': async ({ a, event }) => {
    const milestone = bySimulated(objectOf(Milestone, event));
    if (milestone) await requestPayment(a, milestone);
  },
  'payment.requested': async ({ a, scenarios: known, event, requestId }) => {
    const paymentRequest = objectOf(PaymentRequest, event);
    if (!paymentRequest) return;
    await approvePaymentRequest(a, paymentRequest);
    await settlePayment(a, paymentRequest, await known.of(requestId));
  },
  'payment.completed': ({ a, requestId }) => completeWhenPaid(a, requestId),
  'payment.failed': ({ a, requestId }) => reportFailedPayment(a, requestId),
  'dispute.created': async ({ a, event }) => {
    const dispute = objectOf(Dispute, event);
    if (dispute) await answerDispute(a, dispute.id);
  },
  'dispute.updated': async ({ a, event, requestId }) => {
    const status = objectOf(Dispute, event)?.status;
    // A case closed: a job that waited on it may be completed now.
    if (status === 'resolved' || status === 'withdrawn') await completeWhenPaid(a, requestId);
  },
};

/** How long a replica may act on a request before another may take it over (it died). */
const LEASE_MS = 60_000;
/** How long an event waits for another replica's lease before it is handed back for later. */
const LEASE_WAIT_MS = 15_000;
const LEASE_POLL_MS = 100;

/**
 * Runs `task` holding the request's lease: one replica at a time acts on a request (in this
 * process the serializer already keeps its events one at a time).
 */
async function alone(lease: Leases, holder: string, requestId: string, task: () => Promise<void>) {
  const waitUntil = Date.now() + LEASE_WAIT_MS;
  while (!(await lease.take(requestId, holder, LEASE_MS))) {
    if (Date.now() > waitUntil) {
      throw new BusError('service_unavailable', 'another replica is acting on this request');
    }
    await sleep(LEASE_POLL_MS);
  }
  try {
    await task();
  } finally {
    await lease.release(requestId, holder);
  }
}

export function startTestModeConsumer(deps: {
  bus: Bus;
  store: Store;
  logger: Logger;
}): Promise<() => Promise<void>> {
  const a = acting(deps.bus.nc, deps.logger);
  const known = scenarios(a);
  const serialize = createSerializer();
  const lease = leases(deps.store);
  const holder = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  return startEventConsumer({
    bus: deps.bus,
    logger: deps.logger,
    name: TESTMODE_CONSUMER,
    subjects: Object.keys(REACTIONS).map(subjects.event),
    concurrency: CONCURRENCY,
    // Live events are no business of the simulated provider: passed over without a span, so no
    // live trace carries one from test mode.
    takes: (event) => event.livemode === false && REACTIONS[event.type] !== undefined,
    handle: async (event) => {
      const react = REACTIONS[event.type];
      if (!react) return;
      const requestId = event.data.request_id;
      // One request's reactions one after another: each reads the state the previous one left.
      await unlessRefused(
        serialize(requestId, () =>
          alone(lease, holder, requestId, () => react({ a, scenarios: known, event, requestId })),
        ),
        // A request intake does not know (its test data deleted): nothing is left to answer.
        'request_not_found',
      );
      deps.logger.debug({ event_id: event.id, type: event.type, request_id: requestId }, 'acted');
    },
  });
}
