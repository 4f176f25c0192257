// The simulated provider's acts, each through the operation the gateway's provider routes call
// for a human provider. Every act reads the state first and does only what is still to do, so an
// event that comes again (or another event of the same request) never acts twice.
import {
  deliverableOps,
  disputeOps,
  isRequestClosed,
  jobOps,
  type Milestone,
  messageOps,
  milestoneOps,
  paymentOps,
  paymentRecordOps,
  proposalOps,
  providerOps,
  routingOps,
  SIMULATED_PROVIDER_ID,
  type TestScenario,
} from '@handoff/contracts';
import {
  answersOffer,
  asksFirst,
  DECLINE_REASON,
  deliverableFor,
  DISPUTE_ANSWER,
  milestoneFor,
  openingMessage,
  PAYMENT_FAILED_MESSAGE,
  paymentRequestFor,
  proposalFor,
  submitsWork,
} from '../domain/scenarios.ts';
import { CHECK_LIMIT, SIMULATED, unlessRefused, type Acting } from './acting.ts';

const AS_PROVIDER = { provider_id: SIMULATED_PROVIDER_ID };
/** Proposals are taken while the request is open and no job started (as the gateway checks). */
const OPEN_FOR_PROPOSALS = new Set(['submitted', 'routed']);
const REVIEWABLE = new Set(['open', 'changes_requested']);

/** The request as the simulated provider may see it; undefined when it may not (any more). */
const visibleRequest = (a: Acting, requestId: string) =>
  unlessRefused(
    a.call(providerOps.request, { ...AS_PROVIDER, request_id: requestId }),
    'request_not_found',
  );
type VisibleRequest = NonNullable<Awaited<ReturnType<typeof visibleRequest>>>;

/**
 * The offer of a test request: declined in `declines`, else accepted, and then the provider's
 * opening (a message, and the proposal unless it asks a question first).
 */
export async function answerOffer(a: Acting, requestId: string, scenario: TestScenario) {
  const request = await visibleRequest(a, requestId);
  if (!request?.offer) return;
  let answered = request.offer.status;
  if (answered === 'pending') {
    const target = { ...AS_PROVIDER, request_id: requestId };
    const done = await unlessRefused(
      answersOffer(scenario) === 'accept'
        ? a.call(routingOps.accept, target)
        : a.call(routingOps.decline, { ...target, input: { reason: DECLINE_REASON } }),
      'offer_not_pending',
    );
    // Refused: answered meanwhile (an earlier delivery of this event) or lapsed; read which.
    answered = (done ?? (await visibleRequest(a, requestId)))?.offer?.status ?? answered;
  }
  if (answered !== 'accepted') return;
  await say(a, request, openingMessage(scenario));
  if (!asksFirst(scenario)) await propose(a, request, scenario);
}

/** In `asks_question`, the agent's message after the question: the proposal follows. */
export async function answerAgentMessage(a: Acting, requestId: string, scenario: TestScenario) {
  if (!asksFirst(scenario)) return;
  const request = await visibleRequest(a, requestId);
  if (request?.offer?.status !== 'accepted') return;
  // A message the agent wrote before the question was asked answers nothing.
  if (!(await hasSaid(a, requestId, openingMessage(scenario)))) return;
  await propose(a, request, scenario);
}

async function hasSaid(a: Acting, requestId: string, text: string): Promise<boolean> {
  const mine = await a.call(messageOps.listForProvider, {
    ...AS_PROVIDER,
    request_id: requestId,
    limit: CHECK_LIMIT,
  });
  return mine.data.some((message) => message.mine && message.message === text);
}

/** A message into the conversation, once (the same words are never written twice). */
async function say(a: Acting, request: VisibleRequest, text: string) {
  if (isRequestClosed(request.status) || (await hasSaid(a, request.id, text))) return;
  await a.call(messageOps.create, {
    request_id: request.id,
    integration_id: request.integration_id,
    author_role: 'provider',
    author_provider_id: SIMULATED_PROVIDER_ID,
    message: text,
  });
}

async function propose(a: Acting, request: VisibleRequest, scenario: TestScenario) {
  if (!OPEN_FOR_PROPOSALS.has(request.status)) return;
  const made = await a.call(proposalOps.list, {
    party: SIMULATED,
    request_id: request.id,
    limit: 1,
  });
  if (made.data.length > 0) return;
  await unlessRefused(
    a.call(proposalOps.create, {
      request_id: request.id,
      ...AS_PROVIDER,
      provider_name: request.provider_name,
      input: proposalFor(scenario, request),
    }),
    'proposal_exists',
  );
}

/** The simulated provider's active job on the request, if it has one. */
async function activeJob(a: Acting, requestId: string) {
  const jobs = await a.call(jobOps.list, {
    party: SIMULATED,
    request_id: requestId,
    status: 'active',
    limit: 1,
  });
  return jobs.data[0];
}

/**
 * The job started (the agent accepted the proposal): one milestone for the job's amount, then,
 * unless the scenario misses its deadline, a deliverable and the submission.
 */
export async function startWork(a: Acting, requestId: string, scenario: TestScenario) {
  const job = await activeJob(a, requestId);
  if (!job) return;
  const planned = await a.call(milestoneOps.list, {
    party: SIMULATED,
    request_id: requestId,
    job_id: job.id,
    limit: 1,
  });
  const milestone =
    planned.data[0] ??
    (await unlessRefused(
      a.call(milestoneOps.create, {
        job_id: job.id,
        ...AS_PROVIDER,
        input: milestoneFor(scenario, job, new Date()),
      }),
      // Staff cancelled the job meanwhile: its work moves no more.
      'job_not_active',
    ));
  if (milestone && submitsWork(scenario)) await deliver(a, milestone, scenario);
}

/** The agent asked for changes: a revised deliverable and the milestone submitted again. */
export async function reviseWork(a: Acting, milestoneId: string, scenario: TestScenario) {
  if (!submitsWork(scenario)) return;
  const milestone = await unlessRefused(
    a.call(milestoneOps.get, { id: milestoneId, party: SIMULATED }),
    'milestone_not_found',
  );
  if (milestone) await deliver(a, milestone, scenario);
}

/**
 * A deliverable for this round of review (unless one waits already), then the submission. A job
 * that staff cancelled meanwhile (`job_not_active`) takes neither.
 */
async function deliver(a: Acting, milestone: Milestone, scenario: TestScenario) {
  if (!REVIEWABLE.has(milestone.status)) return;
  const attached = await a.call(deliverableOps.list, {
    party: SIMULATED,
    request_id: milestone.request_id,
    milestone_id: milestone.id,
    limit: CHECK_LIMIT,
  });
  if (!attached.data.some((deliverable) => deliverable.status === 'submitted')) {
    const round = attached.data.filter((d) => d.status === 'revision_requested').length;
    const attachedNow = await unlessRefused(
      a.call(deliverableOps.create, {
        milestone_id: milestone.id,
        ...AS_PROVIDER,
        input: deliverableFor(scenario, round),
      }),
      'job_not_active',
    );
    if (!attachedNow) return;
  }
  await unlessRefused(
    a.call(milestoneOps.submit, { id: milestone.id, ...AS_PROVIDER }),
    'invalid_state_transition',
    'job_not_active',
  );
}

/** An approved milestone is paid for: a payment request for its amount, once per milestone. */
export async function requestPayment(a: Acting, milestone: Milestone) {
  if (milestone.amount === null || milestone.currency === null || milestone.amount <= 0) return;
  const request = await visibleRequest(a, milestone.request_id);
  if (!request || isRequestClosed(request.status)) return;
  const asked = await a.call(paymentOps.list, { request_id: request.id, limit: CHECK_LIMIT });
  if (asked.data.some((prq) => prq.reference === milestone.id)) return;
  await a.call(paymentOps.create, {
    request_id: request.id,
    integration_id: request.integration_id,
    input: paymentRequestFor({
      ...milestone,
      amount: milestone.amount,
      currency: milestone.currency,
    }),
  });
}

/** A payment of the request failed: the provider asks the agent for a new payment request. */
export async function reportFailedPayment(a: Acting, requestId: string) {
  const request = await visibleRequest(a, requestId);
  if (request) await say(a, request, PAYMENT_FAILED_MESSAGE);
}

/** A case the customer opened gets the provider's side, once. */
export async function answerDispute(a: Acting, disputeId: string) {
  const dispute = await unlessRefused(
    a.call(disputeOps.get, { id: disputeId, party: SIMULATED }),
    'dispute_not_found',
  );
  if (!dispute || (dispute.status !== 'open' && dispute.status !== 'under_review')) return;
  if (dispute.comments.some((comment) => comment.author_role === 'provider')) return;
  await unlessRefused(
    a.call(disputeOps.comment, { id: dispute.id, party: SIMULATED, message: DISPUTE_ANSWER }),
    'comment_limit_reached',
  );
}

/**
 * Once the work is paid for (a completed payment), the provider completes its job; while a
 * milestone or a case is still open the job waits (`job_has_open_work`) for a later event.
 */
export async function completeWhenPaid(a: Acting, requestId: string) {
  const job = await activeJob(a, requestId);
  if (!job) return;
  const paid = await a.call(paymentRecordOps.list, {
    request_id: requestId,
    status: 'completed',
    limit: 1,
  });
  if (paid.data.length === 0) return;
  await unlessRefused(
    a.call(jobOps.complete, { id: job.id, ...AS_PROVIDER }),
    'job_has_open_work',
    'invalid_state_transition',
  );
}
