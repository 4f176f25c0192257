import { describe, expect, it } from '@jest/globals';
import { REQUEST_VIEWS, SEQUENCES_BUCKET } from '@handoff/contracts';
import { eventually, natsOptions } from '@handoff/testkit';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { http, type Onboarded } from './support/http.ts';
import {
  CUSTOMER,
  ENGAGEMENT_SCOPES,
  useStack,
  type OwnedRequest,
  type Stack,
} from './support/stack.ts';

const stack = useStack('gw_views', { oneDatabase: true });

/** The request's view, once it holds every event the request was given a number for. */
async function currentView(nc: NatsConnection, requestId: string) {
  const [views, sequences] = await Promise.all([
    new Kvm(nc).open(REQUEST_VIEWS.bucket),
    new Kvm(nc).open(SEQUENCES_BUCKET.name),
  ]);
  return eventually(
    async () => {
      const [view, sequence] = await Promise.all([views.get(requestId), sequences.get(requestId)]);
      if (!view || !sequence || view.operation !== 'PUT') return undefined;
      const { last } = sequence.json<{ last: number }>();
      const held = view.json<{ upto: number }>();
      return held.upto >= last ? { views, held } : undefined;
    },
    { what: `the view of ${requestId} to catch up` },
  );
}

/** The agent's read through a gateway of its own (nothing held in its caches). */
async function freshRead(s: Stack, agent: Onboarded, request: OwnedRequest) {
  const gateway = await s.extraGateway();
  try {
    const read = await http(gateway, `/v1/request/${request.id}`, {
      token: agent.key,
      headers: { 'X-Service-Request-Token': request.token },
    });
    expect(read.status).toBe(200);
    return read.body;
  } finally {
    await gateway.stop();
  }
}

describe("the agents' read model", () => {
  it('answers exactly what the services answer, through a whole engagement', async () => {
    const agent = await stack.agentOf(ENGAGEMENT_SCOPES);
    const provider = await stack.providerOf();
    const { request } = await stack.engagement(agent, provider);
    for (const message of ['From the agent', 'Again from the agent']) {
      expect(
        (await stack.asCustomer(agent, request, '/message', { body: { message } })).status,
      ).toBe(201);
    }
    expect(
      (
        await stack.asProvider(provider, `/requests/${request.id}/messages`, {
          body: { message: 'From the provider' },
        })
      ).status,
    ).toBe(201);
    const proposed = await stack.asCustomer(agent, request, '/payment-request', {
      body: { amount: 80, description: 'Parts' },
    });
    expect(proposed.status).toBe(201);
    const approved = await stack.asStaff(`/payment-requests/${String(proposed.body.id)}/approve`, {
      method: 'POST',
    });
    expect(approved.status).toBe(200);

    const nc = await connect(natsOptions());
    try {
      const { views, held } = await currentView(nc, request.id);
      const fromView = await freshRead(stack, agent, request);
      // The same read with no view (through the stack's gateway, which never read the request):
      // the services answer it, and it becomes the view again.
      await views.purge(request.id);
      const read = await stack.asCustomer(agent, request, '');
      expect(read.status).toBe(200);
      const fromServices = read.body;
      expect(fromView).toEqual(fromServices);
      expect(fromView).toMatchObject({
        status: 'in_progress',
        engaged_provider_id: provider.id,
        payments: [{ id: proposed.body.id, status: 'approved' }],
      });
      expect((fromView.conversation as unknown[]).length).toBe(3);
      expect(held.upto).toBeGreaterThanOrEqual(6);
      const rebuilt = await currentView(nc, request.id);
      expect(rebuilt.held).toMatchObject({ upto: held.upto });
    } finally {
      await nc.close();
    }
  });

  it('keeps no view of a test request', async () => {
    const live = await stack.agentOf(ENGAGEMENT_SCOPES);
    const issued = await stack.asStaff(`/integrations/${live.integrationId}/keys`, {
      body: { livemode: false },
    });
    expect(issued.status).toBe(201);
    const agent = { ...live, key: String(issued.body.api_key) };
    const created = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      body: CUSTOMER,
    });
    expect(created.status).toBe(201);
    const request = { id: String(created.body.id), token: String(created.body.request_token) };
    expect((await freshRead(stack, agent, request)).livemode).toBe(false);
    const nc = await connect(natsOptions());
    try {
      const views = await new Kvm(nc).open(REQUEST_VIEWS.bucket);
      expect(await views.get(request.id)).toBeNull();
    } finally {
      await nc.close();
    }
  });
});
