import { z } from 'zod';
import { StaffAction } from './common.ts';
import { conversationOp, dispatcherOp, intakeOp, milestonesOp, paymentsOp } from './service-ops.ts';

/**
 * Staff's bulk deletion of an integration's test data (test mode, issue 33). Intake owns the test
 * twin and its requests, so it leads: it takes the twin's requests a page at a time, has every
 * service delete what it holds of them (each only its own collections), then deletes the page's
 * requests itself. The requests go last, so a deletion cut short is finished by asking again.
 */
export const TEST_DATA_LIMITS = {
  /** The most request ids one service's purge takes. */
  maxRequestIds: 500,
  /** Requests intake deletes per page. */
  requestsPerPage: 100,
  /** Pages one staff call deletes at most; `has_more` says when more are left. */
  pagesPerCall: 10,
  /** No further page is begun this long into a call, so it answers well within the bus timeout. */
  budgetMs: 1_000,
} as const;

const Count = z.number().int().min(0);

/** The requests of one page, all of them a test twin's (intake picks them). */
const PageOfRequests = z.object({
  request_ids: z.array(z.string().max(64)).max(TEST_DATA_LIMITS.maxRequestIds),
});

export const ConversationPurged = z.object({ messages: Count, message_files: Count });
export const MilestonesPurged = z.object({
  proposals: Count,
  jobs: Count,
  milestones: Count,
  deliverables: Count,
  deliverable_files: Count,
  disputes: Count,
});
export const PaymentsPurged = z.object({ payment_requests: Count, payments: Count });
export const WebhooksPurged = z.object({
  webhook_endpoints: Count,
  webhook_events: Count,
  webhook_deliveries: Count,
  webhook_attempts: Count,
});

/** What one staff call deleted, and whether there is more to delete. */
export const TestDataDeletion = z.object({
  object: z.literal('test_data_deletion'),
  integration_id: z.string().meta({ description: 'The live integration.' }),
  test_integration_id: z.string().nullable().meta({
    description: 'Its test twin, which owned the deleted data; null when it never had a test key.',
  }),
  requests_deleted: Count,
  deleted: z
    .object({
      ...ConversationPurged.shape,
      ...MilestonesPurged.shape,
      ...PaymentsPurged.shape,
      ...WebhooksPurged.shape,
    })
    .meta({ description: 'How many of each kind of object this call deleted, by every service.' }),
  has_more: z.boolean().meta({
    description:
      'True when test requests are left (a call deletes at most ' +
      `${TEST_DATA_LIMITS.requestsPerPage * TEST_DATA_LIMITS.pagesPerCall}): call again.`,
  }),
});
export type TestDataDeletion = z.infer<typeof TestDataDeletion>;

/**
 * The operations of the deletion: intake's, which staff call, and each service's purge of what it
 * holds, which only intake calls (NATS grants), with a test twin's requests or id only.
 */
export const testDataOps = {
  delete: intakeOp(
    'test_data.delete',
    StaffAction.extend({ integration_id: z.string() }),
    TestDataDeletion,
  ),
  conversation: conversationOp('test_data.purge', PageOfRequests, ConversationPurged),
  milestones: milestonesOp('test_data.purge', PageOfRequests, MilestonesPurged),
  payments: paymentsOp('test_data.purge', PageOfRequests, PaymentsPurged),
  /** Everything the dispatcher keeps of the twin (keyed by integration, not by request). */
  dispatcher: dispatcherOp(
    'test_data.purge',
    z.object({ integration_id: z.string() }),
    WebhooksPurged,
  ),
} as const;
