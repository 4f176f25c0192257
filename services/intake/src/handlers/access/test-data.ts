// `test_data.delete`: staff delete an integration's test data. Intake owns the test twin and its
// requests, so it leads: page by page, every service deletes what it holds of the page's requests
// (each only its own collections, over the bus), then intake deletes the requests themselves. The
// twin and its keys stay (staff revoke keys on their own).
import { call, implement, type Endpoint } from '@handoff/bus';
import {
  SIMULATED_PROVIDER_ID,
  TEST_DATA_LIMITS,
  testDataOps,
  type TestDataDeletion,
} from '@handoff/contracts';
import { auditMessage, pushOutbox } from '@handoff/runtime';
import { deleteEach } from '@handoff/store';
import { releaseEach } from '../../routing/holds.ts';
import type { IntegrationDoc } from '../../store/access.ts';
import type { IntakeContext } from '../context.ts';
import type { Staff } from './events.ts';
import { findIntegration } from './integrations.ts';

/** How long a service is given to delete one page of what it holds. */
const PURGE_TIMEOUT_MS = 15_000;

type Deleted = TestDataDeletion['deleted'];

const NOTHING: Deleted = {
  messages: 0,
  message_files: 0,
  deliverable_files: 0,
  proposals: 0,
  jobs: 0,
  milestones: 0,
  deliverables: 0,
  disputes: 0,
  payment_requests: 0,
  payments: 0,
  webhook_endpoints: 0,
  webhook_events: 0,
  webhook_deliveries: 0,
  webhook_attempts: 0,
};

const sum = (total: Deleted, more: Partial<Deleted>): Deleted => {
  const next = { ...total };
  for (const [kind, count] of Object.entries(more) as [keyof Deleted, number][]) {
    next[kind] += count;
  }
  return next;
};

/** The live integration and its test twin (none before its first test key), from either id. */
async function pairOf(ctx: IntakeContext, integrationId: string) {
  const found = await findIntegration(ctx, integrationId);
  const { integrations } = ctx.collections;
  if (found.livemode === false) {
    return { liveId: found.live_integration_id ?? found._id, twin: found };
  }
  const twin =
    found.test_integration_id === undefined
      ? null
      : await integrations.findOne({ _id: found.test_integration_id });
  return { liveId: found._id, twin };
}

/**
 * One page of the twin's requests deleted everywhere; null when none is left. Every request of a
 * twin is a test request: only its test keys make them (the key names the integration).
 */
async function deletePage(ctx: IntakeContext, twin: IntegrationDoc, callId: string | null) {
  const page = await ctx.collections.requests
    .find({ integration_id: twin._id }, { projection: { _id: 1 } })
    .limit(TEST_DATA_LIMITS.requestsPerPage)
    .toArray();
  if (page.length === 0) return null;
  const request_ids = page.map((doc) => doc._id);
  const options = { timeoutMs: PURGE_TIMEOUT_MS, ...(callId === null ? {} : { callId }) };
  const purged = await Promise.all([
    call(ctx.bus.nc, testDataOps.conversation, { request_ids }, options),
    call(ctx.bus.nc, testDataOps.milestones, { request_ids }, options),
    call(ctx.bus.nc, testDataOps.payments, { request_ids }, options),
  ]);
  // Test requests are offered and held by the simulated provider only.
  await releaseEach(ctx, SIMULATED_PROVIDER_ID, request_ids);
  // Last, so that a deletion cut short finds the page again when staff ask again.
  const requests = await deleteEach(ctx.collections.requests, '_id', request_ids);
  return { requests, deleted: purged.reduce<Deleted>(sum, NOTHING) };
}

/** Pages until none is left, or the call's pages or time are spent (`has_more`). */
async function deleteRequests(ctx: IntakeContext, twin: IntegrationDoc, callId: string | null) {
  const started = Date.now();
  let requests = 0;
  let deleted = NOTHING;
  for (let pages = 0; ; pages += 1) {
    const spent =
      pages === TEST_DATA_LIMITS.pagesPerCall ||
      (pages > 0 && Date.now() - started >= TEST_DATA_LIMITS.budgetMs);
    if (spent) {
      const left = await ctx.collections.requests.findOne(
        { integration_id: twin._id },
        { projection: { _id: 1 } },
      );
      return { requests, deleted, has_more: left !== null };
    }
    const page = await deletePage(ctx, twin, callId);
    if (!page) return { requests, deleted, has_more: false };
    requests += page.requests;
    deleted = sum(deleted, page.deleted);
  }
}

/** The deletion's audit entry, announced from the live integration's outbox. */
async function audit(ctx: IntakeContext, staff: Staff, result: TestDataDeletion) {
  const { integrations } = ctx.collections;
  const action = 'test_data.deleted';
  const message = auditMessage('intake', action, {
    actor: staff.actor,
    action,
    target_type: 'integration',
    target_id: result.integration_id,
    at: new Date(),
    call_id: staff.call_id,
    before: null,
    after: result,
  });
  const written = await ctx.store.serialize(integrations, result.integration_id, () =>
    integrations.updateOne({ _id: result.integration_id }, pushOutbox({}, [message])),
  );
  if (written.matchedCount === 1) {
    await ctx.outbox.publishOrLeave(integrations, result.integration_id, [message]);
  }
}

async function deleteTestData(
  ctx: IntakeContext,
  integrationId: string,
  staff: Staff,
): Promise<TestDataDeletion> {
  const { liveId, twin } = await pairOf(ctx, integrationId);
  let outcome = { requests: 0, deleted: NOTHING, has_more: false };
  if (twin) {
    outcome = await deleteRequests(ctx, twin, staff.call_id);
    // Keyed by integration, not by request: once a call, whatever is left of the requests.
    const webhooks = await call(
      ctx.bus.nc,
      testDataOps.dispatcher,
      { integration_id: twin._id },
      { timeoutMs: PURGE_TIMEOUT_MS, ...(staff.call_id === null ? {} : { callId: staff.call_id }) },
    );
    outcome.deleted = sum(outcome.deleted, webhooks);
  }
  const result: TestDataDeletion = {
    object: 'test_data_deletion',
    integration_id: liveId,
    test_integration_id: twin?._id ?? null,
    requests_deleted: outcome.requests,
    deleted: outcome.deleted,
    has_more: outcome.has_more,
  };
  await audit(ctx, staff, result);
  return result;
}

export function testDataEndpoints(ctx: IntakeContext): Record<string, Endpoint> {
  return implement(testDataOps.delete, ({ integration_id, actor }, { callId }) =>
    deleteTestData(ctx, integration_id, { actor, call_id: callId }),
  );
}
