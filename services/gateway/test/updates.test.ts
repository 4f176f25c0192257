import { beforeAll, describe, expect, it } from '@jest/globals';
import { UPDATES_LIMITS, type EventEnvelope } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { GAP_PATIENCE_MS, heardAfter, unbroken } from '../src/routes/updates.ts';
import { http, type Onboarded } from './support/http.ts';
import { useStack } from './support/stack.ts';
import { signStaffToken } from './support/staff-tokens.ts';

// The long-poll GET /v1/request/{id}/events in front of the real intake, conversation and
// webhook dispatcher (whose event feed it reads): the order of checks, answers in sequence
// order, a waiting poll woken by the next event on the bus, and the bound on waiters per key.

const stack = useStack('gw_updates', {
  services: ['intake', 'conversation', 'webhook-dispatcher'],
  oneDatabase: true,
  gateway: { BUS_TIMEOUT_MS: '2000' },
});
let agent: Onboarded;
let other: Onboarded;
/** Has the integration-wide feed, but not the request's own updates. */
let feedOnly: Onboarded;

type Json = Record<string, unknown>;
const sequences = (body: Json) =>
  (body.data as { data: { sequence: number } }[]).map((event) => event.data.sequence);

beforeAll(async () => {
  const scopes = ['requests:create', 'requests:read', 'messages:create'];
  [agent, other, feedOnly] = await Promise.all([
    stack.agentOf(scopes),
    stack.agentOf(scopes),
    stack.agentOf(['requests:create', 'events:read']),
  ]);
});

/** A new request of `agent` with its token. */
async function created(who = agent) {
  const answer = await http(stack.gateway, '/v1/ai-to-human-request', {
    token: who.key,
    body: { message: 'Please find me a plumber.' },
  });
  expect(answer.status).toBe(201);
  return { id: String(answer.body.id), token: String(answer.body.request_token) };
}

const poll = (request: { id: string; token: string }, query: string, who = agent) =>
  http(stack.gateway, `/v1/request/${request.id}/events?${query}`, {
    token: who.key,
    headers: { 'X-Service-Request-Token': request.token },
  });

const message = async (request: { id: string; token: string }, text: string) => {
  const answer = await http(stack.gateway, `/v1/request/${request.id}/message`, {
    token: agent.key,
    headers: { 'X-Service-Request-Token': request.token },
    body: { message: text },
  });
  expect(answer.status).toBe(201);
};

describe('GET /v1/request/{id}/events', () => {
  it('checks scope, query, token and owner in the documented order', async () => {
    const request = await created();
    expect((await poll(request, 'after=0', feedOnly)).body).toMatchObject({
      code: 'insufficient_scope',
      required_scopes: ['requests:read'],
    });
    expect((await poll(request, `wait=${UPDATES_LIMITS.maxWaitSeconds + 1}`)).body).toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ pointer: '/query/wait' })],
    });
    const missing = await http(stack.gateway, `/v1/request/${request.id}/events`, {
      token: agent.key,
    });
    expect(missing.body).toMatchObject({ status: 401, code: 'request_token_missing' });
    expect((await poll({ ...request, token: 'hrt_wrong' }, '')).body).toMatchObject({
      status: 403,
      code: 'request_token_invalid',
    });
    expect((await poll(request, '', other)).body).toMatchObject({
      status: 404,
      code: 'request_not_found',
    });
  });

  it('answers at once with the events after `after`, in sequence order, paged by `limit`', async () => {
    const request = await created();
    await message(request, 'First.');
    await message(request, 'Second.');
    const all = await eventually(async () => {
      const answer = await poll(request, 'after=0');
      expect(sequences(answer.body)).toEqual([1, 2, 3]);
      return answer;
    });
    expect(all.status).toBe(200);
    expect(all.headers.get('cache-control')).toBe('no-store');
    expect(all.body).toMatchObject({ object: 'list', has_more: false });
    expect(sequences((await poll(request, 'after=1')).body)).toEqual([2, 3]);
    const first = await poll(request, 'after=0&limit=1');
    expect(sequences(first.body)).toEqual([1]);
    expect(first.body.has_more).toBe(true);
  });

  it('waits for the next event and is woken by it', async () => {
    const request = await created();
    await eventually(async () => {
      expect(sequences((await poll(request, 'after=0')).body)).toEqual([1]);
      return true;
    });
    // Without a wake-up the poll would answer an empty list after 25 s.
    const waiting = poll(request, `after=1&wait=${UPDATES_LIMITS.maxWaitSeconds}`);
    await message(request, 'Any news?');
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      expect.objectContaining({
        type: 'message.created',
        data: expect.objectContaining({ sequence: 2 }),
      }),
    ]);
  });

  it('answers an empty list when nothing happens within `wait`', async () => {
    const request = await created();
    const answer = await poll(request, 'after=1&wait=1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ object: 'list', data: [], has_more: false });
  });

  it(`holds at most ${UPDATES_LIMITS.maxWaitersPerKey} waiting polls per key, then 429 with Retry-After`, async () => {
    const request = await created();
    await eventually(async () => {
      expect(sequences((await poll(request, 'after=0')).body)).toEqual([1]);
      return true;
    });
    // One more than the bound at once: exactly one is refused straight away.
    const polls = Array.from({ length: UPDATES_LIMITS.maxWaitersPerKey + 1 }, () =>
      poll(request, `after=1&wait=${UPDATES_LIMITS.maxWaitSeconds}`),
    );
    const refused = await Promise.race(
      polls.map(async (pending) => {
        const answer = await pending;
        if (answer.status !== 429) throw new Error(`answered ${answer.status} first`);
        return answer;
      }),
    );
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
    expect(refused.headers.get('retry-after')).toBe('1');
    // One event answers every waiting poll.
    await message(request, 'Wake up.');
    const answers = await Promise.all(polls);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(1);
    for (const answer of answers.filter((one) => one.status === 200)) {
      expect(sequences(answer.body)).toEqual([2]);
    }
    expect((await poll(request, 'after=0')).status).toBe(200);
  });

  it('shows staff how many polls wait on this gateway process, and the bounds', async () => {
    const staff = await signStaffToken(stack.secret, { sub: 'ops@handoff.test' });
    const longPolls = async () =>
      ((await http(stack.gateway, '/v1/staff/health', { token: staff })).body.gateway as Json)
        .long_polls as Json;
    const request = await created();
    await eventually(async () => {
      expect(sequences((await poll(request, 'after=0')).body)).toEqual([1]);
      return true;
    });
    expect(await longPolls()).toEqual({
      waiting: 0,
      max_per_process: UPDATES_LIMITS.maxWaitersPerProcess,
      max_per_key: UPDATES_LIMITS.maxWaitersPerKey,
    });
    const waiting = [poll(request, 'after=1&wait=20'), poll(request, 'after=1&wait=20')];
    await eventually(async () => {
      expect((await longPolls()).waiting).toBe(2);
      return true;
    });
    await message(request, 'Wake up.');
    for (const answer of await Promise.all(waiting)) expect(sequences(answer.body)).toEqual([2]);
    expect((await longPolls()).waiting).toBe(0);
  });
});

describe('heardAfter', () => {
  const event = (sequence: number) =>
    ({ id: `evt_${sequence}`, data: { sequence } }) as unknown as EventEnvelope;
  const waiter = (announced: number, sequences: number[]) => ({
    announced,
    heard: new Map(sequences.map((sequence) => [sequence, event(sequence)])),
  });

  it('answers from the bus only with an unbroken run of every event after `after`', () => {
    expect(heardAfter(waiter(3, [2, 3]), 1)?.map((one) => one.id)).toEqual(['evt_2', 'evt_3']);
    // One came before the waiter listened (2), or nothing newer was announced: the feed answers.
    expect(heardAfter(waiter(3, [3]), 1)).toBeUndefined();
    expect(heardAfter(waiter(1, []), 1)).toBeUndefined();
    expect(heardAfter(waiter(0, []), 0)).toBeUndefined();
  });
});

describe('unbroken', () => {
  const at = (sequence: number, ageMs: number, now: number) =>
    ({
      id: `evt_${sequence}`,
      timestamp: new Date(now - ageMs).toISOString(),
      data: { sequence },
    }) as unknown as EventEnvelope;

  it('answers the events after `after` up to the first missing number, until it is overdue', () => {
    // `npm run chaos` saw long-polls skip a number: the feed held #2 while #1 waited in its
    // service's outbox, and answering #2 moved the agent's `after` past #1 for good.
    const now = Date.parse('2026-12-06T12:00:00Z');
    const ids = (list: EventEnvelope[]) => list.map((one) => one.id);
    expect(ids(unbroken([at(2, 10, now)], 0, now))).toEqual([]);
    expect(ids(unbroken([at(1, 10, now), at(2, 10, now), at(4, 10, now)], 0, now))).toEqual([
      'evt_1',
      'evt_2',
    ]);
    expect(ids(unbroken([at(3, 10, now), at(4, 10, now)], 2, now))).toEqual(['evt_3', 'evt_4']);
    // A number missing for longer than the patience no longer holds the others back.
    expect(ids(unbroken([at(2, GAP_PATIENCE_MS + 1, now), at(3, 10, now)], 0, now))).toEqual([
      'evt_2',
      'evt_3',
    ]);
  });
});
