import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import type { Onboarded } from './support/http.ts';
import { useStack, type OwnedRequest, type ProviderAccount } from './support/stack.ts';

// Automatic routing through the gateway: the rules offer a request with no staff action, pass
// over providers who cannot take it, move on from declined and lapsed offers to the staff queue,
// never push a provider over its capacity, stop for a paused category, and say why.

const stack = useStack('gw_routing');
let agent: Onboarded;

beforeAll(async () => {
  agent = await stack.agentOf();
});

interface Offer {
  id: string;
  provider_id: string;
  status: string;
  by: string;
  respond_by: string;
  reason: string | null;
}
interface Candidate {
  provider_id: string;
  outcome: string;
  reasons: string[];
}
interface AutoRouting {
  state: string;
  queue_reason: string | null;
  offers_made: number;
  max_offers: number;
  offers: Offer[];
  decision: {
    by: string;
    actor: string;
    provider_id: string | null;
    summary: string;
    candidates: Candidate[];
    excluded: Record<string, number>;
  } | null;
}
interface StaffRequest {
  id: string;
  status: string;
  routing: { mode: string; provider_ids: string[] };
  automatic_routing: AutoRouting;
}

/** A provider created by staff with a routing profile, and its key. */
async function provider(
  categories: string[],
  profile: Record<string, unknown> = {},
): Promise<ProviderAccount> {
  const name = `Routed ${randomBytes(3).toString('hex')}`;
  const created = await stack.asStaff('/providers', {
    body: {
      name,
      email: `${name.replace(' ', '.').toLowerCase()}@example.com`,
      categories,
      ...profile,
    },
  });
  expect(created.status).toBe(201);
  const id = String(created.body.id);
  const issued = await stack.asStaff(`/providers/${id}/keys`, { method: 'POST' });
  expect(issued.status).toBe(201);
  return { id, name, key: String(issued.body.api_key), keyId: String(issued.body.key_id) };
}

async function staffView(requestId: string): Promise<StaffRequest> {
  const read = await stack.asStaff(`/requests/${requestId}`);
  expect(read.status).toBe(200);
  return read.body as unknown as StaffRequest;
}

/** Waits until the request's automatic routing is in `state` (and `also` holds). */
function routingState(
  requestId: string,
  state: string,
  also: (request: StaffRequest) => boolean = () => true,
): Promise<StaffRequest> {
  return eventually(
    async () => {
      const request = await staffView(requestId);
      return request.automatic_routing.state === state && also(request) ? request : undefined;
    },
    { what: `request ${requestId} in routing state ${state}`, timeoutMs: 15_000 },
  );
}

const requestIn = (category: string, extra: Record<string, unknown> = {}): Promise<OwnedRequest> =>
  stack.requestOf(agent, { category, ...extra });

async function setCategory(category: string, patch: Record<string, unknown>) {
  const set = await stack.asStaff(`/routing/categories/${category}`, {
    method: 'PATCH',
    body: patch,
  });
  expect(set.status).toBe(200);
  return set.body;
}

describe('automatic routing', () => {
  it('offers a new request to a provider of its category with no staff action, and says why', async () => {
    const [first, second] = await Promise.all([provider(['travel']), provider(['travel'])]);
    const request = await requestIn('travel');
    const offered = await routingState(request.id, 'offered');
    expect(offered.status).toBe('routed');
    expect(offered.routing.mode).toBe('direct');
    const chosen = offered.routing.provider_ids[0];
    expect([first.id, second.id]).toContain(chosen);
    expect(offered.automatic_routing.offers).toEqual([
      expect.objectContaining({ provider_id: chosen, status: 'pending', by: 'rules' }),
    ]);
    const decision = offered.automatic_routing.decision;
    expect(decision).toMatchObject({ by: 'rules', actor: 'system', provider_id: chosen });
    const chosenCandidate = decision?.candidates.find((c) => c.outcome === 'chosen');
    expect(chosenCandidate?.provider_id).toBe(chosen);
    expect(chosenCandidate?.reasons).toEqual(
      expect.arrayContaining(['In category travel.', 'Active and available.']),
    );

    // The agent reads it routed, and heard of it as `request.updated`.
    const agentView = await stack.asCustomer(agent, request, '');
    expect(agentView.body).toMatchObject({ status: 'routed', routing: { provider_ids: [chosen] } });
    // Long-polled: the dispatcher's feed may store the event a moment after the read shows it.
    const events = await stack.asCustomer(agent, request, '/events?after=1&wait=10');
    expect(JSON.stringify(events.body)).toContain('request.updated');

    // The offered provider sees the offer with its deadline; the other does not see the request.
    const offeredTo = chosen === first.id ? first : second;
    const other = chosen === first.id ? second : first;
    const seen = await stack.asProvider(offeredTo, `/requests/${request.id}`);
    expect(seen.body).toMatchObject({
      relation: 'routed',
      offer: { status: 'pending', respond_by: expect.any(String) },
    });
    expect((await stack.asProvider(other, `/requests/${request.id}`)).status).toBe(404);
    expect(
      await stack.asProvider(other, `/requests/${request.id}/offer/accept`, { method: 'POST' }),
    ).toMatchObject({ status: 404, body: { code: 'request_not_found' } });

    // Staff see the offer in their deadlines, by its provider's answer.
    const deadlines = await stack.asStaff('/deadlines?limit=500');
    expect(deadlines.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          resource: 'routing_offer',
          request_id: request.id,
          waiting_on: 'provider',
          deadline_at: offered.automatic_routing.offers[0]?.respond_by,
          overdue: false,
        }),
      ]),
    );
    // Accepting is the provider's explicit act; it cannot be answered twice.
    const accepted = await stack.asProvider(offeredTo, `/requests/${request.id}/offer/accept`, {
      method: 'POST',
    });
    expect(accepted).toMatchObject({ status: 200, body: { offer: { status: 'accepted' } } });
    expect(
      await stack.asProvider(offeredTo, `/requests/${request.id}/offer/decline`, {
        method: 'POST',
        body: {},
      }),
    ).toMatchObject({ status: 409, body: { code: 'offer_not_pending' } });
    const after = await routingState(request.id, 'accepted');
    expect(after.routing.provider_ids).toEqual([chosen]);
    const profile = await stack.asStaff(`/providers/${offeredTo.id}`);
    expect(profile.body).toMatchObject({ load: 1, routing_score: { offers_accepted: 1 } });
  });

  it('never chooses a provider that is suspended, at capacity, away, of another language or category', async () => {
    const [suspended, full, away, german, elsewhere, able] = await Promise.all([
      provider(['legal']),
      provider(['legal'], { capacity: 0 }),
      provider(['legal'], { availability: 'away' }),
      provider(['legal'], { languages: ['de'] }),
      provider(['accounting']),
      provider(['legal'], { languages: ['en', 'fr'] }),
    ]);
    const suspend = await stack.asStaff(`/providers/${suspended.id}`, {
      method: 'PATCH',
      body: { status: 'suspended' },
    });
    expect(suspend.status).toBe(200);
    const request = await requestIn('legal', { language: 'en' });
    const offered = await routingState(request.id, 'offered');
    expect(offered.routing.provider_ids).toEqual([able.id]);
    const decision = offered.automatic_routing.decision;
    expect(decision?.excluded).toEqual({ suspended: 1, at_capacity: 1, away: 1, language: 1 });
    const reasonsOf = (id: string) =>
      decision?.candidates.find((c) => c.provider_id === id)?.reasons.join(' ') ?? '';
    expect(reasonsOf(full.id)).toContain('At capacity: holds 0 of 0.');
    expect(reasonsOf(away.id)).toContain('Away');
    expect(reasonsOf(german.id)).toContain('Does not work in en');
    expect(reasonsOf(suspended.id)).toContain('Suspended');
    expect(decision?.candidates.map((c) => c.provider_id)).not.toContain(elsewhere.id);
    expect(reasonsOf(able.id)).toContain('Works in en.');
  });

  it('moves a declined or lapsed offer to the next provider, then to the staff queue with the reason', async () => {
    await setCategory('marketing', { max_offers: 2, response_seconds: 1 });
    const providers = await Promise.all([provider(['marketing']), provider(['marketing'])]);
    const request = await requestIn('marketing');
    const first = await routingState(request.id, 'offered');
    const firstId = first.routing.provider_ids[0];
    const firstProvider = providers.find((p) => p.id === firstId);
    if (!firstProvider) throw new Error('offered to a provider of another test');
    const declined = await stack.asProvider(
      firstProvider,
      `/requests/${request.id}/offer/decline`,
      {
        method: 'POST',
        body: { reason: 'Fully booked this month.' },
      },
    );
    expect(declined).toMatchObject({ status: 200, body: { offer: { status: 'declined' } } });

    // The second offer goes to the other provider, lets its second run out, and the request
    // waits for staff: unrouted again, with the reason.
    const queued = await routingState(request.id, 'queued');
    expect(queued).toMatchObject({
      status: 'submitted',
      routing: { mode: 'unassigned', provider_ids: [] },
      automatic_routing: { queue_reason: 'offers_exhausted', offers_made: 2, max_offers: 2 },
    });
    expect(queued.automatic_routing.offers.map((o) => [o.provider_id, o.status, o.reason])).toEqual(
      [
        [firstId, 'declined', 'Fully booked this month.'],
        [
          providers.find((p) => p.id !== firstId)?.id,
          'lapsed',
          'No answer before the response deadline.',
        ],
      ],
    );
    // Both let the request go; the lapse counts against the one who let it.
    for (const p of providers) {
      await eventually(
        async () =>
          (await stack.asStaff(`/providers/${p.id}`)).body.load === 0 ? true : undefined,
        { what: `provider ${p.id} holding nothing` },
      );
    }
    const lapsedBy = providers.find((p) => p.id !== firstId);
    expect((await stack.asStaff(`/providers/${String(lapsedBy?.id)}`)).body).toMatchObject({
      routing_score: { offers_lapsed: 1 },
    });
    const list = await stack.asStaff('/requests?category=marketing&routing_state=queued&limit=10');
    expect((list.body.data as { id: string }[]).map((r) => r.id)).toContain(request.id);
    const counts = await stack.asStaff('/request-counts?category=marketing');
    expect(counts.body).toMatchObject({
      object: 'request_counts',
      by_routing_state: { queued: 1 },
      by_status: { submitted: 1 },
    });
  });

  it('never pushes a provider over its capacity when two requests arrive at once', async () => {
    const only = await provider(['writing'], { capacity: 1 });
    const [one, two] = await Promise.all([requestIn('writing'), requestIn('writing')]);
    const settled = await Promise.all(
      [one, two].map((r) =>
        eventually(
          async () => {
            const view = await staffView(r.id);
            const state = view.automatic_routing.state;
            return state === 'offered' || state === 'queued' ? view : undefined;
          },
          { what: 'both requests decided', timeoutMs: 15_000 },
        ),
      ),
    );
    expect(settled.map((r) => r.automatic_routing.state).sort()).toEqual(['offered', 'queued']);
    expect(
      settled.find((r) => r.automatic_routing.state === 'queued')?.automatic_routing,
    ).toMatchObject({
      queue_reason: 'no_eligible_provider',
    });
    expect((await stack.asStaff(`/providers/${only.id}`)).body).toMatchObject({
      load: 1,
      capacity: 1,
    });
  });

  it('shares a burst out in rotation, as it would a trickle', async () => {
    const pair = await Promise.all([
      provider(['web-development'], { capacity: 10 }),
      provider(['web-development'], { capacity: 10 }),
    ]);
    const burst = await Promise.all([1, 2, 3, 4].map(() => requestIn('web-development')));
    const offeredTo = await Promise.all(
      burst.map(async (r) => (await routingState(r.id, 'offered')).routing.provider_ids[0]),
    );
    expect(pair.map((p) => offeredTo.filter((id) => id === p.id).length)).toEqual([2, 2]);
  });

  it('stops for a paused category, and goes on once it is resumed', async () => {
    const designer = await provider(['design']);
    await setCategory('design', { paused: true, reason: 'Reviewing our design partners.' });
    const request = await requestIn('design');
    await routingState(request.id, 'queued', (r) => r.automatic_routing.queue_reason === 'paused');
    const categories = await stack.asStaff('/routing/categories');
    expect(categories.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          category: 'design',
          paused: true,
          pause_reason: 'Reviewing our design partners.',
          queued_requests: 1,
        }),
      ]),
    );
    await setCategory('design', { paused: false });
    const offered = await routingState(request.id, 'offered');
    expect(offered.routing.provider_ids).toEqual([designer.id]);
  });

  it('lets staff override a choice, with the reason in the audit log', async () => {
    const [a, b] = await Promise.all([
      provider(['customer-support']),
      provider(['customer-support'], { capacity: 0 }),
    ]);
    const request = await requestIn('customer-support');
    const offered = await routingState(request.id, 'offered');
    expect(offered.routing.provider_ids).toEqual([a.id]);
    const suggestions = await stack.asStaff(`/requests/${request.id}/routing/suggestions`);
    expect(suggestions.body).toMatchObject({
      object: 'routing_suggestions',
      category: 'customer-support',
    });

    // Staff's choice stands even over the rules' capacity.
    const overridden = await stack.asStaff(`/requests/${request.id}/routing`, {
      body: { action: 'offer', provider_id: b.id, reason: 'B knows this customer.' },
    });
    expect(overridden.status).toBe(200);
    const view = overridden.body as unknown as StaffRequest;
    expect(view.routing.provider_ids).toEqual([b.id]);
    expect(view.automatic_routing.offers.map((o) => [o.provider_id, o.status, o.by])).toEqual([
      [a.id, 'withdrawn', 'rules'],
      [b.id, 'pending', 'staff'],
    ]);
    expect(view.automatic_routing.decision?.summary).toContain('B knows this customer.');
    const audit = await eventually(async () => {
      const log = await stack.asStaff('/audit-log?limit=100');
      const entries = log.body.data as { action: string; target_id: string; after: unknown }[];
      return entries.find(
        (e) => e.action === 'request.routing_overridden' && e.target_id === request.id,
      );
    });
    expect(JSON.stringify(audit.after)).toContain('B knows this customer.');
    await eventually(async () =>
      (await stack.asStaff(`/providers/${a.id}`)).body.load === 0 ? true : undefined,
    );

    // Stopped, the rules leave it to staff; a closed request takes no override.
    const stopped = await stack.asStaff(`/requests/${request.id}/routing`, {
      body: { action: 'stop', reason: 'Handled by phone.' },
    });
    expect(stopped.body).toMatchObject({ automatic_routing: { state: 'manual' } });
    const bad = await stack.asStaff(`/requests/${request.id}/routing`, {
      body: { action: 'offer', provider_id: 'prv_unknown', reason: 'x' },
    });
    expect(bad).toMatchObject({ status: 422, body: { errors: [{ pointer: '/provider_id' }] } });
  });

  it('lets a provider set its languages and availability, and staff its capacity', async () => {
    const self = await provider(['other']);
    const patched = await stack.asProvider(self, '/me', {
      method: 'PATCH',
      body: { availability: 'away', languages: ['en', 'pt-BR'] },
    });
    expect(patched).toMatchObject({
      status: 200,
      body: { availability: 'away', languages: ['en', 'pt-BR'], capacity: 3, load: 0 },
    });
    expect(
      await stack.asProvider(self, '/me', { method: 'PATCH', body: { capacity: 10 } }),
    ).toMatchObject({ status: 422 });
    const request = await requestIn('other');
    await routingState(
      request.id,
      'queued',
      (r) => r.automatic_routing.queue_reason === 'no_eligible_provider',
    );
  });
});
