import { beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { http, type Answer } from './support/http.ts';
import { CUSTOMER, useStack, type OwnedRequest } from './support/stack.ts';

// Test clocks through the gateway: a test request made on a clock, driven by the simulated
// provider to a submitted milestone, is approved by deadline when the clock passes its review
// time; a test request beside it, on no clock, stays as it was.

const stack = useStack('gw_test_clocks', { oneDatabase: true });

const DAY = 24 * 60 * 60 * 1000;
const START = '2030-01-01T09:00:00.000Z';

let live: string;
let test: string;

const asTest = (path: string, call: Parameters<typeof http>[2] = {}) =>
  http(stack.gateway, path, { token: test, ...call });

const asCustomer = (request: OwnedRequest, path: string, call: Parameters<typeof http>[2] = {}) =>
  asTest(`/v1/request/${request.id}${path}`, {
    ...call,
    headers: { 'X-Service-Request-Token': request.token, ...call.headers },
  });

async function testRequest(body: Record<string, unknown>): Promise<OwnedRequest> {
  const created = await asTest('/v1/ai-to-human-request', {
    body: { ...CUSTOMER, test_scenario: 'happy_path', ...body },
  });
  expect(created.status).toBe(201);
  return { id: String(created.body.id), token: String(created.body.request_token) };
}

type Row = { id: string; status: string; approved_by?: string | null };
const rows = (answer: Answer) => (answer.body.data as Row[] | undefined) ?? [];

/** The simulated provider's proposal accepted, then its milestone submitted for review. */
async function submittedMilestone(request: OwnedRequest): Promise<string> {
  const [proposal] = await eventually(
    async () => {
      const found = rows(await asCustomer(request, '/proposals'));
      return found.length > 0 ? found : undefined;
    },
    { what: `a proposal on ${request.id}` },
  );
  const accepted = await asCustomer(request, `/proposals/${proposal?.id ?? ''}/accept`, {
    method: 'POST',
  });
  expect(accepted.status).toBe(200);
  const milestone = await eventually(
    async () => {
      const found = rows(await asCustomer(request, '/milestones'));
      return found.find((row) => row.status === 'submitted');
    },
    { what: `a submitted milestone on ${request.id}`, timeoutMs: 30_000 },
  );
  return milestone.id;
}

beforeAll(async () => {
  const agent = await stack.agentOf([...SCOPES]);
  live = agent.key;
  const issued = await stack.asStaff(`/integrations/${agent.integrationId}/keys`, {
    body: { livemode: false },
  });
  expect(issued.status).toBe(201);
  test = String(issued.body.api_key);
});

describe('test clocks', () => {
  let clock: string;

  it('are made, listed and read with a test key', async () => {
    const created = await asTest('/v1/test-clocks', {
      body: { frozen_time: START, name: 'Checkout' },
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        object: 'test_clock',
        id: expect.stringMatching(/^clk_/),
        name: 'Checkout',
        frozen_time: START,
        status: 'ready',
        requests: 0,
        livemode: false,
      },
    });
    clock = String(created.body.id);
    expect(rows(await asTest('/v1/test-clocks')).map((row) => row.id)).toContain(clock);
    expect(await asTest(`/v1/test-clocks/${clock}`)).toMatchObject({
      status: 200,
      body: { id: clock, frozen_time: START },
    });
  });

  it('do not exist for a live key', async () => {
    const liveCall = (path: string, call: Parameters<typeof http>[2] = {}) =>
      http(stack.gateway, path, { token: live, ...call });
    expect(await liveCall(`/v1/test-clocks/${clock}`)).toMatchObject({
      status: 404,
      body: { code: 'test_clock_not_found' },
    });
    expect(
      await liveCall(`/v1/test-clocks/${clock}/advance`, {
        body: { frozen_time: '2030-02-01T00:00:00Z' },
      }),
    ).toMatchObject({ status: 404, body: { code: 'test_clock_not_found' } });
    expect(await liveCall('/v1/test-clocks')).toMatchObject({
      status: 200,
      body: { object: 'list', data: [] },
    });
    expect(await liveCall('/v1/test-clocks', { body: {} })).toMatchObject({
      status: 422,
      body: { errors: [{ code: 'test_mode_only' }] },
    });
    expect(
      await liveCall('/v1/ai-to-human-request', { body: { ...CUSTOMER, test_clock: clock } }),
    ).toMatchObject({ status: 422, body: { errors: [{ pointer: '/test_clock' }] } });
    expect(
      await asTest('/v1/ai-to-human-request', {
        body: { ...CUSTOMER, test_clock: 'clk_0000000000000000000000000x' },
      }),
    ).toMatchObject({ status: 404, body: { code: 'test_clock_not_found' } });
  });

  it('approve a submitted milestone by deadline when advanced past its review time', async () => {
    const onClock = await testRequest({ test_clock: clock });
    const offClock = await testRequest({});
    expect((await asCustomer(onClock, '')).body).toMatchObject({ test_clock: clock });
    const [milestone, untouched] = await Promise.all([
      submittedMilestone(onClock),
      submittedMilestone(offClock),
    ]);

    // A clock only moves forward.
    expect(
      await asTest(`/v1/test-clocks/${clock}/advance`, { body: { frozen_time: START } }),
    ).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/frozen_time', code: 'not_after_frozen_time' }] },
    });

    // The review waits 14 days from the submission: ten days on, it still waits.
    const tenDays = new Date(Date.parse(START) + 10 * DAY).toISOString();
    expect(
      await asTest(`/v1/test-clocks/${clock}/advance`, { body: { frozen_time: tenDays } }),
    ).toMatchObject({ status: 200, body: { frozen_time: tenDays, status: 'ready' } });
    expect((await asCustomer(onClock, `/milestones/${milestone}`)).body).toMatchObject({
      status: 'submitted',
    });
    const target = new Date(Date.parse(START) + 15 * DAY).toISOString();
    const advanced = await asTest(`/v1/test-clocks/${clock}/advance`, {
      body: { frozen_time: target },
    });
    expect(advanced).toMatchObject({
      status: 200,
      body: { id: clock, frozen_time: target, status: 'ready', requests: 1 },
    });

    const approved = await asCustomer(onClock, `/milestones/${milestone}`);
    expect(approved.body).toMatchObject({ status: 'approved', approved_by: 'deadline' });
    const event = await eventually(
      async () => {
        const events = (await asCustomer(onClock, '/events')).body.data as
          { type: string; livemode: boolean; data: { object: Row } }[] | undefined;
        return events?.find((e) => e.type === 'milestone.approved');
      },
      { what: 'the milestone.approved event' },
    );
    expect(event).toMatchObject({
      livemode: false,
      data: { object: { id: milestone, approved_by: 'deadline' } },
    });

    // Nothing outside the clock moved.
    expect((await asCustomer(offClock, `/milestones/${untouched}`)).body).toMatchObject({
      status: 'submitted',
    });
  });

  it('are deleted, and then gone', async () => {
    expect(await asTest(`/v1/test-clocks/${clock}`, { method: 'DELETE' })).toMatchObject({
      status: 200,
      body: { object: 'test_clock', id: clock, deleted: true },
    });
    expect(await asTest(`/v1/test-clocks/${clock}`)).toMatchObject({
      status: 404,
      body: { code: 'test_clock_not_found' },
    });
  });
});
