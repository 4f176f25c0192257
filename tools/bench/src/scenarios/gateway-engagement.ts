// The engagement on the shared stack: a provider proposing on a request routed to them, and the
// customer's agent approving a submitted milestone. Both are writes that each call can make only
// once (a provider has one open proposal per request; a milestone is approved once), so setup
// makes a pool of fresh targets sized from the run's length, the load takes the next one on every
// call and never reuses one: running out is an error that says so. Every call is one HTTP POST on
// a keep-alive connection (10 of them), driven in a closed loop, since each needs a target of its
// own.
//
// - provider-proposal: the gateway checks the provider key (cached), asks intake for the request
//   as that provider sees it (the request and the provider from intake's caches; read at once on
//   a miss: each request's first check, and its first after one of its events), then milestones looks
//   up the request's slot (held only by an accepted proposal), stores the proposal (whose slot's
//   unique index refuses a second open one of the provider), takes the event's sequence number
//   from the sequence bucket, publishes `proposal.received` (which stays in the proposal, as
//   JSON text: no second write);
// - milestone-approval: the gateway checks the agent key (cached) and asks intake to check the
//   request token, then milestones moves the milestone to approved (and its submitted deliverables,
//   none here, to accepted), takes the sequence number from the bucket, publishes
//   `milestone.approved` (which stays in the milestone: no second write).
//
// The events are consumed in the background too (the webhook dispatcher logs each one).
import {
  createRequest,
  requestHeaders,
  times,
  type CreatedRequest,
  type SetupCallOptions,
} from '../fixtures/agent-api.ts';
import {
  acceptProposal,
  approvePath,
  createProposal,
  onboardProvider,
  proposalsPath,
  providerHeaders,
  routeRequest,
  submitMilestone,
  waitForMilestones,
  listMilestones,
  type ProviderCredentials,
} from '../fixtures/engagement.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import { expectedCalls, FreshPool, interleave, spreadPairs } from '../fresh-pool.ts';
import { KeepAliveClient } from '../keep-alive-client.ts';
import type { CallLoad, Fixture, Scenario, ScenarioContext } from '../types.ts';
import { AGENT_API_CONNECTIONS } from './gateway-requests.ts';

/**
 * A generous estimate of provider-proposal's rate (calls per second), for the size of its pool:
 * fixed, since that pool is cheap (P providers and R requests make P × R pairs; 2,400 pairs take
 * about a second to make). Measured on 2 cores with FerretDB/PostgreSQL: over 600 req/s since
 * intake keeps the providers and requests it checks (60, 130 and 400, the estimates before, ran
 * the pool dry).
 */
export const PROPOSAL_RATE_ESTIMATE = 1_200;
/**
 * A generous estimate of milestone-approval's rate, for the size of its pool: the most it is
 * sized for (see {@link approvalRateEstimate}). Over 300 req/s on a quiet machine (40, 100 and
 * 200 ran dry).
 */
export const APPROVAL_RATE_ESTIMATE = 500;
/**
 * Approvals per second for each milestone per second that setup made ready on the same stack.
 * Making one ready takes more writes than approving it (its creation and its submission, each
 * with an event, besides its share of the request, proposal and acceptance), so approvals run at
 * about that pace or faster (about as fast on the 2-core FerretDB/SQLite machine this was tuned
 * on: 20 approvals/s after 18 milestones/s made ready; on FerretDB/PostgreSQL, over 300
 * approvals/s after 69 made ready); 6 times it leaves room for a faster run.
 */
export const SETUP_PACE_FACTOR = 6;
/** The most providers a request can be routed to, and so the most of either side of the pairs. */
export const MAX_ROUTED_PROVIDERS = 50;
/** The milestones of each accepted plan: the most a proposal may plan. */
export const PLAN_MILESTONES = 20;
/** How many setup tasks run at once. */
const SETUP_CONCURRENCY = 8;
/**
 * How many jobs setup makes at once: their writes all end in the milestones database (one writer
 * on FerretDB/SQLite), so more at once only queue there and answer 503 to the acceptances.
 */
const JOB_CONCURRENCY = 4;

const PROPOSAL_BODY = {
  message: 'I can do this next week.',
  amount: 250,
  currency: 'USD',
  estimated_days: 5,
};

const PLAN_BODY = {
  message: 'Twenty steps, reviewed one by one.',
  amount: PLAN_MILESTONES * 100,
  currency: 'USD',
  milestones: Array.from({ length: PLAN_MILESTONES }, (_, i) => ({
    title: `Step ${i + 1}`,
    amount: 100,
    due_in_days: 7 + i,
  })),
};

/**
 * Setup calls stop on Ctrl-C and say when they wait for the stack to catch up: the first time for
 * each reason, then every tenth time, with the count.
 */
function setupCalls(ctx: ScenarioContext): SetupCallOptions {
  const seen = new Map<string, number>();
  return {
    signal: ctx.signal,
    onRetry: (reason) => {
      const count = (seen.get(reason) ?? 0) + 1;
      seen.set(reason, count);
      if (count === 1 || count % 10 === 0) {
        ctx.progress(`${reason} (the stack is still busy)${count > 1 ? `, ${count} times` : ''}`);
      }
    },
  };
}

/** Seconds since `started` (a `performance.now()`), for progress lines. */
function secondsSince(started: number): string {
  return `${Math.round((performance.now() - started) / 1_000)} s`;
}

/**
 * Providers and requests for `calls` fresh pairs: providers the square root, at least one per
 * connection (so that concurrent calls meet different requests and providers) and at most
 * {@link MAX_ROUTED_PROVIDERS} (a request's routing limit); requests as many as the rest of the
 * calls need, at least as many as providers.
 */
export function pairSides(
  calls: number,
  connections: number,
): { providers: number; requests: number } {
  const providers = Math.min(
    MAX_ROUTED_PROVIDERS,
    Math.max(connections, Math.ceil(Math.sqrt(calls))),
  );
  return { providers, requests: Math.max(providers, Math.ceil(calls / providers)) };
}

/**
 * Jobs of {@link PLAN_MILESTONES} submitted milestones for `calls` approvals: at least one per
 * connection, so that concurrent approvals are on different requests.
 */
export function approvalJobs(calls: number, connections: number): number {
  return Math.max(connections, Math.ceil(calls / PLAN_MILESTONES));
}

/**
 * The approvals per second a pool is sized for, given the milestones per second setup made ready
 * on the same stack: {@link SETUP_PACE_FACTOR} times that, at most {@link APPROVAL_RATE_ESTIMATE}.
 */
export function approvalRateEstimate(setupMilestonesPerS: number): number {
  return Math.min(APPROVAL_RATE_ESTIMATE, SETUP_PACE_FACTOR * setupMilestonesPerS);
}

/** Counts finished setup tasks, with a progress line every `every` of them and at the last. */
function progressCounter(ctx: ScenarioContext, total: number, what: string, every: number) {
  let done = 0;
  return () => {
    done += 1;
    if (done % every === 0 || done === total) ctx.progress(`${done}/${total} ${what}`);
  };
}

/**
 * The load, a closed loop of `call` on keep-alive connections of its own (one per connection,
 * closed at teardown), and the client, for setup to make one call of the load's kind first.
 */
function callLoad(
  ctx: ScenarioContext,
  url: string | readonly string[],
  call: (client: KeepAliveClient) => Promise<void>,
) {
  const client = new KeepAliveClient(url, ctx.connections);
  ctx.teardown(() => client.close());
  return { client, load: { kind: 'call', call: () => call(client) } satisfies CallLoad };
}

/**
 * `POST /v1/provider/requests/{id}/proposals` with the provider's key, every call on a (provider,
 * request) pair without a proposal: P providers, each with a key, and R requests each routed to
 * all of them, for P × R pairs.
 */
export function providerProposal(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'provider-proposal',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway POST /v1/provider/requests/{id}/proposals with a provider key (the request and the provider from intake at once, then milestones' one check query and insert + sequence from the KV bucket + proposal.received to JetStream), a fresh (provider, request) pair each call, shared full stack, LOG_LEVEL=${logLevel}; closed loop over keep-alive HTTP`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      const started = performance.now();
      const calls = setupCalls(ctx);
      const estimate = expectedCalls(PROPOSAL_RATE_ESTIMATE, ctx);
      const side = pairSides(estimate, ctx.connections);
      ctx.progress(
        `onboarding ${side.providers} providers and routing ${side.requests} requests to all ` +
          `of them: ${side.providers * side.requests} fresh pairs for about ${estimate} calls`,
      );
      const onboarded = progressCounter(ctx, side.providers, 'providers onboarded', 10);
      const providers = await times(side.providers, SETUP_CONCURRENCY, async (i) => {
        const provider = await onboardProvider(gateway, `Bench provider ${i + 1}`, calls);
        onboarded();
        return provider;
      });
      const providerIds = providers.map((provider) => provider.id);
      const routed = progressCounter(ctx, side.requests, 'requests routed', 10);
      const requests = await times(side.requests, SETUP_CONCURRENCY, async () => {
        const request = await createRequest(gateway, calls);
        await routeRequest(gateway, request.id, providerIds, calls);
        routed();
        return request;
      });
      const pool = new FreshPool(
        spreadPairs(providers, requests),
        'fresh (provider, request) pairs',
        `${PROPOSAL_RATE_ESTIMATE} calls/s over the warm-up and the measurement, ×1.5, ` +
          `at most ${MAX_ROUTED_PROVIDERS} providers a request`,
      );
      const { client, load } = callLoad(ctx, gateway.urls, async (http) => {
        const [provider, request] = pool.take();
        await propose(http, provider, request);
      });
      // One call of the load's own, so that a path that does not work fails the setup.
      const [provider, request] = pool.take();
      await propose(client, provider, request);
      ctx.progress(`${pool.size} pairs ready after ${secondsSince(started)}`);
      return load;
    },
  };
}

async function propose(
  http: KeepAliveClient,
  provider: ProviderCredentials,
  request: CreatedRequest,
): Promise<void> {
  const proposal = await http.call({
    method: 'POST',
    path: proposalsPath(request.id),
    headers: providerHeaders(provider),
    body: PROPOSAL_BODY,
    expect: 201,
  });
  if (proposal.status !== 'submitted') {
    throw new Error(`the new proposal is ${String(proposal.status)}, not submitted`);
  }
}

/** A submitted milestone and the request it belongs to. */
interface PendingMilestone {
  request: CreatedRequest;
  id: string;
}

/**
 * `POST /v1/request/{id}/milestones/{milestone_id}/approve` with the agent key and the request
 * token, every call on a submitted milestone: jobs of {@link PLAN_MILESTONES} milestones (a
 * request routed to one provider, its proposal with that plan accepted, every milestone submitted
 * by the provider), the milestones taken from the jobs in turn.
 *
 * Setup makes one job per connection first, and sizes the rest of the pool from how fast those
 * were made ({@link approvalRateEstimate}): every pooled milestone costs the stack more writes than
 * its approval will, and on a slow stack a pool sized for the fixed estimate takes minutes to make.
 */
export function milestoneApproval(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'milestone-approval',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway POST /v1/request/{id}/milestones/{id}/approve with an agent key and the request token (token check in intake, then milestones update + sequence from the KV bucket + milestone.approved to JetStream), a submitted milestone each call, ${PLAN_MILESTONES} per job, shared full stack, LOG_LEVEL=${logLevel}; closed loop over keep-alive HTTP`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      const started = performance.now();
      const calls = setupCalls(ctx);
      const providers = await times(ctx.connections, SETUP_CONCURRENCY, (i) =>
        onboardProvider(gateway, `Bench provider ${i + 1}`, calls),
      );
      const makeJobs = async (count: number, first: number) => {
        const ready = progressCounter(ctx, count, 'jobs with submitted milestones', 5);
        return times(count, JOB_CONCURRENCY, async (j) => {
          const provider = providers[(first + j) % providers.length];
          if (!provider) throw new Error('no provider to make a job with');
          const job = await submittedJob(gateway, provider, calls);
          ready();
          return job;
        });
      };

      ctx.progress(
        `onboarded ${providers.length} providers; making ${ctx.connections} jobs of ` +
          `${PLAN_MILESTONES} submitted milestones, one per connection, to see the stack's pace`,
      );
      const paceStarted = performance.now();
      const perJob = await makeJobs(ctx.connections, 0);
      const pace = (perJob.length * PLAN_MILESTONES * 1_000) / (performance.now() - paceStarted);
      const rate = approvalRateEstimate(pace);
      const estimate = expectedCalls(rate, ctx);
      const jobs = approvalJobs(estimate, ctx.connections);
      ctx.progress(
        `${pace.toFixed(1)} milestones/s made ready: sized for ${rate.toFixed(1)} approvals/s, ` +
          `about ${estimate} calls, ${jobs} jobs (${jobs - perJob.length} more)`,
      );
      perJob.push(...(await makeJobs(jobs - perJob.length, perJob.length)));

      const pool = new FreshPool(
        interleave(perJob),
        'submitted milestones',
        `${rate.toFixed(1)} calls/s over the warm-up and the measurement, ×1.5`,
      );
      const { client, load } = callLoad(ctx, gateway.urls, (http) =>
        approve(http, gateway, pool.take()),
      );
      // One call of the load's own, so that a path that does not work fails the setup.
      await approve(client, gateway, pool.take());
      ctx.progress(`${pool.size} submitted milestones ready after ${secondsSince(started)}`);
      return load;
    },
  };
}

/**
 * A request routed to the provider, the provider's proposal with a plan of
 * {@link PLAN_MILESTONES} accepted by the customer's agent, and every milestone submitted.
 */
async function submittedJob(
  gateway: GatewayStack,
  provider: ProviderCredentials,
  calls: SetupCallOptions,
): Promise<PendingMilestone[]> {
  const request = await createRequest(gateway, calls);
  await routeRequest(gateway, request.id, [provider.id], calls);
  const proposalId = await createProposal(gateway, provider, request, PLAN_BODY, calls);
  await acceptProposal(gateway, request, proposalId, calls);
  const milestones = await waitForMilestones(gateway, request, PLAN_MILESTONES, calls);
  // In turn: a request's events take their sequence numbers one at a time anyway.
  for (const milestone of milestones) {
    await submitMilestone(gateway, provider, milestone.id, calls);
  }
  const submitted = await listMilestones(gateway, request, calls);
  const notSubmitted = submitted.filter((milestone) => milestone.status !== 'submitted');
  if (notSubmitted.length > 0) {
    throw new Error(
      `request ${request.id}: ${notSubmitted.length} milestone(s) not submitted after submitting (${notSubmitted[0]?.status})`,
    );
  }
  return milestones.map((milestone): PendingMilestone => ({ request, id: milestone.id }));
}

async function approve(
  http: KeepAliveClient,
  gateway: GatewayStack,
  milestone: PendingMilestone,
): Promise<void> {
  const approved = await http.call({
    method: 'POST',
    path: approvePath(milestone.request.id, milestone.id),
    headers: requestHeaders(gateway, milestone.request),
    expect: 200,
  });
  if (approved.status !== 'approved') {
    throw new Error(`the approved milestone is ${String(approved.status)}, not approved`);
  }
}
