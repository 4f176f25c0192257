// Where automatic routing stands on a request, as its document keeps it (`auto_routing`).
import type {
  AutoRoutingState,
  OfferStatus,
  QueueReason,
  RoutingCandidate,
} from '@handoff/contracts';

export interface OfferDoc {
  id: string;
  provider_id: string;
  status: OfferStatus;
  by: 'rules' | 'staff';
  offered_at: Date;
  respond_by: Date;
  decided_at: Date | null;
  reason: string | null;
}

export interface DecisionDoc {
  decided_at: Date;
  by: 'rules' | 'staff';
  actor: string;
  provider_id: string | null;
  summary: string;
  candidates: RoutingCandidate[];
  excluded: Record<string, number>;
}

export interface AutoRoutingDoc {
  state: AutoRoutingState;
  queue_reason: QueueReason | null;
  /** Offers since the rules last started afresh (creation, a staff `rerun`). */
  offers_made: number;
  max_offers: number;
  /** Providers offered it since then: never offered it again by the rules. */
  tried: string[];
  offers: OfferDoc[];
  decision: DecisionDoc | null;
  /**
   * The pending offer's `respond_by`, beside the offers so that staff's deadlines find offers
   * soonest first by an index; it means something only while `state` is `offered`.
   */
  respond_by?: Date;
}
