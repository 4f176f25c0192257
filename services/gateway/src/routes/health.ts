import { ReadinessReport } from '@handoff/contracts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import type { ReadinessCheck } from '../readiness.ts';

/**
 * `GET /v1/staff/health`: the readiness report with every service's instance, version, latency
 * and error, for staff only; the public `/readyz` says no more than ready or not.
 */
export function healthRoutes(readiness: ReadinessCheck): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/staff/health',
      operationId: 'getStaffHealth',
      summary:
        'Every backend service as this gateway sees it: status, instance, version, latency, error',
      tags: ['staff', 'health'],
      access: { kind: 'staff' },
      status: 200,
      response: ReadinessReport,
      handle: ({ requestId }) => readiness(requestId),
    }),
  ];
}
