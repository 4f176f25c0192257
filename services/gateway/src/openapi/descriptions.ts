import {
  ACCESS_APPLICATION_MACHINE,
  BODY_LIMIT_BYTES,
  DELIVERABLE_MACHINE,
  DISPUTE_MACHINE,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  JOB_MACHINE,
  machineMarkdown,
  MILESTONE_MACHINE,
  PAYMENT_MACHINE,
  PAYMENT_REQUEST_MACHINE,
  PROPOSAL_MACHINE,
  REQUEST_MACHINE,
  type StateMachine,
} from '@handoff/contracts';

/** The prose of the document: its description and what each tag is about. */

/** The tags whose resources move through state machines, and their machines. */
export const TAG_MACHINES = {
  access: [ACCESS_APPLICATION_MACHINE],
  requests: [REQUEST_MACHINE],
  proposals: [PROPOSAL_MACHINE],
  jobs: [JOB_MACHINE],
  milestones: [MILESTONE_MACHINE],
  deliverables: [DELIVERABLE_MACHINE],
  disputes: [DISPUTE_MACHINE],
  payments: [PAYMENT_REQUEST_MACHINE, PAYMENT_MACHINE],
} as const satisfies Record<string, readonly StateMachine[]>;

const machinesOf = (tag: string): readonly StateMachine[] =>
  Object.hasOwn(TAG_MACHINES, tag) ? TAG_MACHINES[tag as keyof typeof TAG_MACHINES] : [];

/** What each tag is about; a resource tag's state machines follow, generated. */
const TAG_INTROS: Record<string, string> = {
  meta: 'What the API offers and who is calling.',
  access: 'Applying for access and claiming the agent key (conventions §1 "Access").',
  requests:
    'The hand-off request an agent creates for its customer and reads with the request token ' +
    '(`requests:create`, `requests:read`). Staff route it; the work on it moves it along.',
  staff: 'Staff decisions and tools; a staff JWT, never an agent key.',
  health: 'Probes for load balancers and Kubernetes.',
  provider:
    'The provider API: a human provider, with a provider key (`Authorization: Bearer hpk_live_...`) ' +
    'that staff issue, reads the requests routed to it or published on the marketplace in its ' +
    'categories, writes into their conversations, proposes, and delivers the work of its jobs. ' +
    'Customer contact details are shown only where the customer gave `contact_permission`. ' +
    "Another provider's resources answer 404, as unknown ones do.",
  proposals:
    "A provider's offer on a request. The agent lists a request's proposals and accepts one for " +
    'its customer (scopes `proposals:read`, `proposals:accept`, with the request token): a job ' +
    'starts and every other open proposal of the request is declined.',
  jobs:
    'The engagement an accepted proposal starts, between the customer and one provider ' +
    '(`jobs:read`). The provider completes it once every milestone is approved or cancelled ' +
    'and no dispute is open.',
  milestones:
    "A part of a job's work. The provider reports progress, attaches deliverables and submits it; " +
    'the agent reviews it for the customer (`milestones:read`, `milestones:review`): approve, or ' +
    'request changes with a reason. Approving never moves money.',
  deliverables:
    "What a provider hands over for a milestone (a link and a description); it follows its milestone's review (`milestones:read`).",
  disputes:
    "A dispute or refund case the agent opens for its customer on the request's job " +
    '(`disputes:read`, `disputes:manage`). The customer, the provider and staff comment on it; ' +
    'staff resolve it for the customer, for the provider or split, with a reason. Resolving ' +
    'records the outcome; money moves only through a staff-approved payment request.',
  payments:
    'Money moves only through a payment request that the agent proposes and staff approve; the ' +
    'approval creates a payment through the configured payment provider (manual: staff confirm ' +
    'it; Stripe: a verified `payment_intent.succeeded` webhook completes it). Approving work or resolving a dispute never moves money.',
};

export const TAG_DESCRIPTIONS: Record<string, string> = Object.fromEntries(
  Object.entries(TAG_INTROS).map(([tag, intro]) => [
    tag,
    [intro, ...machinesOf(tag).map((machine) => machineMarkdown(machine, '###'))].join('\n\n'),
  ]),
);

const ORDER_OF_CHECKS =
  'route, method, agent key, scope, token presence, content type and size, JSON, schema, lookup, token match, state';

export const DESCRIPTION = [
  'Approved AI agents hand customer requests to human providers and follow them through.',
  '',
  'Errors are RFC 9457 `application/problem+json` with a stable snake_case `code` to branch on; ' +
    'extension members (e.g. `required_scopes`) may be added. Every response carries `Request-Id`, ' +
    'which is also in the error body, and `Cache-Control: no-store`, `X-Content-Type-Options: ' +
    "nosniff`, `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`, " +
    '`Referrer-Policy: no-referrer` and `X-Frame-Options: DENY`. Checks happen in this order: ' +
    `${ORDER_OF_CHECKS}.`,
  '',
  `Every POST takes an optional \`Idempotency-Key\` (1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters), ` +
    'kept 24 h per integration: a replay returns the stored status and body with ' +
    '`Idempotent-Replayed: true`; a different request with the same key gets 422 ' +
    '`idempotency_key_reused`; a key still in flight gets 409 `idempotency_key_in_use`.',
  '',
  'Unknown body fields are rejected with 422. Limits and the rate-limit policies of this ' +
    `deployment are listed by \`GET /v1/capabilities\`; the body limit is ${BODY_LIMIT_BYTES} bytes.`,
  '',
  'Three kinds of caller, each with its own credential that works on its own routes only (401 ' +
    'elsewhere): agents (`hk_live_` keys with scopes; the customer side of a request also needs ' +
    'its request token), providers (`hpk_live_` keys, under `/v1/provider/`) and staff (a JWT, ' +
    'under `/v1/staff/`).',
  '',
  'Requests, the work after the handoff (proposals, jobs, milestones, deliverables, disputes, ' +
    'payments) and access applications follow state machines: the tag of each resource has its ' +
    'table, its diagram, and for every ' +
    'waiting state the `deadline_at` rule and what happens when it passes. An illegal move answers ' +
    '409 `invalid_state_transition` with `current_state` and `allowed_actions`, and changes nothing.',
].join('\n');
