// `requests.decide_marketplace`: staff approve or reject a request for the marketplace.
import { implement, type Endpoint } from '@handoff/bus';
import { requestOps } from '@handoff/contracts';
import { invalidTransition } from '@handoff/runtime';
import type { RequestDoc } from '../../store/requests.ts';
import type { InputOf } from '../context.ts';
import type { MoveRequest, RequestMove } from './mover.ts';

type Decision = InputOf<typeof requestOps.decideMarketplace>['decision'];

/**
 * The review's move: only a pending review is decided, and approving an unrouted request also
 * routes it to the marketplace.
 */
function reviewMove(decision: Decision): RequestMove {
  return {
    audit: `request.marketplace_${decision.decision}`,
    action: 'review_marketplace',
    refuse: (doc) => {
      if (doc.marketplace.review === 'pending_review') return;
      throw invalidTransition(
        {
          resource: 'marketplace_review',
          current_state: doc.marketplace.review,
          action: decision.decision === 'approved' ? 'approve' : 'reject',
          allowed_actions: [],
        },
        { final: true, reason: 'only a pending review can be decided' },
      );
    },
    change: (doc): Partial<RequestDoc> => ({
      marketplace: {
        ...doc.marketplace,
        review: decision.decision,
        reason: decision.reason ?? null,
      },
      ...(decision.decision === 'approved' && doc.routing.mode === 'unassigned'
        ? { routing: { mode: 'marketplace' as const, provider_ids: [] } }
        : {}),
      // Approval is a new start for a request waiting in the staff queue: the rules try again.
      ...(decision.decision === 'approved' && doc.auto_routing?.state === 'queued'
        ? {
            auto_routing: {
              ...doc.auto_routing,
              state: 'routing' as const,
              queue_reason: null,
              offers_made: 0,
            },
          }
        : {}),
    }),
  };
}

export function marketplaceReviewEndpoints(move: MoveRequest): Record<string, Endpoint> {
  return implement(
    requestOps.decideMarketplace,
    async ({ id, decision, actor }, { callId: call_id }) =>
      move(id, { actor, call_id }, reviewMove(decision)),
  );
}
