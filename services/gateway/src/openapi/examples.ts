/**
 * A request example per operation of the agent's path (and the staff and provider steps around
 * it), by operationId: the walkthrough of the README, as `example` of each request body in the
 * OpenAPI document. A test parses every one with its route's own body schema, so they stay valid
 * (Schemathesis sends them too).
 */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  submitAccessApplication: {
    app_name: 'Acme Concierge',
    description: 'Hands customer requests to humans.',
    contact_email: 'dev@acme.example',
    requested_scopes: ['requests:create', 'requests:read'],
  },
  createHandoffRequest: {
    message: 'A one-page website with an order form for our bakery.',
    category: 'web-development',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    contact_permission: true,
    marketplace_opt_in: false,
    budget_min: 800,
    budget_max: 1500,
  },
  createHumanRequestLegacy: {
    message: 'Please find me a plumber for a leaking kitchen tap this week.',
    category: 'home-services',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
  },
  sendMessage: { message: 'Any update?' },
  cancelRequest: { reason: 'The customer found a baker’s website template instead.' },
  proposePaymentRequest: {
    amount: 120.5,
    currency: 'EUR',
    description: 'Deposit',
    reference: 'INV-1',
  },
  declineProposal: { reason: 'Over our budget.' },
  requestMilestoneChanges: { reason: 'The order form needs a pickup time.' },
  openDispute: {
    kind: 'refund',
    reason: 'No confirmation e-mail.',
    amount: 200,
    currency: 'USD',
  },
  commentOnDispute: { message: 'The customer never got the order e-mail.' },
  createWebhookEndpoint: {
    url: 'https://agent.example.com/handoff/webhooks',
    event_types: ['request.updated', 'message.created'],
  },
  approveAccessApplication: {
    scopes: ['requests:create', 'requests:read', 'messages:create', 'payments:propose'],
  },
  rejectAccessApplication: { reason: 'The contact address does not answer.' },
  updateIntegration: {
    scopes: ['requests:create', 'requests:read', 'messages:create', 'payments:propose'],
  },
  rejectPaymentRequest: { reason: 'No invoice attached.' },
  confirmPayment: { reference: 'bank-transfer-42' },
  createProvider: {
    name: 'Lovelace Studio',
    email: 'hello@lovelace.example',
    categories: ['web-development'],
  },
  updateRequest: {
    status: 'routed',
    routing: { mode: 'direct', provider_ids: ['prv_01m85ww9h11crhsqhqwznm8j0v'] },
  },
  reviewMarketplacePublication: { decision: 'approved' },
  resolveDispute: {
    outcome: 'split',
    reason: 'Half of the e-mails went out.',
    customer_share_percent: 50,
  },
  sendProviderMessage: { message: 'Do you already have a domain name?' },
  createProposal: {
    message: 'A one-page site with an order form.',
    amount: 1200,
    currency: 'USD',
    estimated_days: 14,
    milestones: [{ title: 'Design and build', amount: 1200, due_in_days: 14 }],
  },
  updateMilestoneProgress: { progress: 60 },
  createDeliverable: { title: 'First version', url: 'https://preview.example.com/v1' },
  createTestClock: { frozen_time: '2030-01-01T09:00:00Z', name: 'Checkout flow' },
  advanceTestClock: { frozen_time: '2030-01-15T09:00:00Z' },
};
