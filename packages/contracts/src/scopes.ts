// Apart from the schemas (no zod here), so that a web app that lists the scopes bundles only them.

/** Scopes an integration can hold. The first four come from the spec; staff choose, deny by default. */
export const SCOPES = [
  'requests:create',
  'requests:read',
  'messages:create',
  'payments:propose',
  'webhooks:manage',
  'events:read',
  // The customer's side of the engagement, which the agent acts on with the request token.
  'proposals:read',
  'proposals:accept',
  'jobs:read',
  'milestones:read',
  'milestones:review',
  'disputes:read',
  'disputes:manage',
] as const;
