import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@handoff/contracts';
import { applyEvent, isCurrent } from '../src/views/apply.ts';
import { VIEW_MESSAGES, type RequestView } from '../src/views/document.ts';

const T0 = '2026-12-06T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

const request = (status: string, updatedMs: number, engaged: string | null = null) => ({
  object: 'request',
  id: 'req_1',
  status,
  engaged_provider_id: engaged,
  routing: { mode: 'unassigned', provider_ids: [] },
  message: 'Fix the tap',
  category: null,
  subject: null,
  customer: { name: null, email: null, company: null, website: null },
  contact_permission: false,
  marketplace: { opted_in: false, review: 'not_requested', reason: null },
  budget_min: null,
  budget_max: null,
  language: null,
  livemode: true,
  test_scenario: null,
  test_clock: null,
  created_at: T0,
  updated_at: at(updatedMs),
});

const message = (n: number) => ({
  object: 'message',
  id: `msg_${String(n).padStart(6, '0')}`,
  request_id: 'req_1',
  author_role: 'agent',
  message: `message ${n}`,
  created_at: at(n),
});

const payment = (id: string, status: string) => ({
  object: 'payment_request',
  id,
  request_id: 'req_1',
  amount: 10,
  currency: 'USD',
  description: 'Parts',
  reference: null,
  status,
  rejection_reason: status === 'rejected' ? 'Not needed' : null,
  created_at: T0,
  decided_at: status === 'pending_approval' ? null : T0,
});

const event = (sequence: number, type: string, object: Record<string, unknown>) =>
  ({
    id: `evt_${sequence}`,
    type,
    timestamp: T0,
    livemode: true,
    data: { request_id: 'req_1', sequence, object },
  }) as EventEnvelope;

const fresh = (): RequestView => ({
  owner: { integration_id: 'int_1', token_hash: 'h' },
  request: request('submitted', 0) as RequestView['request'],
  request_sequence: 1,
  conversation: [],
  conversation_has_more: false,
  payments: [],
  upto: 1,
  ahead: [],
});

/** Applies events in the given order; the view after each. */
function play(view: RequestView, events: EventEnvelope[]): RequestView {
  return events.reduce((held, next) => {
    const applied = applyEvent(held, next);
    if (applied.kind === 'unusable') throw new Error(applied.reason);
    return applied.kind === 'changed' ? applied.view : held;
  }, view);
}

describe('applyEvent', () => {
  const events = [
    event(2, 'request.updated', request('routed', 10)),
    event(3, 'message.created', message(1)),
    event(4, 'proposal.received', { object: 'proposal', id: 'prop_1' }),
    event(5, 'message.created', message(2)),
    event(6, 'payment.requested', payment('preq_1', 'approved')),
    event(7, 'request.updated', request('in_progress', 20, 'prov_1')),
  ];

  it('ends in the same view whatever order the events come in, and counts them all', () => {
    const inOrder = play(fresh(), events);
    const reversed = play(fresh(), [...events].reverse());
    const twice = play(fresh(), [...events, ...events]);
    for (const view of [reversed, twice]) expect(view).toEqual(inOrder);
    expect(inOrder).toMatchObject({
      request: { status: 'in_progress', engaged_provider_id: 'prov_1' },
      conversation: [{ id: 'msg_000001' }, { id: 'msg_000002' }],
      payments: [{ id: 'preq_1' }],
      upto: 7,
      ahead: [],
    });
    expect(isCurrent(inOrder, 7)).toBe(true);
    expect(isCurrent(inOrder, 8)).toBe(false);
  });

  it('holds the numbers above a gap until it closes', () => {
    const gapped = play(
      fresh(),
      [events[0], events[2]].filter((e) => e !== undefined),
    );
    expect(gapped).toMatchObject({ upto: 2, ahead: [4] });
    expect(isCurrent(gapped, 4)).toBe(false);
    expect(play(gapped, events.slice(1, 2))).toMatchObject({ upto: 4, ahead: [] });
  });

  it('keeps the later state of the request when two are numbered out of order', () => {
    const later = event(2, 'request.updated', request('cancelled', 30));
    const earlier = event(3, 'request.updated', request('routed', 10));
    expect(play(fresh(), [later, earlier]).request.status).toBe('cancelled');
    expect(play(fresh(), [earlier, later]).request.status).toBe('cancelled');
  });

  it('keeps only the owner once the conversation outgrows a view, and takes nothing more', () => {
    const many = Array.from({ length: VIEW_MESSAGES + 1 }, (_, i) =>
      event(i + 2, 'message.created', message(i + 1)),
    );
    const full = play(fresh(), many.slice(0, VIEW_MESSAGES));
    expect(full.conversation).toHaveLength(VIEW_MESSAGES);
    expect(isCurrent(full, VIEW_MESSAGES + 1)).toBe(true);
    const over = play(full, many.slice(VIEW_MESSAGES));
    expect(over).toMatchObject({ overflow: true, conversation: [], owner: fresh().owner });
    expect(isCurrent(over, over.upto)).toBe(false);
    const later = event(VIEW_MESSAGES + 3, 'request.updated', request('routed', 10));
    expect(applyEvent(over, later).kind).toBe('unchanged');
  });

  it('leaves pending and rejected payment requests out', () => {
    const view = play(fresh(), [
      event(2, 'payment.requested', payment('preq_1', 'pending_approval')),
      event(3, 'payment.request_rejected', payment('preq_2', 'rejected')),
    ]);
    expect(view.payments).toEqual([]);
    expect(view.upto).toBe(3);
  });

  it('calls an event that carries no valid object unusable', () => {
    expect(applyEvent(fresh(), event(2, 'message.created', { object: 'message' })).kind).toBe(
      'unusable',
    );
  });

  it('does not trust a request in progress without an engaged provider', () => {
    const view = play(fresh(), [event(2, 'request.updated', request('in_progress', 10))]);
    expect(isCurrent(view, 2)).toBe(false);
  });
});
