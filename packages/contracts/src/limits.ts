// The limits of the API's fields, apart from the schemas that apply them (no zod here), so that
// a web app that sets its forms' lengths from them bundles only these numbers.

/** Limits of spec 2.1's fields (the spec gives none but `budget_* ≥ 0`); published in capabilities. */
export const REQUEST_LIMITS = {
  message: 10_000,
  name: 200,
  email: 254,
  company: 200,
  website: 2_048,
  subject: 300,
  category: 64,
  budget: 1_000_000_000,
} as const;

/** Limits of the engagement's fields; published in capabilities. */
export const ENGAGEMENT_LIMITS = {
  name: 200,
  title: 200,
  text: 5_000,
  note: 2_000,
  reason: 2_000,
  url: 2_048,
  categories: 20,
  plan_milestones: 20,
  comments: 200,
  amount: 1_000_000_000,
} as const;

/** Bounds of the long-poll `GET /v1/request/{id}/events`, also published in capabilities docs. */
export const UPDATES_LIMITS = {
  /** The longest `wait`, below common 30 s proxy and load-balancer idle timeouts. */
  maxWaitSeconds: 25,
  /** Long-polls one gateway process holds at once; past it new ones get 429. */
  maxWaitersPerProcess: 2_000,
  /** Long-polls one agent key holds at once on one gateway process. */
  maxWaitersPerKey: 20,
} as const;
