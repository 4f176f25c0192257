import { BusError, implement, type Endpoint } from '@handoff/bus';
import {
  deadlineFor,
  DEFAULT_CURRENCY,
  ENGAGEMENT_LIMITS,
  JOB_MACHINE,
  MILESTONE_MACHINE,
  newId,
  PROPOSAL_MACHINE,
  proposalOps,
  type EventType,
  type ProposalAction,
  type StateMachine,
} from '@handoff/contracts';
import { byIdWhere, insertOnce, isDuplicateKey } from '@handoff/store';
import type { Collection } from 'mongodb';
import { minorUnits, moveEach } from '@handoff/runtime';
import { ANOTHER_ACCEPTED, DECLINABLE_STATES } from '../domain/proposals.ts';
import type { MilestonesDeps } from './deps.ts';
import { collectionsOf, resourcesOf } from '../store/collections.ts';
import { milestoneView, openMilestone, type MilestoneDoc } from '../store/milestones.ts';
import { jobView, type JobDoc } from '../store/jobs.ts';
import { openSlot, proposalSlot, proposalView, type ProposalDoc } from '../store/proposals.ts';
import { creationMessages } from '../domain/creation-events.ts';
import { text } from '../domain/input-checks.ts';
import type { ResourceMove } from '../domain/moving.ts';
import { conflict } from '../domain/refusals.ts';
import { move, sweepDeadlines } from './moves.ts';
import { create, opening, partyReads } from './resources.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Most accepted proposals one recovery pass finishes; the next pass takes the rest. */
const RECOVERY_BATCH = 100;

/** Moves a proposal through PROPOSAL_MACHINE; the deadline sweep and acceptance act as `system`. */
export function moveProposal(
  deps: MilestonesDeps,
  action: ProposalAction,
  spec: Omit<ResourceMove<ProposalDoc, ProposalAction>, 'action'>,
): Promise<ProposalDoc> {
  return move(deps, {
    ...spec,
    action,
    // Every move sets the slot of the state it enters: an open place is given up in the same
    // write that leaves the open state, an acceptance takes the request's.
    change: (before, now, next) => ({
      ...spec.change?.(before, now, next),
      slot: proposalSlot(before, next),
    }),
    ...resourcesOf(deps.store).proposals,
  });
}

function acceptance(proposal: ProposalDoc): { jobId: string; at: Date } {
  if (proposal.job_id === null || proposal.decided_at === null) {
    throw new BusError('internal_error', `Accepted proposal ${proposal._id} has no job id.`);
  }
  return { jobId: proposal.job_id, at: proposal.decided_at };
}

/** The job an accepted proposal started: the same document however often it is rebuilt. */
function plannedJob(proposal: ProposalDoc): JobDoc {
  const { jobId, at } = acceptance(proposal);
  return {
    _id: jobId,
    request_id: proposal.request_id,
    proposal_id: proposal._id,
    provider_id: proposal.provider_id,
    amount_minor: proposal.amount_minor,
    currency: proposal.currency,
    status: JOB_MACHINE.initial,
    cancel_reason: null,
    cancelled_by: null,
    deadline_at: deadlineFor(JOB_MACHINE, JOB_MACHINE.initial, at),
    created_at: at,
    updated_at: at,
    completed_at: null,
  };
}

/** The milestones of an accepted proposal's plan, under the ids fixed by the acceptance. */
function plannedMilestones(proposal: ProposalDoc): MilestoneDoc[] {
  const { jobId, at } = acceptance(proposal);
  return proposal.planned_milestone_ids.flatMap((id, index) => {
    const item = proposal.milestones[index];
    if (!item) return [];
    const due_at =
      item.due_in_days === null ? null : new Date(at.getTime() + item.due_in_days * DAY_MS);
    return [
      openMilestone(
        {
          _id: id,
          request_id: proposal.request_id,
          job_id: jobId,
          provider_id: proposal.provider_id,
          title: item.title,
          description: item.description,
          amount_minor: item.amount_minor,
          currency: item.amount_minor === null ? null : proposal.currency,
          due_at,
        },
        at,
      ),
    ];
  });
}

/**
 * Inserts a planned document with its machine's creation event in its outbox; a duplicate key
 * means an earlier run already did (and its event is in that document's outbox, or published).
 * Returns the publish still to do, so that a batch can be written first and published at once.
 */
async function insertPlanned<
  D extends { _id: string; request_id: string },
  S extends string,
  A extends string,
>(
  deps: MilestonesDeps,
  collection: Collection<D>,
  machine: StateMachine<S, A, EventType>,
  doc: D,
  view: (doc: D) => Record<string, unknown>,
): Promise<() => Promise<void>> {
  const messages = creationMessages(machine, doc.request_id, view(doc));
  if (
    (await insertOnce(collection, deps.outbox.withMessages(collection, doc, messages))) ===
    'existing'
  ) {
    return async () => undefined;
  }
  return () => deps.outbox.publishOrLeave(collection, doc._id, messages);
}

/**
 * What follows an acceptance: the job, the planned milestones, and the decline of the request's
 * other open proposals, then `materialized: true`. Every step is idempotent, so after a crash
 * anywhere running it again finishes the work. Runs in the request's turn.
 */
async function materialize(deps: MilestonesDeps, proposal: ProposalDoc): Promise<void> {
  const { proposals, jobs, milestones } = collectionsOf(deps.store);
  const publishes = [await insertPlanned(deps, jobs, JOB_MACHINE, plannedJob(proposal), jobView)];
  for (const milestone of plannedMilestones(proposal)) {
    publishes.push(
      await insertPlanned(deps, milestones, MILESTONE_MACHINE, milestone, milestoneView),
    );
  }
  // Every document is durable with its event; the plan's events go out together (the request's
  // sequence numbers are still handed out one at a time by intake).
  await Promise.all(publishes.map((publish) => publish()));
  const others = await proposals
    .find({
      request_id: proposal.request_id,
      status: { $in: DECLINABLE_STATES },
      _id: { $ne: proposal._id },
    })
    .project<{ _id: string }>({ _id: 1 })
    .toArray();
  // One withdrawn or expired meanwhile is left as it is: nothing left to decline.
  await moveEach(
    others.map(({ _id }) => _id),
    (id) =>
      moveProposal(deps, 'decline', {
        id,
        visible: () => true,
        change: (_before, now) => ({ decline_reason: ANOTHER_ACCEPTED, decided_at: now }),
      }),
  );
  await deps.store.serialize(proposals, proposal._id, () =>
    proposals.updateOne(
      byIdWhere<ProposalDoc>(proposal._id, { status: 'accepted', materialized: false }),
      { $set: { materialized: true } },
    ),
  );
}

/**
 * Finishes acceptances whose job, milestones or declines a crash left unwritten. The deadline
 * sweep runs it (at start and every 60 s); an acceptance finishes only its own work, so that it
 * never waits on other requests.
 */
export async function materializePending(deps: MilestonesDeps): Promise<number> {
  const { proposals } = collectionsOf(deps.store);
  const pending = await proposals
    .find({ status: 'accepted', materialized: false })
    .project<{ _id: string; request_id: string }>({ _id: 1, request_id: 1 })
    .limit(RECOVERY_BATCH)
    .toArray();
  let finished = 0;
  for (const { _id, request_id } of pending) {
    // In the request's turn: its acceptance may be materializing right now.
    await deps.store.serialize(proposals, request_id, async () => {
      const current = await proposals.findOne(
        byIdWhere<ProposalDoc>(_id, { status: 'accepted', materialized: false }),
      );
      if (!current) return;
      await materialize(deps, current);
      finished += 1;
    });
  }
  return finished;
}

/**
 * Gives proposals stored before the slot existed the slot of their state, so that the unique
 * index holds them too. Runs at the service's start until a pass finds nothing (`adoptOnce`).
 * One whose place another holds already (two open proposals of a provider from before) keeps its
 * own id, and is logged.
 */
export async function adoptProposalSlots(deps: MilestonesDeps): Promise<number> {
  const { proposals } = collectionsOf(deps.store);
  const legacy = await proposals
    .find({ slot: { $exists: false } })
    .project<Pick<ProposalDoc, '_id' | 'request_id' | 'provider_id' | 'status'>>({
      _id: 1,
      request_id: 1,
      provider_id: 1,
      status: 1,
    })
    .toArray();
  for (const doc of legacy) {
    const give = (slot: string) =>
      deps.store.serialize(proposals, doc._id, () =>
        proposals.updateOne(byIdWhere<ProposalDoc>(doc._id, { slot: { $exists: false } }), {
          $set: { slot },
        }),
      );
    try {
      await give(proposalSlot(doc, doc.status));
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      deps.logger.warn({ proposal_id: doc._id }, 'proposal from before slots holds a taken slot');
      await give(doc._id);
    }
  }
  return legacy.length;
}

/** The system's move of a proposal whose `deadline_at` passed by `now` (the waiting state's `on_deadline`). */
export function proposalDeadlineMove(
  deps: MilestonesDeps,
  id: string,
  action: ProposalAction,
  now: Date,
): Promise<ProposalDoc> {
  return moveProposal(deps, action, {
    id,
    visible: () => true,
    change: (_before, at) => ({ decided_at: at }),
    now,
  });
}

/** Applies PROPOSAL_MACHINE's `on_deadline` actions (expire) to proposals past `deadline_at`. */
export function sweepProposals(
  deps: MilestonesDeps,
  now: Date,
  requestIds?: readonly string[],
): Promise<number> {
  const { proposals } = collectionsOf(deps.store);
  return sweepDeadlines(
    deps,
    proposals,
    PROPOSAL_MACHINE,
    now,
    (id, action) => proposalDeadlineMove(deps, id, action, now),
    requestIds,
  );
}

export function proposalEndpoints(deps: MilestonesDeps): Record<string, Endpoint> {
  const { proposals, jobs } = collectionsOf(deps.store);
  const resources = resourcesOf(deps.store);
  // The request's slot is held by its accepted proposal only: one exact lookup, whatever the
  // number of its other proposals.
  const acceptedOf = (request_id: string) =>
    proposals.findOne({ slot: request_id }, { projection: { _id: 1 } });

  return {
    ...implement(proposalOps.create, async ({ request_id, provider_id, provider_name, input }) => {
      const currency = input.currency ?? DEFAULT_CURRENCY;
      const amount_minor = minorUnits(input.amount, currency);
      const plan = (input.milestones ?? []).map((item, index) => ({
        title: item.title,
        description: item.description ?? null,
        amount_minor:
          item.amount === undefined
            ? null
            : minorUnits(item.amount, currency, `/milestones/${index}/amount`),
        due_in_days: item.due_in_days ?? null,
      }));
      const place = openSlot(request_id, provider_id);
      try {
        // In the request's turn, so an acceptance cannot slip in between. A second open proposal
        // of the provider is refused by the slot's unique index, on every replica.
        return await create(
          deps,
          resources.proposals,
          { of: proposals, id: request_id },
          async () => {
            if (await acceptedOf(request_id)) {
              throw conflict(
                'request_not_open',
                'A proposal of this request was already accepted.',
              );
            }
            return {
              _id: newId('prp'),
              request_id,
              provider_id,
              provider_name,
              message: input.message,
              amount_minor,
              currency,
              estimated_days: input.estimated_days ?? null,
              milestones: plan,
              job_id: null,
              planned_milestone_ids: [],
              materialized: false,
              decline_reason: null,
              decided_at: null,
              slot: place,
              ...opening(PROPOSAL_MACHINE, new Date()),
            };
          },
        );
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // Named when it is still open (it may have been withdrawn since the insert).
        const open = await proposals.findOne({ slot: place }, { projection: { _id: 1 } });
        throw conflict(
          'proposal_exists',
          `You already have an open proposal for this request${open ? ` (${open._id})` : ''}; withdraw it to propose again.`,
        );
      }
    }),

    ...partyReads(proposalOps, resources.proposals),

    ...implement(proposalOps.accept, async ({ id, request_id }) => {
      // In the request's turn: of two acceptances of one request's proposals, one wins; the
      // other finds its proposal declined.
      const accepted = await deps.store.serialize(proposals, request_id, async () => {
        const anotherAccepted = () =>
          conflict('request_not_open', 'Another proposal of this request was accepted.');
        const doc = await moveProposal(deps, 'accept', {
          id,
          visible: (before) => before.request_id === request_id,
          guard: async () => {
            // Only if a crash stopped an acceptance before it declined the others.
            if (await acceptedOf(request_id)) throw anotherAccepted();
          },
          // The ids of what the acceptance starts are fixed here, in the same write, so that
          // creating them is an idempotent follow-up.
          change: (before, now) => ({
            job_id: newId('job', now.getTime()),
            // A millisecond apart, so the ids keep the plan's order.
            planned_milestone_ids: before.milestones.map((_item, i) =>
              newId('mst', now.getTime() + i),
            ),
            materialized: false,
            decided_at: now,
          }),
        }).catch((error: unknown) => {
          // Another replica's acceptance took the request's slot first.
          throw isDuplicateKey(error) ? anotherAccepted() : error;
        });
        try {
          await materialize(deps, doc);
        } catch (error) {
          // The acceptance is durable; the recovery sweep finishes the rest.
          deps.logger.warn({ err: error, proposal_id: id }, 'finishing an acceptance failed');
        }
        return doc;
      });
      const job = (await jobs.findOne({ _id: acceptance(accepted).jobId })) ?? plannedJob(accepted);
      return { proposal: proposalView(accepted), job: jobView(job) };
    }),

    ...implement(proposalOps.decline, async ({ id, request_id, reason }) => {
      const decline_reason =
        reason === undefined ? null : text(reason, ENGAGEMENT_LIMITS.reason, '/reason');
      const doc = await moveProposal(deps, 'decline', {
        id,
        visible: (before) => before.request_id === request_id,
        change: (_before, now) => ({ decline_reason, decided_at: now }),
      });
      return proposalView(doc);
    }),

    ...implement(proposalOps.withdraw, async ({ id, provider_id }) => {
      const doc = await moveProposal(deps, 'withdraw', {
        id,
        visible: (before) => before.provider_id === provider_id,
        change: (_before, now) => ({ decided_at: now }),
      });
      return proposalView(doc);
    }),
  };
}
