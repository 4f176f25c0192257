import { beforeAll, describe, expect, it } from '@jest/globals';
import type { TimelineItem } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { merged } from '../src/routes/staff-timeline.ts';
import { http, type Onboarded } from './support/http.ts';
import { PROPOSAL, useStack, type ProviderAccount } from './support/stack.ts';

// GET /v1/staff/requests/{id}/timeline in front of the real intake, conversation, payments,
// milestones and webhook dispatcher (whose event feed holds the request's events).

// The stack runs the webhook dispatcher, whose event feed the timeline reads. (A second
// dispatcher here would share its durable consumer and take half the events away.)
const stack = useStack('gw_staff_timeline');
let agent: Onboarded;
let plumber: ProviderAccount;

beforeAll(async () => {
  [agent, plumber] = await Promise.all([stack.agentOf(), stack.providerOf()]);
});

const items = (body: Record<string, unknown>) => body.data as TimelineItem[];

describe('GET /v1/staff/requests/{id}/timeline', () => {
  it('is staff only: an agent key is refused, an unknown request is 404', async () => {
    const { request } = await stack.engagement(agent, plumber);
    const asAgent = await http(stack.gateway, `/v1/staff/requests/${request.id}/timeline`, {
      token: agent.key,
      headers: { 'X-Service-Request-Token': request.token },
    });
    expect(asAgent.status).toBe(401);
    const missing = await stack.asStaff('/requests/req_doesnotexist/timeline');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'request_not_found' });
  });

  it("shows an engaged request's messages, proposal, job, milestones and events in order", async () => {
    const { request, proposalId, jobId } = await stack.engagement(agent, plumber);
    const said = await stack.asCustomer(agent, request, '/message', {
      body: { message: 'Thursday morning works for me.' },
    });
    expect(said.status).toBe(201);
    const answered = await stack.asProvider(plumber, `/requests/${request.id}/messages`, {
      body: { message: 'See you at nine.' },
    });
    expect(answered.status).toBe(201);

    // The dispatcher stores events as they come: wait until the last message's event is there.
    const timeline = await eventually(
      async () => {
        const answer = await stack.asStaff(`/requests/${request.id}/timeline`);
        expect(answer.status).toBe(200);
        const events = items(answer.body).filter((entry) => entry.kind === 'event');
        return events.filter((e) => e.status === 'message.created').length >= 2
          ? answer
          : undefined;
      },
      { what: 'the timeline with both messages events' },
    );
    expect(timeline.body).toMatchObject({ object: 'list', has_more: false });
    const data = items(timeline.body);

    // Every kind the engagement made, each with its summary.
    const of = (kind: string) => data.filter((entry) => entry.kind === kind);
    expect(of('message').map((m) => m.summary)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Thursday morning works for me.'),
        'provider: See you at nine.',
      ]),
    );
    expect(of('proposal')).toEqual([
      expect.objectContaining({
        id: proposalId,
        status: 'accepted',
        sequence: null,
        summary: `${plumber.name}: 240 USD`,
      }),
    ]);
    expect(of('job')).toEqual([expect.objectContaining({ id: jobId, status: 'active' })]);
    expect(of('milestone').map((m) => m.summary)).toEqual(
      expect.arrayContaining(PROPOSAL.milestones.map((m) => `${m.title}: ${m.amount} USD`)),
    );

    // Events carry their sequence, which rises with time: 1, 2, 3… without gaps.
    const events = of('event');
    const sequences = events.map((e) => e.sequence);
    expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    expect(events.map((e) => e.status)).toEqual(
      expect.arrayContaining([
        'request.created',
        'proposal.received',
        'proposal.accepted',
        'milestone.created',
        'message.created',
      ]),
    );
    expect(events.every((e) => e.summary === e.status && e.id.startsWith('evt_'))).toBe(true);

    // Oldest first across kinds (events in their sequence order), so the accepted proposal
    // comes before the messages about it.
    const times = data.filter((e) => e.kind !== 'event').map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(data.map((entry) => entry.sequence).filter((n) => n !== null)).toEqual(sequences);
    const index = (id: string) => data.findIndex((entry) => entry.id === id);
    const lastMessage = of('message').at(-1);
    expect(index(proposalId)).toBeLessThan(index(lastMessage?.id ?? ''));
  });
});

describe('merged', () => {
  const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`;
  const thing = (id: string, second: number): TimelineItem => ({
    object: 'timeline_item',
    kind: 'message',
    id,
    at: at(second),
    sequence: null,
    status: null,
    summary: id,
  });
  const event = (sequence: number, second: number): TimelineItem => ({
    ...thing(`evt_${sequence}`, second),
    kind: 'event',
    sequence,
  });

  it('keeps events in sequence order even when a later one carries an earlier timestamp', () => {
    const order = merged(
      [thing('msg_b', 4), thing('msg_a', 1)],
      [event(3, 5), event(1, 2), event(2, 1)],
    ).map((entry) => entry.id);
    expect(order).toEqual(['msg_a', 'evt_1', 'evt_2', 'msg_b', 'evt_3']);
  });
});
