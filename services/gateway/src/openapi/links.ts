/**
 * OpenAPI links (3.1 §4.8.20): from an operation that creates a resource to the operations that use
 * it, with the ids (and the request token) its answer carries. A client can follow them, and a
 * stateful tester (Schemathesis) walks real sequences with them: create a request, then read it,
 * write into it and propose a payment with its token; propose a payment, then read it back; open a
 * dispute, then comment on it; create a webhook endpoint, then rotate its secret.
 */

import { REQUEST_TOKEN_HEADER } from '@handoff/contracts';

export interface LinkObject {
  operationId: string;
  description?: string;
  /** Keyed by `path.<name>`, `query.<name>` or `header.<name>`: runtime expressions. */
  parameters: Record<string, string>;
}

/** One link: from `from`'s success answer to `to`, with these parameters. */
interface LinkSpec {
  from: string;
  to: string;
  parameters: Record<string, string>;
}

const TOKEN = `header.${REQUEST_TOKEN_HEADER}`;

/** A new request's id and the token only its creation answer carries. */
const NEW_REQUEST = {
  'path.id': '$response.body#/id',
  [TOKEN]: '$response.body#/request_token',
};
/** The same request as the call that made the resource, with the same token. */
const SAME_REQUEST = {
  'path.id': '$request.path.id',
  [TOKEN]: `$request.header.${REQUEST_TOKEN_HEADER}`,
};

const fan = (from: string, to: readonly string[], parameters: Record<string, string>) =>
  to.map((target): LinkSpec => ({ from, to: target, parameters }));

const LINK_SPECS: readonly LinkSpec[] = [
  // A request, by the agent that created it.
  ...fan(
    'createHandoffRequest',
    [
      'getRequest',
      'listRequestMessages',
      'sendMessage',
      'proposePaymentRequest',
      'listRequestPaymentRequests',
      'listRequestPayments',
      'listProposals',
      'listJobs',
      'listMilestones',
      'listDeliverables',
      'listDisputes',
      'openDispute',
      'waitForRequestUpdates',
      'cancelRequest',
    ],
    NEW_REQUEST,
  ),
  ...fan('createHumanRequestLegacy', ['getRequest', 'sendMessage'], NEW_REQUEST),
  // A payment request, read back whatever its status, and the request's money around it.
  ...fan('proposePaymentRequest', ['getRequestPaymentRequest'], {
    ...SAME_REQUEST,
    'path.payment_request_id': '$response.body#/id',
  }),
  ...fan(
    'proposePaymentRequest',
    ['listRequestPaymentRequests', 'listRequestPayments'],
    SAME_REQUEST,
  ),
  ...fan('openDispute', ['getDispute', 'commentOnDispute', 'withdrawDispute'], {
    ...SAME_REQUEST,
    'path.dispute_id': '$response.body#/id',
  }),
  ...fan('acceptProposal', ['getJob'], {
    ...SAME_REQUEST,
    'path.job_id': '$response.body#/job/id',
  }),
  ...fan('acceptProposal', ['getProposal'], {
    ...SAME_REQUEST,
    'path.proposal_id': '$request.path.proposal_id',
  }),
  // Webhook endpoints.
  ...fan(
    'createWebhookEndpoint',
    [
      'getWebhookEndpoint',
      'updateWebhookEndpoint',
      'listWebhookAttempts',
      'rotateWebhookEndpointSecret',
      'deleteWebhookEndpoint',
    ],
    { 'path.id': '$response.body#/id' },
  ),
  // Staff: providers and their keys, integrations' keys.
  ...fan('createProvider', ['getProvider', 'updateProvider', 'issueProviderKey'], {
    'path.id': '$response.body#/id',
  }),
  ...fan('issueProviderKey', ['revokeProviderKey'], { 'path.key_id': '$response.body#/key_id' }),
  ...fan('issueApiKey', ['revokeApiKey'], { 'path.key_id': '$response.body#/key_id' }),
  ...fan('approveAccessApplication', ['getIntegration', 'updateIntegration', 'issueApiKey'], {
    'path.id': '$response.body#/integration_id',
  }),
  // The provider's work.
  ...fan('createProposal', ['getProviderProposal', 'withdrawProposal'], {
    'path.id': '$response.body#/id',
  }),
  ...fan(
    'createMilestone',
    ['getProviderMilestone', 'updateMilestoneProgress', 'createDeliverable', 'submitMilestone'],
    { 'path.id': '$response.body#/id' },
  ),
  ...fan('createDeliverable', ['getProviderDeliverable', 'withdrawDeliverable'], {
    'path.id': '$response.body#/id',
  }),
];

/** The link specs, as `{ from: { linkName: LinkObject } }`; a link's name is its target. */
export function linksByOperation(): Map<string, Record<string, LinkObject>> {
  const out = new Map<string, Record<string, LinkObject>>();
  for (const spec of LINK_SPECS) {
    const links = out.get(spec.from) ?? {};
    links[spec.to] = { operationId: spec.to, parameters: { ...spec.parameters } };
    out.set(spec.from, links);
  }
  return out;
}
