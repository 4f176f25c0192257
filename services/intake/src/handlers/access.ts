// What serves `accessOps`: access applications, the integrations they become, and agent keys;
// and staff's deletion of an integration's test data (`testDataOps.delete`).
import { endpointsOf, type Endpoint } from '@handoff/bus';
import type { IntakeContext } from './context.ts';
import { agentKeyEndpoints } from './access/agent-keys.ts';
import { applicantEndpoints } from './access/applicant.ts';
import { integrationEndpoints } from './access/integrations.ts';
import { reviewEndpoints } from './access/review.ts';
import { testDataEndpoints } from './access/test-data.ts';

export const accessEndpoints = (ctx: IntakeContext): Record<string, Endpoint> =>
  endpointsOf(ctx, [
    applicantEndpoints,
    reviewEndpoints,
    integrationEndpoints,
    agentKeyEndpoints,
    testDataEndpoints,
  ]);
