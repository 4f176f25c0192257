import { SCOPES } from '@handoff/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { callJson, stringField } from '../gateway-client.ts';
import type { Onboarded } from '../onboard.ts';
import {
  FOLLOW_UP_TIMEOUT_MS,
  followUp,
  type Body,
  type FixtureCaller,
  type Party,
} from './caller.ts';

export const CATEGORY = 'web-development';

const encode = encodeURIComponent;

/** A request of the agent's, and the customer's side of it. */
export interface Req {
  id: string;
  token: string;
  customer: Party;
  /** Its path in the agent's API. */
  r: string;
}

/** A request with an accepted proposal: its job and its planned milestones. */
export interface Engagement extends Req {
  jobId: string;
  milestoneIds: string[];
}

/** The parties of the onboarded stack. */
const partiesOf = (base: Onboarded): Record<'staff' | 'agent' | 'provider', Party> => ({
  staff: { bearer: base.staff_token },
  agent: { bearer: base.api_key },
  provider: { bearer: base.provider_key },
});

/** Requests, proposals on them, and engagements (a request with an accepted proposal). */
function requestMaker(base: Onboarded, { call, list }: FixtureCaller) {
  const { staff, agent, provider } = partiesOf(base);

  /** A request, routed by staff to the provider unless `route` is false. */
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

  /** The provider's proposal on a request, with a plan of `milestones` (none: no plan). */
  async function propose(req: Req, milestones: number): Promise<string> {
    const plan = Array.from({ length: milestones }, (_, i) => ({
      title: `Milestone ${i + 1}`,
      amount: 1000,
      due_in_days: 30,
    }));
    const created = await call(
      provider,
      'POST',
      `/v1/provider/requests/${encode(req.id)}/proposals`,
      201,
      {
        message: 'Fuzz fixture proposal.',
        amount: 1000 * Math.max(milestones, 1),
        currency: 'USD',
        estimated_days: 30,
        ...(milestones > 0 ? { milestones: plan } : {}),
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

  /** A request with an accepted proposal: its job and its planned milestones, all `open`. */
  async function engagement(label: string, milestones: number): Promise<Engagement> {
    const req = await request(label);
    const proposalId = await propose(req, milestones);
    const accept = `${req.r}/proposals/${encode(proposalId)}/accept`;
    await call(req.customer, 'POST', accept, 200, undefined, () => Promise.resolve({}));
    const jobId = await followUp(`the job of ${label}`, async () => {
      const jobs = await list(req.customer, `${req.r}/jobs`);
      return jobs[0] ? stringField('job', jobs[0], 'id') : undefined;
    });
    const milestoneIds = await followUp(`the milestones of ${label}`, async () => {
      const found = await list(req.customer, `${req.r}/milestones?limit=100`);
      return found.length >= milestones
        ? found.map((m) => stringField('milestone', m, 'id')).sort()
        : undefined;
    });
    return { ...req, jobId, milestoneIds };
  }

  /**
   * A request offered to the provider and waiting for its answer: staff's offer (the provider's
   * engagements already hold more than the rules would give it).
   */
  async function offered(label: string): Promise<Req> {
    const req = await request(label, {}, false);
    await call(staff, 'POST', `/v1/staff/requests/${encode(req.id)}/routing`, 200, {
      action: 'offer',
      provider_id: base.provider_id,
      reason: 'Fuzz fixture: an offer to answer.',
    });
    return req;
  }

  return { request, propose, engagement, offered };
}

/** What is made on a request or the stack: deliverables, disputes, payments, applications. */
function workMaker(base: Onboarded, caller: FixtureCaller) {
  const { call, list } = caller;
  const { staff, provider } = partiesOf(base);
  /** Makes a thing with one call and answers its id. */
  const made = async (what: string, answer: Promise<Body>, field = 'id') =>
    stringField(what, await answer, field);
  const m = (id: string) => `/v1/provider/milestones/${encode(id)}`;
  const link = { url: 'https://preview.example.com/fuzz' };
  const paymentRequest = (req: Req) =>
    made(
      'payment request',
      call(req.customer, 'POST', `${req.r}/payment-request`, 201, {
        amount: 100,
        currency: 'USD',
        description: 'Fuzz fixture payment request.',
      }),
    );

  return {
    made,
    paymentRequest,
    /** A link to the provider's work on a milestone. */
    deliver: (milestoneId: string, title: string) =>
      made(
        'deliverable',
        call(provider, 'POST', `${m(milestoneId)}/deliverables`, 201, { title, ...link }),
      ),
    submit: (milestoneId: string) =>
      call(provider, 'POST', `${m(milestoneId)}/submit`, 200, { note: 'Fuzz fixture.' }),
    dispute: (req: Req) =>
      made(
        'dispute',
        call(req.customer, 'POST', `${req.r}/disputes`, 201, {
          kind: 'dispute',
          reason: 'Fuzz fixture dispute.',
        }),
      ),
    /** A payment request staff approve, and the payment it makes (`pending`). */
    async payment(req: Req): Promise<string> {
      const prq = await paymentRequest(req);
      await call(staff, 'POST', `/v1/staff/payment-requests/${encode(prq)}/approve`, 200);
      return followUp('the payment', async () => {
        const found = (
          await list(staff, `/v1/staff/payments?request_id=${encode(req.id)}&limit=100`)
        ).find((p) => p.payment_request_id === prq);
        return found ? stringField('payment', found, 'id') : undefined;
      });
    },
    /** An access application with every scope, as an agent's developer submits it. */
    apply: (label: string) =>
      made(
        'apply',
        callJson(
          'apply',
          `${caller.url}/v1/access-applications`,
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
      ),
  };
}

/**
 * What the fixtures are made of, each over HTTP as its party makes it: requests, proposals,
 * engagements, deliverables, disputes, payment requests and payments, access applications.
 */
export const resourceMaker = (base: Onboarded, caller: FixtureCaller) => ({
  staff: partiesOf(base).staff,
  ...requestMaker(base, caller),
  ...workMaker(base, caller),
});

export type ResourceMaker = ReturnType<typeof resourceMaker>;

/**
 * A provider's workspace session, opened as the provider would: the sign-in link asked for, read
 * from the mail in Mailpit, and used. Answers the session's id.
 */
export async function signedInSession(gatewayUrl: string, mailUrl: string, email: string) {
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
