// `requests.cancel`: the customer (its agent) cancels its own request before a provider is engaged.
import { implement, type Endpoint } from '@handoff/bus';
import { requestOps } from '@handoff/contracts';
import type { MoveRequest } from './mover.ts';

/**
 * Staff's cancel as the customer takes it: the same move of the machine (so the same
 * `request.updated`, on which the pending offer is withdrawn, open proposals declined and pending
 * payment requests rejected), allowed by the machine's `only_from` from `submitted` and `routed`
 * only. Another integration's request is not found, as on every agent read.
 */
export function customerCancelEndpoints(move: MoveRequest): Record<string, Endpoint> {
  return implement(requestOps.cancel, ({ request_id, integration_id, reason }, { callId }) =>
    move(
      request_id,
      { actor: `customer:${integration_id}`, call_id: callId },
      {
        action: 'cancel',
        by: 'customer',
        audit: 'request.cancelled',
        visible: (doc) => doc.integration_id === integration_id,
        change: () => ({
          cancellation: { by: 'customer', reason: reason ?? null, at: new Date() },
        }),
      },
    ),
  );
}
