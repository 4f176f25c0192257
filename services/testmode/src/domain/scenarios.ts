// What the simulated provider does in each test scenario, as data: its answers, words and amounts.
// docs/test-mode.md lists the events each scenario produces; keep the two in step.
import {
  DEFAULT_CURRENCY,
  type DeliverableCreate,
  type MilestoneCreate,
  type ProposalCreate,
  type TestScenario,
} from '@handoff/contracts';
import type { z } from 'zod';

/** The actor of everything test mode does in staff's place (payment approvals and settling). */
export const TEST_MODE_ACTOR = 'system:test-mode';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How the simulated provider answers the offer of a test request. */
export const answersOffer = (scenario: TestScenario): 'accept' | 'decline' =>
  scenario === 'declines' ? 'decline' : 'accept';

export const DECLINE_REASON = 'Simulated provider: this scenario declines every offer.';

/** Whether it asks a question first and proposes only after the agent's next message. */
export const asksFirst = (scenario: TestScenario): boolean => scenario === 'asks_question';

/** Whether it ever submits its milestone (`misses_deadline` leaves it open past its due date). */
export const submitsWork = (scenario: TestScenario): boolean => scenario !== 'misses_deadline';

/** Whether a payment of the request fails: the first one does in `payment_fails`. */
export const paymentFails = (scenario: TestScenario, failedBefore: boolean): boolean =>
  scenario === 'payment_fails' && !failedBefore;

/** Its first message, right after it accepted the offer. */
export const openingMessage = (scenario: TestScenario): string =>
  asksFirst(scenario)
    ? 'Thanks for the request. Before I propose: which day would suit you best for the work?'
    : 'Thanks for the request: I can take this on. My proposal follows.';

/** What it writes when a payment of the request failed. */
export const PAYMENT_FAILED_MESSAGE =
  'The payment for my work did not go through. Could you propose a new payment request?';

/** Its answer to a case the customer opens. */
export const DISPUTE_ANSWER =
  'I delivered what the proposal describes and I am happy to go through it with you.';

const REQUEST_AMOUNT_FALLBACK = 100;

/** The proposal: the request's budget (its top, else its floor), one job, no milestone plan. */
export function proposalFor(
  scenario: TestScenario,
  request: { budget_min: number | null; budget_max: number | null },
): ProposalCreate {
  return {
    message: asksFirst(scenario)
      ? 'Thanks, that answers my question. Here is my proposal.'
      : 'Here is my proposal: the whole job, delivered within three days.',
    amount: request.budget_max ?? request.budget_min ?? REQUEST_AMOUNT_FALLBACK,
    currency: DEFAULT_CURRENCY,
    estimated_days: 3,
  };
}

/**
 * The one milestone of the job, for the job's amount. Due in three days; in `misses_deadline` in
 * one, which passes with nothing submitted.
 */
export function milestoneFor(
  scenario: TestScenario,
  job: { amount: number; currency: string },
  now: Date,
): MilestoneCreate {
  const days = submitsWork(scenario) ? 3 : 1;
  return {
    title: 'The whole job',
    description: 'Everything the accepted proposal describes.',
    amount: job.amount,
    currency: job.currency,
    due_at: new Date(now.getTime() + days * DAY_MS).toISOString(),
  };
}

/**
 * The deliverable of a submission: `round` 0 is the first, each change request adds one. In
 * `requests_changes` the first is a draft, in `disputes` it is partial: what the agent is
 * expected to answer with a change request or a case.
 */
export function deliverableFor(
  scenario: TestScenario,
  round: number,
): z.input<typeof DeliverableCreate> {
  const first = round === 0;
  const title =
    first && scenario === 'requests_changes'
      ? 'Draft of the work'
      : first && scenario === 'disputes'
        ? 'Part of the work'
        : first
          ? 'The finished work'
          : `Revised work (revision ${round})`;
  return {
    title,
    url: `https://example.com/simulated-provider/work-${round + 1}`,
    description: 'Made by the simulated provider of test mode.',
  };
}

/** The payment request for an approved milestone; its reference is the milestone. */
export const paymentRequestFor = (milestone: {
  id: string;
  title: string;
  amount: number;
  currency: string;
}) => ({
  amount: milestone.amount,
  currency: milestone.currency,
  description: `Payment for the approved milestone “${milestone.title}”.`,
  reference: milestone.id,
});

/** Why a test payment fails (`payment.failed`'s `failure_reason`). */
export const TEST_FAILURE_REASON = 'card_declined';
