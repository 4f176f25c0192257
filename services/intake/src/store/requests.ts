// A request as intake stores it in `requests`: what the request handlers and the providers'
// views both read, in a module of its own so that neither imports the other for it.
import type { Request, RequestStatus, Routing, TestScenario } from '@handoff/contracts';
import type { AutoRoutingDoc } from './auto-routing.ts';
import type { OutboxFields } from '@handoff/runtime';
import type { Store } from '@handoff/store';
import type { Collection } from 'mongodb';

export interface RequestDoc extends OutboxFields {
  _id: string;
  /** The owning integration: every agent read is scoped by it. */
  integration_id: string;
  /** SHA-256 of the request token; the token itself is never stored. */
  token_hash: string;
  status: RequestStatus;
  routing: Routing;
  message: string;
  category: string | null;
  subject: string | null;
  customer: {
    name: string | null;
    email: string | null;
    company: string | null;
    website: string | null;
  };
  contact_permission: boolean;
  marketplace: Request['marketplace'];
  budget_min: number | null;
  budget_max: number | null;
  /** The customer's language (absent on requests stored before automatic routing). */
  language?: string | null;
  /** Where automatic routing stands (absent on requests stored before it: routed by hand). */
  auto_routing?: AutoRoutingDoc;
  /**
   * The provider whose proposal was accepted (set by the engagement consumer). Absent on requests
   * stored before the engagement existed, which read as null.
   */
  engaged_provider_id?: string | null;
  /** False on a test request (made with a `hk_test_` key); absent on live ones. */
  livemode?: false;
  /** The scenario a test request runs (test mode). */
  test_scenario?: TestScenario;
  /** The test clock a test request runs on (`clk_…`), if it was made on one. */
  test_clock?: string;
  /** Set when its customer cancelled it: why, for staff. */
  cancellation?: { by: 'customer'; reason: string | null; at: Date };
  created_at: Date;
  updated_at: Date;
}

export function requestView(doc: RequestDoc): Request {
  return {
    object: 'request',
    id: doc._id,
    status: doc.status,
    routing: doc.routing,
    message: doc.message,
    category: doc.category,
    subject: doc.subject,
    customer: doc.customer,
    contact_permission: doc.contact_permission,
    marketplace: doc.marketplace,
    budget_min: doc.budget_min,
    budget_max: doc.budget_max,
    language: doc.language ?? null,
    engaged_provider_id: doc.engaged_provider_id ?? null,
    livemode: doc.livemode !== false,
    test_scenario: doc.test_scenario ?? null,
    test_clock: doc.test_clock ?? null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

export function requestCollection(store: Store): Collection<RequestDoc> {
  return store.db.collection<RequestDoc>('requests');
}
