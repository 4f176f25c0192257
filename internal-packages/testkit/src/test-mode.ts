// The event sequences docs/test-mode.md documents for the simulated provider's scenarios, each
// event as `type` or `type:status` (its object's status, where it has one): one list that the
// tests at the bus (services/testmode) and at a webhook receiver (the gateway's) both hold to.

/** Right after a test request is created. */
export const TEST_MODE_OPENING = [
  'request.created:submitted',
  'request.updated:routed', // offered to the simulated provider
  'request.updated:routed', // the offer accepted
  'message.created',
  'proposal.received:submitted',
];

/** After the agent accepts the proposal. */
export const TEST_MODE_WORK = [
  'proposal.accepted:accepted',
  'request.updated:in_progress',
  'milestone.created:open',
  'deliverable.created:submitted',
  'milestone.submitted:submitted',
];

/** After the agent approves the milestone (whose own event comes first). */
export const TEST_MODE_PAID = [
  'payment.requested:pending_approval',
  'payment.requested:approved',
  'payment.completed:completed',
  'job.completed:completed',
  'request.updated:completed',
];
