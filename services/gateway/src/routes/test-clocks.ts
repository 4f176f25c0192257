import {
  DeletedTestClock,
  ListQuery,
  listOf,
  TestClock,
  TestClockAdvance,
  TestClockCreate,
  testClockOps,
} from '@handoff/contracts';
import { HttpError, validationFailed } from '../http/errors.ts';
import { defineRoute, type RouteContext, type RouteDefinition } from '../http/route.ts';
import { IdParams } from './ids.ts';
import { page } from './paging.ts';

// Test clocks (test mode): an integration's test key makes and advances them; its live key sees
// none (an empty list, and 404 as for another integration's clock).

const MAKE = { kind: 'agent', scopes: ['requests:create'] } as const;
const READ = { kind: 'agent', scopes: ['requests:read'] } as const;

const TAGS = ['test-clocks'];

/** The calling test integration, or the 404 a live key gets for any clock. */
function testOwner(ctx: RouteContext<'agent'>) {
  if (ctx.agent.livemode) {
    throw new HttpError('test_clock_not_found', 'No such test clock.');
  }
  return { integration_id: ctx.agent.integration_id };
}

export const testClockRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/v1/test-clocks',
    operationId: 'createTestClock',
    summary:
      'Make a test clock (test keys only): requests made on it (`test_clock` at creation) have ' +
      'their deadlines fired when it is advanced',
    tags: TAGS,
    access: MAKE,
    body: TestClockCreate,
    bodyOptional: true,
    status: 201,
    response: TestClock,
    conflicts: ['limit_reached'],
    handle: (ctx) => {
      if (ctx.agent.livemode) {
        throw validationFailed([
          {
            pointer: '',
            code: 'test_mode_only',
            detail: 'Test clocks are test mode: make them with a test key (`hk_test_…`).',
          },
        ]);
      }
      return ctx.call(testClockOps.create, {
        integration_id: ctx.agent.integration_id,
        input: ctx.body,
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/test-clocks',
    operationId: 'listTestClocks',
    summary: "The integration's test clocks, newest first (none for a live key)",
    tags: TAGS,
    access: READ,
    query: ListQuery,
    status: 200,
    response: listOf(TestClock),
    handle: (ctx) =>
      ctx.agent.livemode
        ? Promise.resolve({ object: 'list' as const, data: [], has_more: false })
        : ctx.call(testClockOps.list, {
            integration_id: ctx.agent.integration_id,
            ...page(ctx.query),
          }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/test-clocks/{id}',
    operationId: 'getTestClock',
    summary: 'One test clock: its time and whether an advance is running',
    tags: TAGS,
    access: READ,
    params: IdParams,
    status: 200,
    response: TestClock,
    notFound: ['test_clock_not_found'],
    handle: (ctx) => ctx.call(testClockOps.get, { ...testOwner(ctx), id: ctx.params.id }),
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/test-clocks/{id}',
    operationId: 'deleteTestClock',
    summary:
      'Delete a test clock; its requests stay, and their deadlines then pass in real time only',
    tags: TAGS,
    access: MAKE,
    params: IdParams,
    status: 200,
    response: DeletedTestClock,
    notFound: ['test_clock_not_found'],
    conflicts: ['test_clock_advancing'],
    handle: (ctx) => ctx.call(testClockOps.remove, { ...testOwner(ctx), id: ctx.params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/test-clocks/{id}/advance',
    operationId: 'advanceTestClock',
    summary:
      'Move the clock forward to `frozen_time`: every deadline of its requests at or before it ' +
      'fires, soonest first, with its events; answers the clock at its new time (`status: ' +
      'advancing` while a long advance goes on)',
    tags: TAGS,
    access: MAKE,
    params: IdParams,
    body: TestClockAdvance,
    status: 200,
    response: TestClock,
    notFound: ['test_clock_not_found'],
    conflicts: ['test_clock_advancing'],
    handle: (ctx) =>
      ctx.call(testClockOps.advance, {
        ...testOwner(ctx),
        id: ctx.params.id,
        frozen_time: ctx.body.frozen_time,
      }),
  }),
];
