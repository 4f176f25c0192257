import { afterAll, beforeAll } from '@jest/globals';
import { call } from '@handoff/bus';
import {
  disputeOps,
  EventEnvelope,
  messageOps,
  milestoneOps,
  paymentOps,
  proposalOps,
  requestOps,
  type BackendService,
  type Operation,
  type TestScenario,
} from '@handoff/contracts';
import { bootstrap as conversation } from '@handoff/conversation';
import { bootstrap as intake } from '@handoff/intake';
import { bootstrap as milestones } from '@handoff/milestones';
import { bootstrap as payments } from '@handoff/payments';
import { sha256Hex } from '@handoff/runtime';
import { eventually, serviceEnv, ServiceStack, uniqueDatabase } from '@handoff/testkit';
import type { JsMsg } from '@nats-io/jetstream';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { bootstrap } from '../../src/bootstrap.ts';

/**
 * The testmode service with the services it acts through (intake, conversation, milestones,
 * payments), each as its own NATS user on its own database, and every domain event as it arrives.
 * The test plays the agent's part through the same operations the gateway calls for an agent.
 */

export const opts = { timeoutMs: 10_000 };
const INTEGRATION = 'int_testmode';

type Running = { stop(): Promise<void> };
const STARTERS: [BackendService, (o: { env: Record<string, string> }) => Promise<Running>][] = [
  ['intake', intake],
  ['conversation', conversation],
  ['milestones', milestones],
  ['payments', payments],
  ['testmode', bootstrap],
];

/** An event as the webhook receives it: its kind, and the object's status where it has one. */
export interface Seen {
  type: string;
  status?: string;
  sequence: number;
}

export class Simulation extends ServiceStack<Running> {
  readonly events: EventEnvelope[] = [];
  protected readonly what = 'test mode stack';
  /** Replicas of the testmode service (on one database, as replicas are). */
  readonly replicas: number;

  constructor(replicas = 1) {
    super();
    this.replicas = replicas;
  }

  protected async launch(): Promise<Running> {
    const started: Running[] = [];
    try {
      for (const [service, start] of STARTERS) {
        const env = serviceEnv(service, uniqueDatabase(service));
        // DEBUG_LOG=debug shows a service's lines (e.g. what test mode did with each event).
        if (process.env.DEBUG_LOG) env.LOG_LEVEL = process.env.DEBUG_LOG;
        const copies = service === 'testmode' ? this.replicas : 1;
        for (let copy = 0; copy < copies; copy += 1) started.push(await start({ env }));
      }
    } catch (error) {
      for (const service of started.reverse()) await service.stop();
      throw error;
    }
    return {
      stop: async () => {
        for (const service of started.reverse()) await service.stop();
      },
    };
  }

  protected onEvent(msg: JsMsg): void {
    const parsed = EventEnvelope.safeParse(msg.json());
    if (parsed.success) this.events.push(parsed.data);
  }

  call<I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>, input: z.input<I>) {
    return call(this.nc, op, input, opts);
  }

  /** A request made with a test key, running `scenario`. */
  async testRequest(scenario: TestScenario): Promise<string> {
    const created = await this.call(requestOps.create, {
      integration_id: INTEGRATION,
      token_hash: sha256Hex(`hrt_${randomBytes(8).toString('hex')}`),
      livemode: false,
      input: {
        message: 'Please fix the leaking kitchen tap this week.',
        category: 'home-services',
        budget_min: 50,
        budget_max: 240,
        test_scenario: scenario,
      },
    });
    return created.id;
  }

  /** The request's events so far, in `sequence` order. */
  seen(requestId: string): Seen[] {
    return this.events
      .filter((event) => event.data.request_id === requestId)
      .sort((a, b) => a.data.sequence - b.data.sequence)
      .map((event) => {
        const status = event.data.object.status;
        return {
          type: event.type,
          sequence: event.data.sequence,
          ...(typeof status === 'string' ? { status } : {}),
        };
      });
  }

  /** Waits until the request has had `count` events, then gives them. */
  async waitFor(requestId: string, count: number): Promise<Seen[]> {
    return eventually(
      () => {
        const seen = this.seen(requestId);
        return seen.length >= count ? seen : undefined;
      },
      { timeoutMs: 20_000, what: `${count} events of ${requestId}` },
    );
  }

  /** The object of the request's newest event of `type`. */
  latest(requestId: string, type: string): Record<string, unknown> {
    const found = this.events
      .filter((event) => event.data.request_id === requestId && event.type === type)
      .sort((a, b) => b.data.sequence - a.data.sequence)[0];
    if (!found) throw new Error(`no ${type} event of ${requestId}`);
    return found.data.object;
  }

  // --- The agent's part ------------------------------------------------------------------------

  acceptProposal(requestId: string) {
    const proposal = String(this.latest(requestId, 'proposal.received').id);
    return this.call(proposalOps.accept, { id: proposal, request_id: requestId });
  }

  review(requestId: string, decision: 'approve' | 'request_changes') {
    const milestone = String(this.latest(requestId, 'milestone.submitted').id);
    return this.call(milestoneOps.review, {
      id: milestone,
      request_id: requestId,
      decision,
      ...(decision === 'request_changes' ? { reason: 'Please finish the edges.' } : {}),
    });
  }

  write(requestId: string, message: string) {
    return this.call(messageOps.create, {
      request_id: requestId,
      integration_id: INTEGRATION,
      author_role: 'agent',
      message,
    });
  }

  /** A payment request the agent proposes itself (after a failed payment). */
  proposePayment(requestId: string) {
    return this.call(paymentOps.create, {
      request_id: requestId,
      integration_id: INTEGRATION,
      input: { amount: 240, currency: 'USD', description: 'The whole job, again.' },
    });
  }

  withdrawDispute(requestId: string) {
    const dispute = String(this.latest(requestId, 'dispute.created').id);
    return this.call(disputeOps.withdraw, { id: dispute, request_id: requestId });
  }

  openDispute(requestId: string) {
    const milestone = String(this.latest(requestId, 'milestone.submitted').id);
    return this.call(disputeOps.create, {
      request_id: requestId,
      input: {
        kind: 'dispute',
        reason: 'Only part of the work was delivered.',
        milestone_id: milestone,
      },
    });
  }
}

/** The stack, started before the file's tests and stopped after them. */
export function useSimulation(replicas = 1): Simulation {
  const stack = new Simulation(replicas);
  beforeAll(() => stack.start(), 60_000);
  afterAll(() => stack.stop());
  return stack;
}

/** `type` or `type:status`, the way the scenarios' sequences are written in the tests. */
export const described = (seen: Seen[]) =>
  seen.map((event) => (event.status ? `${event.type}:${event.status}` : event.type));
