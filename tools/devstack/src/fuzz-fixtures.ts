// `node tools/devstack/src/fuzz-fixtures.ts <out-dir>` (DATA_DIR names the running stack):
// onboards an agent and a provider as `onboard.ts` does, then builds, over HTTP only, a real
// resource in the right state for every operation on an id (a request with its token, proposals,
// an accepted job with milestones, deliverables, disputes, payment requests, payments, access
// applications, a second integration and provider for staff to change), and writes for each
// Schemathesis pass (agent, staff, provider) a TOML fragment of `[[operations]]` blocks that fix
// the path parameters (and the request token) of each operation to them. An operation that moves
// a resource once (accept, withdraw, approve, cancel, ...) gets a resource of its own, so no pass
// and no other operation takes it away first. It prints what onboard.ts prints.
//
// Every step either answers as documented or the script fails naming it: set-up has no chance in
// it, so a Schemathesis run fails only from what it finds.
import { loadEnv } from '@handoff/config';
import { REQUEST_TOKEN_HEADER, SCOPES } from '@handoff/contracts';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { callJson, onboardAgent, stringField, UnexpectedStatusError } from './gateway-client.ts';
import { onboard, shellLines, type Onboarded } from './onboard.ts';

type Body = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface Party {
  bearer: string;
  /** The request token, for the customer's calls on one request. */
  token?: string;
}

/** The path parameters (and request token) one operation is fixed to. */
export interface OperationFixture {
  operationId: string;
  path: Record<string, string>;
  requestToken?: string;
  /**
   * Body members fixed to a value the resource needs (a real milestone id, the job's currency, an
   * amount within the job's): what the document cannot say, so that a valid case is valid for
   * this resource too.
   */
  body?: Record<string, string | number>;
}

export interface FuzzFixtures {
  agent: OperationFixture[];
  staff: OperationFixture[];
  provider: OperationFixture[];
}

const CATEGORY = 'web-development';
/** How long follow-ups of a move (milestones of an accepted plan, a payment) may take. */
const FOLLOW_UP_TIMEOUT_MS = 30_000;
const RETRIES = 10;

const encode = encodeURIComponent;

/** The fixtures of every pass, on the stack at `gatewayUrl`. */
export async function buildFixtures(
  base: Onboarded,
  /** The stack's Mailpit, where the sign-in link of a session for staff to revoke arrives. */
  mailUrl: string,
): Promise<FuzzFixtures> {
  const url = base.gateway_url;
  const staff: Party = { bearer: base.staff_token };
  const agent: Party = { bearer: base.api_key };
  const provider: Party = { bearer: base.provider_key };

  /**
   * One call; a 503 (a service slow to answer on a busy machine) is tried again, and a 409 on a
   * later try means the earlier one did it: `recover` then gives its result.
   */
  async function call(
    who: Party,
    method: Method,
    path: string,
    expect: number,
    body?: unknown,
    recover?: () => Promise<Body>,
  ): Promise<Body> {
    const headers: Record<string, string> = { Authorization: `Bearer ${who.bearer}` };
    if (who.token) headers[REQUEST_TOKEN_HEADER] = who.token;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await callJson(
          `${method} ${path}`,
          `${url}${path}`,
          { method, headers, body, expect },
          undefined,
        );
      } catch (error) {
        if (!(error instanceof UnexpectedStatusError) || attempt >= RETRIES) throw error;
        if (error.status === 409 && attempt > 1 && recover) return recover();
        if (error.status !== 503) throw error;
        await sleep(500 * attempt);
      }
    }
  }

  /** `produce` until it gives a value, for a follow-up that happens after a move answered. */
  async function eventually<T>(what: string, produce: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + FOLLOW_UP_TIMEOUT_MS;
    for (;;) {
      const value = await produce();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not there after 30 s`);
      await sleep(200);
    }
  }

  const list = async (who: Party, path: string): Promise<Body[]> =>
    (await call(who, 'GET', path, 200)).data as Body[];

  interface Req {
    id: string;
    token: string;
    customer: Party;
    r: string;
  }

  /** A request, routed by staff to the provider. */
  async function request(label: string, extra: Body = {}, route = true): Promise<Req> {
    const created = await call(agent, 'POST', '/v1/ai-to-human-request', 201, {
      message: `Fuzz fixture: ${label}.`,
      category: CATEGORY,
      name: 'Fuzz Customer',
      email: 'fuzz@example.com',
      contact_permission: true,
      budget_min: 100,
      budget_max: 100_000,
      ...extra,
    });
    const id = stringField(label, created, 'id');
    const token = stringField(label, created, 'request_token');
    if (route) {
      await call(staff, 'PATCH', `/v1/staff/requests/${encode(id)}`, 200, {
        status: 'routed',
        routing: { mode: 'direct', provider_ids: [base.provider_id] },
      });
    }
    return { id, token, customer: { ...agent, token }, r: `/v1/request/${encode(id)}` };
  }

  async function propose(req: Req, milestones: number): Promise<string> {
    const path = `/v1/provider/requests/${encode(req.id)}/proposals`;
    const amount = 1000 * Math.max(milestones, 1);
    const created = await call(
      provider,
      'POST',
      path,
      201,
      {
        message: 'Fuzz fixture proposal.',
        amount,
        currency: 'USD',
        estimated_days: 30,
        ...(milestones > 0
          ? {
              milestones: Array.from({ length: milestones }, (_, i) => ({
                title: `Milestone ${i + 1}`,
                amount: 1000,
                due_in_days: 30,
              })),
            }
          : {}),
      },
      async () => {
        const found = (await list(req.customer, `${req.r}/proposals?limit=100`)).find(
          (p) => p.status === 'submitted',
        );
        if (!found) throw new Error(`propose on ${req.id}: 409 after a 503, and no proposal`);
        return found;
      },
    );
    return stringField('propose', created, 'id');
  }

  interface Engagement extends Req {
    jobId: string;
    milestoneIds: string[];
  }

  /** A request with an accepted proposal: its job and its planned milestones, all `open`. */
  async function engagement(label: string, milestones: number): Promise<Engagement> {
    const req = await request(label);
    const proposalId = await propose(req, milestones);
    await call(
      req.customer,
      'POST',
      `${req.r}/proposals/${encode(proposalId)}/accept`,
      200,
      undefined,
      () => Promise.resolve({}),
    );
    const jobId = await eventually(`the job of ${label}`, async () => {
      const jobs = await list(req.customer, `${req.r}/jobs`);
      return jobs[0] ? stringField('job', jobs[0], 'id') : undefined;
    });
    const milestoneIds = await eventually(`the milestones of ${label}`, async () => {
      const found = await list(req.customer, `${req.r}/milestones?limit=100`);
      return found.length >= milestones
        ? found.map((m) => stringField('milestone', m, 'id')).sort()
        : undefined;
    });
    return { ...req, jobId, milestoneIds };
  }

  const m = (id: string) => `/v1/provider/milestones/${encode(id)}`;
  const deliver = async (milestoneId: string, title: string) =>
    stringField(
      'deliverable',
      await call(provider, 'POST', `${m(milestoneId)}/deliverables`, 201, {
        title,
        url: 'https://preview.example.com/fuzz',
      }),
      'id',
    );
  const submit = (milestoneId: string) =>
    call(provider, 'POST', `${m(milestoneId)}/submit`, 200, { note: 'Fuzz fixture.' });
  const dispute = async (req: Req) =>
    stringField(
      'dispute',
      await call(req.customer, 'POST', `${req.r}/disputes`, 201, {
        kind: 'dispute',
        reason: 'Fuzz fixture dispute.',
      }),
      'id',
    );
  const paymentRequest = async (req: Req) =>
    stringField(
      'payment request',
      await call(req.customer, 'POST', `${req.r}/payment-request`, 201, {
        amount: 100,
        currency: 'USD',
        description: 'Fuzz fixture payment request.',
      }),
      'id',
    );
  /** A payment request staff approve, and the payment it makes (`pending`). */
  async function payment(req: Req): Promise<string> {
    const prq = await paymentRequest(req);
    await call(staff, 'POST', `/v1/staff/payment-requests/${encode(prq)}/approve`, 200);
    return eventually('the payment', async () => {
      const found = (
        await list(staff, `/v1/staff/payments?request_id=${encode(req.id)}&limit=100`)
      ).find((p) => p.payment_request_id === prq);
      return found ? stringField('payment', found, 'id') : undefined;
    });
  }

  // The agent's engagement: milestones to approve, to send back, and to keep open; a deliverable,
  // disputes to comment on and to withdraw.
  const main = await engagement('the main engagement', 4);
  const [toApprove, toSendBack, open, toSubmit] = main.milestoneIds as [
    string,
    string,
    string,
    string,
  ];
  const deliverable = await deliver(toApprove, 'For approval');
  await deliver(toSendBack, 'For changes');
  await submit(toApprove);
  await submit(toSendBack);
  const toWithdraw = await deliver(open, 'To withdraw');
  const kept = await deliver(open, 'Kept');
  const openDispute = await dispute(main);
  // A payment request of the agent's own to read, and one staff approved (a payment to list).
  const mainPaymentRequest = await paymentRequest(main);
  await payment(main);
  const disputeToWithdraw = await dispute(main);

  // Proposals to accept and to decline: accepting one declines the rest, so each has a request.
  const toAcceptOn = await request('a proposal to accept');
  const proposalToAccept = await propose(toAcceptOn, 1);
  const toDeclineOn = await request('a proposal to decline');
  const proposalToDecline = await propose(toDeclineOn, 0);
  // The provider's: one to withdraw, and a request it has not proposed on.
  const toWithdrawOn = await request('a proposal to withdraw');
  const proposalToWithdraw = await propose(toWithdrawOn, 0);
  const unproposed = await request('a request to propose on');

  // Staff's: disputes to escalate and resolve, payment requests to approve and reject, payments
  // to confirm and fail, a job and a milestone to cancel, a job the provider completes.
  const staffWork = await engagement("staff's engagement", 1);
  const disputeToEscalate = await dispute(staffWork);
  const disputeToResolve = await dispute(staffWork);
  const prqToApprove = await paymentRequest(staffWork);
  const prqToReject = await paymentRequest(staffWork);
  const paymentToConfirm = await payment(staffWork);
  const paymentToFail = await payment(staffWork);
  const toCancel = await engagement('a job to cancel', 1);
  const toComplete = await engagement('a job to complete', 1);
  await deliver(toComplete.milestoneIds[0] as string, 'Done');
  await submit(toComplete.milestoneIds[0] as string);
  await call(
    toComplete.customer,
    'POST',
    `${toComplete.r}/milestones/${encode(toComplete.milestoneIds[0] as string)}/approve`,
    200,
  );
  const toChange = await request('a request for staff to change', {}, false);
  const toReview = await request('a marketplace publication', { marketplace_opt_in: true }, false);

  // Access: applications to approve and reject, and an integration of its own with a key.
  const apply = async (label: string) =>
    stringField(
      'apply',
      await callJson(
        'apply',
        `${url}/v1/access-applications`,
        {
          method: 'POST',
          body: {
            app_name: `Fuzz ${label}`,
            description: 'A fuzz fixture.',
            contact_email: 'fuzz@example.com',
            requested_scopes: [...SCOPES],
          },
          expect: 201,
        },
        undefined,
      ),
      'id',
    );
  const applicationToApprove = await apply('to approve');
  const applicationToReject = await apply('to reject');
  const second = await onboardAgent({
    gatewayUrl: url,
    staffToken: base.staff_token,
    scopes: [...SCOPES],
    appName: 'Fuzz integration for staff',
  });
  // The second integration's webhook endpoint (deliveries fail: nothing listens there) and an
  // event of its, for staff to read attempts, rotate secrets and redeliver.
  const secondAgent: Party = { bearer: second.api_key };
  const hookId = stringField(
    'webhook endpoint',
    await call(secondAgent, 'POST', '/v1/webhook-endpoints', 201, {
      url: 'http://127.0.0.1:9/fuzz-hook',
    }),
    'id',
  );
  const secondRequest = stringField(
    'request of the second integration',
    await call(secondAgent, 'POST', '/v1/ai-to-human-request', 201, {
      message: 'Fuzz fixture: an event to redeliver.',
      email: 'fuzz@example.com',
    }),
    'id',
  );
  const eventToRedeliver = await eventually('the event to redeliver', async () => {
    const [event] = await list(
      secondAgent,
      `/v1/events?request_id=${encode(secondRequest)}&limit=1`,
    );
    return event ? stringField('event', event, 'id') : undefined;
  });
  const otherProvider = await call(staff, 'POST', '/v1/staff/providers', 201, {
    name: 'Fuzz provider for staff',
    email: 'fuzz-provider@example.com',
    categories: [CATEGORY],
  });
  const otherProviderId = stringField('provider', otherProvider, 'id');
  const spareProviderKey = stringField(
    'provider key',
    await call(staff, 'POST', `/v1/staff/providers/${encode(otherProviderId)}/keys`, 201, {}),
    'key_id',
  );
  // A workspace session of that provider, signed in through its mailed link, for staff to revoke.
  const sessionToRevoke = await signedInSession(url, mailUrl, 'fuzz-provider@example.com');

  const onMain = (operationId: string, path: Record<string, string> = {}): OperationFixture => ({
    operationId,
    path: { id: main.id, ...path },
    requestToken: main.token,
  });
  return {
    agent: [
      onMain('getRequest'),
      onMain('listDeliverables'),
      onMain('getDeliverable', { deliverable_id: deliverable }),
      onMain('listDisputes'),
      {
        ...onMain('openDispute'),
        body: { milestone_id: open, currency: 'USD', amount: 100 },
      },
      onMain('getDispute', { dispute_id: openDispute }),
      onMain('commentOnDispute', { dispute_id: openDispute }),
      onMain('withdrawDispute', { dispute_id: disputeToWithdraw }),
      onMain('waitForRequestUpdates'),
      onMain('listRequestMessages'),
      onMain('listRequestPaymentRequests'),
      onMain('getRequestPaymentRequest', { payment_request_id: mainPaymentRequest }),
      onMain('listRequestPayments'),
      onMain('listJobs'),
      onMain('getJob', { job_id: main.jobId }),
      onMain('sendMessage'),
      onMain('listMilestones'),
      onMain('getMilestone', { milestone_id: toApprove }),
      onMain('approveMilestone', { milestone_id: toApprove }),
      onMain('requestMilestoneChanges', { milestone_id: toSendBack }),
      onMain('proposePaymentRequest'),
      onMain('listProposals'),
      {
        operationId: 'getProposal',
        path: { id: toDeclineOn.id, proposal_id: proposalToDecline },
        requestToken: toDeclineOn.token,
      },
      {
        operationId: 'acceptProposal',
        path: { id: toAcceptOn.id, proposal_id: proposalToAccept },
        requestToken: toAcceptOn.token,
      },
      {
        operationId: 'declineProposal',
        path: { id: toDeclineOn.id, proposal_id: proposalToDecline },
        requestToken: toDeclineOn.token,
      },
    ],
    provider: [
      { operationId: 'getProviderDeliverable', path: { id: kept } },
      { operationId: 'withdrawDeliverable', path: { id: toWithdraw } },
      { operationId: 'getProviderDispute', path: { id: openDispute } },
      { operationId: 'commentOnDisputeAsProvider', path: { id: openDispute } },
      { operationId: 'getProviderJob', path: { id: main.jobId } },
      { operationId: 'completeJob', path: { id: toComplete.jobId } },
      { operationId: 'createMilestone', path: { id: main.jobId }, body: { currency: 'USD' } },
      { operationId: 'getProviderMilestone', path: { id: open } },
      { operationId: 'createDeliverable', path: { id: open } },
      { operationId: 'updateMilestoneProgress', path: { id: open } },
      { operationId: 'submitMilestone', path: { id: toSubmit } },
      { operationId: 'getProviderProposal', path: { id: proposalToWithdraw } },
      { operationId: 'withdrawProposal', path: { id: proposalToWithdraw } },
      { operationId: 'getProviderRequest', path: { id: main.id } },
      { operationId: 'sendProviderMessage', path: { id: main.id } },
      { operationId: 'createProposal', path: { id: unproposed.id } },
    ],
    staff: [
      { operationId: 'getAccessApplicationAsStaff', path: { id: applicationToApprove } },
      { operationId: 'approveAccessApplication', path: { id: applicationToApprove } },
      { operationId: 'rejectAccessApplication', path: { id: applicationToReject } },
      { operationId: 'getDisputeAsStaff', path: { id: disputeToEscalate } },
      { operationId: 'commentOnDisputeAsStaff', path: { id: disputeToEscalate } },
      { operationId: 'escalateDispute', path: { id: disputeToEscalate } },
      { operationId: 'resolveDispute', path: { id: disputeToResolve } },
      { operationId: 'getIntegration', path: { id: second.integration_id } },
      { operationId: 'listWebhookEndpointsAsStaff', path: { id: second.integration_id } },
      {
        operationId: 'listWebhookAttemptsAsStaff',
        path: { id: second.integration_id, endpoint_id: hookId },
      },
      {
        operationId: 'rotateWebhookEndpointSecretAsStaff',
        path: { id: second.integration_id, endpoint_id: hookId },
      },
      {
        operationId: 'redeliverEventAsStaff',
        path: { id: second.integration_id, event_id: eventToRedeliver },
      },
      { operationId: 'updateIntegration', path: { id: second.integration_id } },
      { operationId: 'issueApiKey', path: { id: second.integration_id } },
      { operationId: 'cancelJob', path: { id: toCancel.jobId } },
      { operationId: 'revokeApiKey', path: { key_id: second.key_id } },
      { operationId: 'cancelMilestone', path: { id: staffWork.milestoneIds[0] as string } },
      { operationId: 'approvePaymentRequest', path: { id: prqToApprove } },
      { operationId: 'rejectPaymentRequest', path: { id: prqToReject } },
      { operationId: 'getPayment', path: { id: paymentToConfirm } },
      { operationId: 'confirmPayment', path: { id: paymentToConfirm } },
      { operationId: 'failPayment', path: { id: paymentToFail } },
      { operationId: 'revokeProviderKey', path: { key_id: spareProviderKey } },
      { operationId: 'listProviderSessions', path: { id: otherProviderId } },
      { operationId: 'revokeProviderSession', path: { session_id: sessionToRevoke } },
      { operationId: 'getProvider', path: { id: otherProviderId } },
      { operationId: 'updateProvider', path: { id: otherProviderId } },
      { operationId: 'issueProviderKey', path: { id: otherProviderId } },
      { operationId: 'getRequestAsStaff', path: { id: toChange.id } },
      { operationId: 'getRequestTimeline', path: { id: toChange.id } },
      {
        operationId: 'updateRequest',
        path: { id: toChange.id },
        // Routing names active providers only.
        body: { 'routing.provider_ids.*': base.provider_id },
      },
      { operationId: 'reviewMarketplacePublication', path: { id: toReview.id } },
    ],
  };
}

/**
 * A provider's workspace session, opened as the provider would: the sign-in link asked for, read
 * from the mail in Mailpit, and used. Answers the session's id.
 */
async function signedInSession(gatewayUrl: string, mailUrl: string, email: string) {
  await callJson(
    'ask for a sign-in link',
    `${gatewayUrl}/v1/workspace/sign-in`,
    { method: 'POST', body: { email }, expect: 202 },
    undefined,
  );
  const query = encodeURIComponent(`to:"${email}" subject:"sign-in link"`);
  const deadline = Date.now() + FOLLOW_UP_TIMEOUT_MS;
  for (;;) {
    const found = (await (await fetch(`${mailUrl}/api/v1/search?query=${query}`)).json()) as {
      messages: { ID: string }[];
    };
    const [newest] = found.messages;
    if (newest) {
      const mail = (await (await fetch(`${mailUrl}/api/v1/message/${newest.ID}`)).json()) as {
        Text: string;
      };
      const token = /#token=(hsl_[0-9A-Za-z]+)/.exec(mail.Text)?.[1];
      if (!token) throw new Error('the sign-in mail has no link');
      const session = await callJson(
        'sign in',
        `${gatewayUrl}/v1/workspace/session`,
        { method: 'POST', body: { token }, expect: 201 },
        undefined,
      );
      return stringField('session', session, 'id');
    }
    if (Date.now() > deadline) throw new Error('no sign-in mail after 30 s');
    await sleep(200);
  }
}

/**
 * The body members each operation's valid cases must hold, by operationId, for the hooks of
 * scripts/schemathesis.sh (a dotted path; `*` is every item of an array).
 */
export function bodiesJson(fixtures: FuzzFixtures): string {
  const all = [...fixtures.agent, ...fixtures.staff, ...fixtures.provider];
  return `${JSON.stringify(
    Object.fromEntries(
      all.flatMap((fixture) => (fixture.body ? [[fixture.operationId, fixture.body]] : [])),
    ),
    null,
    2,
  )}\n`;
}

/** A TOML basic string. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * `[[operations]]` blocks fixing each operation's path parameters and request token (its body
 * members go to {@link bodiesJson}: Schemathesis's coverage phase does not apply body overrides).
 */
export function operationsToml(fixtures: readonly OperationFixture[]): string {
  return fixtures
    .map((fixture) => {
      const parameters = Object.entries(fixture.path).map(
        ([name, value]) => `${tomlString(`path.${name}`)} = ${tomlString(value)}`,
      );
      if (fixture.requestToken !== undefined) {
        parameters.push(
          `${tomlString(`header.${REQUEST_TOKEN_HEADER}`)} = ${tomlString(fixture.requestToken)}`,
        );
      }
      return [
        '[[operations]]',
        `include-operation-id = ${tomlString(fixture.operationId)}`,
        `parameters = { ${parameters.join(', ')} }`,
        '',
      ].join('\n');
    })
    .join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const out = process.argv[2];
    if (!out) throw new Error('usage: fuzz-fixtures.ts <out-dir>');
    const env = loadEnv(
      'fuzz-fixtures',
      z.object({ DATA_DIR: z.string(), STAFF_JWT_SECRET: z.string().optional() }),
    );
    const onboarded = await onboard({
      dataDir: env.DATA_DIR,
      staffJwtSecret: env.STAFF_JWT_SECRET,
      appName: 'Fuzz agent',
    });
    const state = JSON.parse(readFileSync(join(env.DATA_DIR, 'stack.json'), 'utf8')) as {
      mail_url?: string;
    };
    if (!state.mail_url) throw new Error('the stack has no Mailpit (mail_url in stack.json)');
    const fixtures = await buildFixtures(onboarded, state.mail_url);
    mkdirSync(out, { recursive: true });
    for (const pass of ['agent', 'staff', 'provider'] as const) {
      writeFileSync(join(out, `${pass}.toml`), operationsToml(fixtures[pass]));
    }
    writeFileSync(join(out, 'bodies.json'), bodiesJson(fixtures));
    process.stdout.write(shellLines(onboarded));
  } catch (error) {
    process.stderr.write(
      `fuzz-fixtures: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
