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

/** Bounds of automatic routing: a provider's profile, a category's settings, a decision's record. */
export const ROUTING_LIMITS = {
  /** The most requests a provider may hold at once (offered to it or accepted by it). */
  capacity: 50,
  /** The capacity of a provider created without one. */
  defaultCapacity: 3,
  languages: 10,
  /** Offers per request before it goes to the staff queue: the least and the most. */
  maxOffers: 10,
  /** An offer's response window, in seconds: the least and the most. */
  minResponseSeconds: 1,
  maxResponseSeconds: 7 * 24 * 60 * 60,
  /** Candidates a decision records with their reasons (the chosen one among them). */
  candidates: 10,
  /** Offers a request keeps in its record (older ones drop off, oldest first). */
  offers: 25,
  /** Outcomes a provider's score is computed from (the most recent). */
  outcomes: 20,
} as const;

/** A language as a BCP 47 primary tag, optionally with a region: `en`, `de`, `pt-BR`. */
export const LANGUAGE_TAG_PATTERN = /^[a-z]{2,3}(?:-[A-Z]{2})?$/;
