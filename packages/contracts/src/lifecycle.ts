import { ApplicationStatus } from './access.ts';
import { REQUEST_STATUSES, type RequestStatus } from './requests.ts';
import { allowedActions, defineMachine, type StateMachine } from './state-machine.ts';

/**
 * The state machines of the hand-off request, of the work on it and of an access application, as
 * data. The owning services move their documents through them (`@handoff/runtime`'s
 * `moveDocument`), the gateway documents them in OpenAPI, and `docs/state-machines.md` is
 * generated from them, so the table an agent developer reads is the table the code runs.
 */

export const REQUEST_MACHINE = defineMachine({
  resource: 'request',
  owner: 'intake',
  states: REQUEST_STATUSES,
  initial: 'submitted',
  created_event: 'request.created',
  moves: {
    submitted: {
      route: 'routed',
      start: 'in_progress',
      cancel: 'cancelled',
      update: 'submitted',
      review_marketplace: 'submitted',
    },
    routed: {
      start: 'in_progress',
      unroute: 'submitted',
      cancel: 'cancelled',
      update: 'routed',
      review_marketplace: 'routed',
    },
    in_progress: {
      complete: 'completed',
      cancel: 'cancelled',
      update: 'in_progress',
      review_marketplace: 'in_progress',
    },
    completed: {},
    cancelled: {},
  },
  events: {
    route: 'request.updated',
    unroute: 'request.updated',
    start: 'request.updated',
    complete: 'request.updated',
    cancel: 'request.updated',
    update: 'request.updated',
    review_marketplace: 'request.updated',
  },
  actors: {
    route: ['staff', 'system'],
    unroute: ['staff', 'system'],
    start: ['staff', 'system'],
    complete: ['staff', 'system'],
    cancel: ['staff', 'customer'],
    update: ['staff', 'system'],
    review_marketplace: ['staff'],
  },
  // Once a provider is engaged, the customer's way out is a dispute, through staff.
  only_from: { cancel: { customer: ['submitted', 'routed'] } },
  describe: {
    route:
      'Automatic routing offers it to a provider (`routing.mode` `direct`), or staff route it (`PATCH /v1/staff/requests/{id}` with `status: "routed"`, usually with `routing`).',
    unroute:
      'Its offer was declined or lapsed (automatic routing then offers it to the next provider, or leaves it in the staff queue), or staff take it back to the queue (`status: "submitted"`).',
    start:
      'A proposal of the request was accepted: the system moves it, recording the engaged provider. Staff may too (`status: "in_progress"`).',
    complete:
      'The engaged provider’s job was completed: the system moves it. Staff may too (`status: "completed"`).',
    cancel:
      'The customer cancels it while no provider is engaged yet (`POST /v1/request/{id}/cancel`, from `submitted` or `routed`; from `in_progress` that is 409 `invalid_state_transition`: open a dispute instead), or staff cancel it in any open state (`status: "cancelled"`): its pending offer is withdrawn, its open proposals are declined, its pending payment requests rejected and its active job cancelled.',
    update:
      'Automatic routing offers it to another provider, or staff change its `routing` and leave its state (a `PATCH` without `status`, or with the status it has).',
    review_marketplace:
      'Staff decide its publication on the marketplace (`POST /v1/staff/requests/{id}/marketplace-review`) while the customer’s opt-in waits in `pending_review` (otherwise 409 `invalid_state_transition` naming the review’s state). Approving an unassigned request routes it to the marketplace.',
  },
  waiting: {},
});

export const PROPOSAL_MACHINE = defineMachine({
  resource: 'proposal',
  owner: 'milestones',
  states: ['submitted', 'accepted', 'declined', 'withdrawn', 'expired'],
  initial: 'submitted',
  created_event: 'proposal.received',
  moves: {
    submitted: {
      accept: 'accepted',
      decline: 'declined',
      withdraw: 'withdrawn',
      expire: 'expired',
    },
    accepted: {},
    declined: {},
    withdrawn: {},
    expired: {},
  },
  // A decline has no spec kind: a documented extension kind (EXTENSION_EVENT_TYPES), so that the
  // provider hears of it.
  events: {
    accept: 'proposal.accepted',
    decline: 'proposal.declined',
    withdraw: null,
    expire: null,
  },
  actors: {
    accept: ['customer'],
    decline: ['customer', 'system'],
    withdraw: ['provider'],
    expire: ['system'],
  },
  describe: {
    accept:
      'The customer accepts: a job starts with the proposal’s provider, amount and milestone plan, and every other open proposal of the request is declined.',
    decline: 'The customer declines it, or another proposal of the request was accepted.',
    withdraw: 'The provider takes it back.',
    expire: 'Nobody decided before `deadline_at`.',
  },
  waiting: {
    submitted: {
      waiting_on: 'customer',
      days: 14,
      on_deadline: 'expire',
      consequence: 'The proposal expires.',
    },
  },
});

export const JOB_MACHINE = defineMachine({
  resource: 'job',
  owner: 'milestones',
  states: ['active', 'completed', 'cancelled'],
  initial: 'active',
  // A job starts with `proposal.accepted`, whose proposal names it in `job_id`.
  created_event: null,
  moves: { active: { complete: 'completed', cancel: 'cancelled' }, completed: {}, cancelled: {} },
  events: { complete: 'job.completed', cancel: null },
  actors: { complete: ['provider'], cancel: ['staff', 'system'] },
  describe: {
    complete:
      'The provider completes the job: every milestone is approved or cancelled and no dispute is open (otherwise 409 `job_has_open_work`).',
    cancel:
      'Staff cancel it (for example after a dispute resolved for the customer), or the system does when its request is cancelled. Its work then moves no more (409 `job_not_active`).',
  },
  waiting: {
    active: {
      waiting_on: 'provider',
      days: 90,
      on_deadline: null,
      consequence: 'The job is listed as overdue in `GET /v1/staff/deadlines` for staff to act on.',
    },
  },
});

export const MILESTONE_MACHINE = defineMachine({
  resource: 'milestone',
  owner: 'milestones',
  states: ['open', 'submitted', 'changes_requested', 'approved', 'cancelled'],
  initial: 'open',
  created_event: 'milestone.created',
  moves: {
    open: {
      update_progress: 'open',
      add_deliverable: 'open',
      submit: 'submitted',
      cancel: 'cancelled',
    },
    submitted: {
      approve: 'approved',
      request_changes: 'changes_requested',
      cancel: 'cancelled',
    },
    changes_requested: {
      update_progress: 'changes_requested',
      add_deliverable: 'changes_requested',
      submit: 'submitted',
      cancel: 'cancelled',
    },
    approved: {},
    cancelled: {},
  },
  events: {
    update_progress: 'milestone.updated',
    add_deliverable: null,
    submit: 'milestone.submitted',
    approve: 'milestone.approved',
    request_changes: 'milestone.updated',
    cancel: 'milestone.updated',
  },
  actors: {
    update_progress: ['provider'],
    add_deliverable: ['provider'],
    submit: ['provider'],
    approve: ['customer', 'system'],
    request_changes: ['customer'],
    cancel: ['staff'],
  },
  describe: {
    update_progress: 'The provider reports progress (0–100) and an optional note.',
    add_deliverable: 'The provider attaches a deliverable (it publishes `deliverable.created`).',
    submit: 'The provider submits the milestone for the customer’s review.',
    approve:
      'The customer approves the submitted work; its deliverables are accepted. Approval never moves money.',
    request_changes:
      'The customer asks for changes with a reason; the submitted deliverables are marked `revision_requested`.',
    cancel: 'Staff cancel the milestone.',
  },
  waiting: {
    open: {
      waiting_on: 'provider',
      days: 30,
      on_deadline: null,
      consequence:
        'Listed as overdue in `GET /v1/staff/deadlines`. With a `due_at`, the deadline is `due_at`.',
    },
    submitted: {
      waiting_on: 'customer',
      days: 14,
      on_deadline: 'approve',
      consequence:
        'The milestone is approved automatically (`approved_by: "deadline"`), as on marketplaces that release work the customer did not review. No money moves.',
    },
    changes_requested: {
      waiting_on: 'provider',
      days: 14,
      on_deadline: null,
      consequence: 'Listed as overdue in `GET /v1/staff/deadlines`.',
    },
  },
});

export const DELIVERABLE_MACHINE = defineMachine({
  resource: 'deliverable',
  owner: 'milestones',
  states: ['submitted', 'accepted', 'revision_requested', 'withdrawn'],
  initial: 'submitted',
  created_event: 'deliverable.created',
  moves: {
    submitted: {
      accept: 'accepted',
      request_revision: 'revision_requested',
      withdraw: 'withdrawn',
    },
    accepted: {},
    revision_requested: {},
    withdrawn: {},
  },
  // Changes after creation follow the milestone, whose event carries the news.
  events: { accept: null, request_revision: null, withdraw: null },
  actors: { accept: ['system'], request_revision: ['system'], withdraw: ['provider'] },
  describe: {
    accept: 'Its milestone was approved.',
    request_revision: 'The customer requested changes to its milestone.',
    withdraw: 'The provider withdraws it while its milestone is not under review.',
  },
  waiting: {
    submitted: {
      waiting_on: 'customer',
      days: 14,
      on_deadline: null,
      consequence: 'It follows its milestone: accepted when the milestone is approved by deadline.',
    },
  },
});

export const DISPUTE_MACHINE = defineMachine({
  resource: 'dispute',
  owner: 'milestones',
  states: ['open', 'under_review', 'resolved', 'withdrawn'],
  initial: 'open',
  created_event: 'dispute.created',
  moves: {
    open: { comment: 'open', escalate: 'under_review', resolve: 'resolved', withdraw: 'withdrawn' },
    under_review: { comment: 'under_review', resolve: 'resolved', withdraw: 'withdrawn' },
    resolved: {},
    withdrawn: {},
  },
  events: {
    comment: 'dispute.updated',
    escalate: 'dispute.updated',
    resolve: 'dispute.updated',
    withdraw: 'dispute.updated',
  },
  actors: {
    comment: ['customer', 'provider', 'staff'],
    escalate: ['staff', 'system'],
    resolve: ['staff'],
    withdraw: ['customer'],
  },
  describe: {
    comment: 'The customer, the provider or staff add to the case.',
    escalate: 'Staff take the case under review.',
    resolve:
      'Staff resolve it for the customer, for the provider, or split, with a reason. Resolution records the outcome; money moves only through a staff-approved payment request.',
    withdraw: 'The customer withdraws the case.',
  },
  waiting: {
    open: {
      waiting_on: 'provider',
      days: 7,
      on_deadline: 'escalate',
      consequence: 'The case is escalated to staff review (`under_review`).',
    },
    under_review: {
      waiting_on: 'staff',
      days: 14,
      on_deadline: null,
      consequence: 'Listed as overdue in `GET /v1/staff/deadlines`.',
    },
  },
});

export const PAYMENT_REQUEST_MACHINE = defineMachine({
  resource: 'payment_request',
  owner: 'payments',
  states: ['pending_approval', 'approved', 'rejected', 'expired'],
  initial: 'pending_approval',
  created_event: 'payment.requested',
  moves: {
    pending_approval: { approve: 'approved', reject: 'rejected', expire: 'expired' },
    approved: {},
    rejected: {},
    expired: {},
  },
  // Rejection and expiry have no spec kind: documented extension kinds (EXTENSION_EVENT_TYPES).
  events: {
    approve: 'payment.requested',
    reject: 'payment.request_rejected',
    expire: 'payment.request_expired',
  },
  actors: { approve: ['staff'], reject: ['staff', 'system'], expire: ['system'] },
  describe: {
    approve:
      'Staff approve it: a payment is created through the payment provider. Refused with 409 `request_closed` once the request is completed or cancelled.',
    reject:
      'Staff reject it with a reason, or the system does when its request is completed or cancelled (`rejection_reason`: "the request was cancelled").',
    expire: 'Staff did not decide before `deadline_at`.',
  },
  waiting: {
    pending_approval: {
      waiting_on: 'staff',
      days: 14,
      on_deadline: 'expire',
      consequence: 'The payment request expires; the agent may propose it again.',
    },
  },
});

export const PAYMENT_MACHINE = defineMachine({
  resource: 'payment',
  owner: 'payments',
  states: ['pending', 'completed', 'failed'],
  initial: 'pending',
  // A payment starts with the approval of its payment request (`payment.requested`).
  created_event: null,
  moves: { pending: { complete: 'completed', fail: 'failed' }, completed: {}, failed: {} },
  events: { complete: 'payment.completed', fail: 'payment.failed' },
  actors: { complete: ['staff', 'system'], fail: ['staff', 'system'] },
  describe: {
    complete:
      'The payment provider reports success (Stripe: a verified `payment_intent.succeeded` webhook) or, with the manual provider, staff confirm it.',
    fail: 'The payment provider reports a failure, or staff mark it failed.',
  },
  waiting: {
    pending: {
      waiting_on: 'payment provider',
      days: 7,
      on_deadline: 'fail',
      consequence: 'The payment fails with `failure_reason: "deadline_passed"`.',
    },
  },
});

export const ACCESS_APPLICATION_MACHINE = defineMachine({
  resource: 'access_application',
  owner: 'intake',
  states: ApplicationStatus.options,
  initial: 'submitted',
  created_event: 'access.application.submitted',
  moves: {
    submitted: { approve: 'approved', reject: 'rejected' },
    approved: { claim_key: 'approved' },
    rejected: {},
  },
  events: {
    approve: 'access.application.approved',
    reject: 'access.application.rejected',
    claim_key: null,
  },
  actors: { approve: ['staff'], reject: ['staff'], claim_key: ['applicant'] },
  describe: {
    approve: 'Staff approve it with the scopes they grant; its integration is created.',
    reject: 'Staff reject it with a reason.',
    claim_key:
      'The applicant claims the first agent key with the application secret (it publishes `access.key.issued`). Once: a second claim is refused like an illegal move.',
  },
  waiting: {},
});

export type RequestAction = keyof typeof REQUEST_MACHINE.events;
export type ApplicationAction = keyof typeof ACCESS_APPLICATION_MACHINE.events;
export type ProposalAction = keyof typeof PROPOSAL_MACHINE.events;
export type JobAction = keyof typeof JOB_MACHINE.events;
export type MilestoneAction = keyof typeof MILESTONE_MACHINE.events;
export type DeliverableAction = keyof typeof DELIVERABLE_MACHINE.events;
export type DisputeAction = keyof typeof DISPUTE_MACHINE.events;
export type PaymentRequestAction = keyof typeof PAYMENT_REQUEST_MACHINE.events;
export type PaymentAction = keyof typeof PAYMENT_MACHINE.events;

/** Every machine of the engagement, in the order the docs show them. */
export const STATE_MACHINES: readonly StateMachine[] = [
  PROPOSAL_MACHINE,
  JOB_MACHINE,
  MILESTONE_MACHINE,
  DELIVERABLE_MACHINE,
  DISPUTE_MACHINE,
  PAYMENT_REQUEST_MACHINE,
  PAYMENT_MACHINE,
];

/** Every machine the services enforce, in the order the docs show them. */
export const ALL_STATE_MACHINES: readonly StateMachine[] = [
  REQUEST_MACHINE,
  ...STATE_MACHINES,
  ACCESS_APPLICATION_MACHINE,
];

/**
 * A request with no move left (completed, cancelled) is closed: it takes no more work. Messages,
 * payment requests, proposals, acceptances and approvals of its payment requests are refused
 * with 409 `request_closed`, and what still hangs on it is settled (see ARCHITECTURE.md).
 */
export const CLOSED_REQUEST_STATUSES: readonly RequestStatus[] = REQUEST_MACHINE.states.filter(
  (status) => allowedActions(REQUEST_MACHINE, status).length === 0,
);
export const isRequestClosed = (status: RequestStatus): boolean =>
  CLOSED_REQUEST_STATUSES.includes(status);
