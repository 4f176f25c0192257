import { TEST_DATA_LIMITS, testDataOps, TestDataDeletion } from '@handoff/contracts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { IdParams } from './ids.ts';
import { audit } from './parties.ts';

/**
 * Staff delete an integration's test data (test mode): everything its test twin made, in every
 * service; the twin and its test keys stay. Audited by intake, which leads the deletion.
 */
export const staffTestDataRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'delete',
    path: '/v1/staff/integrations/{id}/test-data',
    operationId: 'deleteIntegrationTestData',
    summary:
      "Delete an integration's test data (`{id}`: the live integration or its test twin): its " +
      'test requests with their messages, engagement and payments, and its test webhook ' +
      `endpoints and events. At most ${TEST_DATA_LIMITS.requestsPerPage * TEST_DATA_LIMITS.pagesPerCall} ` +
      'requests a call: call again while `has_more`. Live data is never touched. Audited',
    tags: ['staff'],
    access: { kind: 'staff' },
    params: IdParams,
    status: 200,
    response: TestDataDeletion,
    notFound: ['integration_not_found'],
    handle: (ctx) => ctx.call(testDataOps.delete, { integration_id: ctx.params.id, ...audit(ctx) }),
  }),
];
