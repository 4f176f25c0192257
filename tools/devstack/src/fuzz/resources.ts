import { REQUEST_TOKEN_HEADER, SCOPES } from '@handoff/contracts';
import { onboardAgent, stringField } from '../gateway-client.ts';
import type { Onboarded } from '../onboard.ts';
import { fixtureCaller, followUp, type FixtureCaller, type Party } from './caller.ts';
import { CATEGORY, resourceMaker, signedInSession, type ResourceMaker } from './makers.ts';

const encode = encodeURIComponent;

/**
 * The agent's engagement: milestones to approve, to send back, and to keep open; deliverables,
 * disputes to comment on and to withdraw, a payment request and a payment; and a routed request
 * to cancel.
 */
async function agentWork(make: ResourceMaker) {
  const main = await make.engagement('the main engagement', 4);
  const [toApprove, toSendBack, open, toSubmit] = main.milestoneIds as [
    string,
    string,
    string,
    string,
  ];
  const deliverable = await make.deliver(toApprove, 'For approval');
  await make.deliver(toSendBack, 'For changes');
  await make.submit(toApprove);
  await make.submit(toSendBack);
  const toWithdraw = await make.deliver(open, 'To withdraw');
  const kept = await make.deliver(open, 'Kept');
  const openDispute = await make.dispute(main);
  // A payment request of the agent's own to read, and one staff approved (a payment to list).
  const mainPaymentRequest = await make.paymentRequest(main);
  await make.payment(main);
  const disputeToWithdraw = await make.dispute(main);
  // Cancelling moves a request once, and only before a provider is engaged: one of its own.
  const toCancel = await make.request('a request for its agent to cancel');
  return {
    main,
    toCancel,
    milestones: { toApprove, toSendBack, open, toSubmit },
    deliverable,
    toWithdraw,
    kept,
    openDispute,
    mainPaymentRequest,
    disputeToWithdraw,
  };
}

/** Proposals to accept and to decline (accepting one declines the rest, so each has a request). */
async function proposalWork(make: ResourceMaker) {
  const toAcceptOn = await make.request('a proposal to accept');
  const proposalToAccept = await make.propose(toAcceptOn, 1);
  const toDeclineOn = await make.request('a proposal to decline');
  const proposalToDecline = await make.propose(toDeclineOn, 0);
  // The provider's: one to withdraw, and a request it has not proposed on.
  const toWithdrawOn = await make.request('a proposal to withdraw');
  const proposalToWithdraw = await make.propose(toWithdrawOn, 0);
  const unproposed = await make.request('a request to propose on');
  return {
    toAcceptOn,
    proposalToAccept,
    toDeclineOn,
    proposalToDecline,
    proposalToWithdraw,
    unproposed,
  };
}

/**
 * Staff's: disputes to escalate and resolve, payment requests to approve and reject, payments to
 * confirm and fail, a job and a milestone to cancel, a job the provider completes, requests to
 * change and to review for the marketplace.
 */
async function staffWork(make: ResourceMaker, { call }: FixtureCaller) {
  const engaged = await make.engagement("staff's engagement", 1);
  const disputeToEscalate = await make.dispute(engaged);
  const disputeToResolve = await make.dispute(engaged);
  const prqToApprove = await make.paymentRequest(engaged);
  const prqToReject = await make.paymentRequest(engaged);
  const paymentToConfirm = await make.payment(engaged);
  const paymentToFail = await make.payment(engaged);
  const toCancel = await make.engagement('a job to cancel', 1);
  const toComplete = await make.engagement('a job to complete', 1);
  const done = toComplete.milestoneIds[0] as string;
  await make.deliver(done, 'Done');
  await make.submit(done);
  const approve = `${toComplete.r}/milestones/${encode(done)}/approve`;
  await call(toComplete.customer, 'POST', approve, 200);
  return {
    milestoneToCancel: engaged.milestoneIds[0] as string,
    disputeToEscalate,
    disputeToResolve,
    prqToApprove,
    prqToReject,
    paymentToConfirm,
    paymentToFail,
    toCancel,
    toComplete,
    toChange: await make.request('a request for staff to change', {}, false),
    toReview: await make.request('a marketplace publication', { marketplace_opt_in: true }, false),
  };
}

/**
 * Access: applications to approve and reject; a second integration with a key, a webhook endpoint
 * (deliveries fail: nothing listens there) and an event to redeliver; a second provider with a
 * spare key and a workspace session for staff to revoke.
 */
async function accessWork(
  base: Onboarded,
  { call, list, url }: FixtureCaller,
  make: ResourceMaker,
  mailUrl: string,
) {
  const applicationToApprove = await make.apply('to approve');
  const applicationToReject = await make.apply('to reject');
  const second = await onboardAgent({
    gatewayUrl: url,
    staffToken: base.staff_token,
    scopes: [...SCOPES],
    appName: 'Fuzz integration for staff',
  });
  const secondAgent: Party = { bearer: second.api_key };
  const hookId = await make.made(
    'webhook endpoint',
    call(secondAgent, 'POST', '/v1/webhook-endpoints', 201, {
      url: 'http://127.0.0.1:9/fuzz-hook',
    }),
  );
  const secondRequest = await make.made(
    'request of the second integration',
    call(secondAgent, 'POST', '/v1/ai-to-human-request', 201, {
      message: 'Fuzz fixture: an event to redeliver.',
      email: 'fuzz@example.com',
    }),
  );
  const eventToRedeliver = await followUp('the event to redeliver', async () => {
    const [event] = await list(
      secondAgent,
      `/v1/events?request_id=${encode(secondRequest)}&limit=1`,
    );
    return event ? stringField('event', event, 'id') : undefined;
  });
  const otherProviderId = await make.made(
    'provider',
    call(make.staff, 'POST', '/v1/staff/providers', 201, {
      name: 'Fuzz provider for staff',
      email: 'fuzz-provider@example.com',
      categories: [CATEGORY],
    }),
  );
  const spareProviderKey = await make.made(
    'provider key',
    call(make.staff, 'POST', `/v1/staff/providers/${encode(otherProviderId)}/keys`, 201, {}),
    'key_id',
  );
  return {
    applicationToApprove,
    applicationToReject,
    second,
    hookId,
    eventToRedeliver,
    otherProviderId,
    spareProviderKey,
    sessionToRevoke: await signedInSession(url, mailUrl, 'fuzz-provider@example.com'),
  };
}

/** Routing's: offers for the provider to accept and to decline, a request for staff to steer. */
async function routingWork(make: ResourceMaker) {
  return {
    toAccept: await make.offered('an offer to accept'),
    toDecline: await make.offered('an offer to decline'),
    toSteer: await make.request('a request for staff to steer', {}, false),
  };
}

/**
 * A file of the agent's in the main request's conversation, for the reads of one file (an upload's
 * body is the file's bytes, not JSON, so it is sent here rather than through the JSON caller).
 */
async function agentFile(base: Onboarded, request: { id: string; token: string }) {
  const step = 'upload a file to the main request';
  const res = await fetch(
    `${base.gateway_url}/v1/request/${encode(request.id)}/files?filename=fixture.txt`,
    {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${base.api_key}`,
        [REQUEST_TOKEN_HEADER]: request.token,
        'Content-Type': 'text/plain',
      },
      body: 'A file the fuzz fixtures uploaded.\n',
    },
  );
  const text = await res.text();
  if (res.status !== 201) throw new Error(`${step}: answered ${res.status}: ${text.slice(0, 500)}`);
  return stringField(step, JSON.parse(text) as Record<string, unknown>, 'id');
}

/** Every resource the passes' operations act on, each made for the operations that use it. */
export async function buildResources(base: Onboarded, mailUrl: string) {
  const caller = fixtureCaller(base.gateway_url);
  const make = resourceMaker(base, caller);
  const agent = await agentWork(make);
  return {
    providerId: base.provider_id,
    agent: { ...agent, file: await agentFile(base, agent.main) },
    proposals: await proposalWork(make),
    staff: await staffWork(make, caller),
    access: await accessWork(base, caller, make, mailUrl),
    routing: await routingWork(make),
  };
}

export type Resources = Awaited<ReturnType<typeof buildResources>>;
