import { StaffHealthReport } from '@handoff/contracts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import type { ReadinessCheck } from '../readiness.ts';
import type { UpdateHub } from './updates.ts';

/**
 * `GET /v1/staff/health`: the readiness report with every service's instance, version, latency
 * and error, and the long-polls the answering gateway process holds, for staff only; the public
 * `/readyz` says no more than ready or not.
 */
export function healthRoutes(readiness: ReadinessCheck, updates?: UpdateHub): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/staff/health',
      operationId: 'getStaffHealth',
      summary:
        'Every backend service as this gateway sees it (status, instance, version, latency, ' +
        'error), and the long-polls this gateway process holds',
      tags: ['staff', 'health'],
      access: { kind: 'staff' },
      status: 200,
      response: StaffHealthReport,
      handle: async ({ callId }) => ({
        ...(await readiness(callId)),
        ...(updates ? { gateway: { long_polls: updates.stats } } : {}),
      }),
    }),
  ];
}
