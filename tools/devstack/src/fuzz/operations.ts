import type { Resources } from './resources.ts';

/** The path parameters (and request token) one operation is fixed to. */
export interface OperationFixture {
  operationId: string;
  path: Record<string, string>;
  requestToken?: string;
  /**
   * Body members fixed to a value the resource needs (a real milestone id, the job's currency, an
   * amount within the job's): what the document cannot say, so that a valid case is valid for
   * this resource too.
   */
  body?: Record<string, string | number>;
}

/** The operations fixed to one path: each resource is made for the operations that use it. */
const at =
  (path: Record<string, string>, requestToken?: string) =>
  (...operationIds: string[]): OperationFixture[] =>
    operationIds.map((operationId) => ({
      operationId,
      path,
      ...(requestToken === undefined ? {} : { requestToken }),
    }));

/** The operations on one id (`{id}` in their paths). */
const on = (id: string, ...operationIds: string[]) => at({ id })(...operationIds);

/** The agent's operations: the main engagement's, and each proposal on a request of its own. */
export function agentOperations({ agent, proposals }: Resources): OperationFixture[] {
  const { main, milestones } = agent;
  const onMain = (path: Record<string, string> = {}) => at({ id: main.id, ...path }, main.token);
  const { toAcceptOn, toDeclineOn } = proposals;
  return [
    ...onMain()(
      'getRequest',
      'listDeliverables',
      'listDisputes',
      'waitForRequestUpdates',
      'listRequestMessages',
      'listRequestPaymentRequests',
      'listRequestPayments',
      'listJobs',
      'sendMessage',
      'listMilestones',
      'proposePaymentRequest',
      'listProposals',
      'uploadRequestFile',
      'listRequestFiles',
    ),
    ...onMain({ file_id: agent.file })('getRequestFile'),
    // The job's currency and a real milestone, an amount within the job's.
    ...onMain()('openDispute').map((fixture) => ({
      ...fixture,
      body: { milestone_id: milestones.open, currency: 'USD', amount: 100 },
    })),
    ...onMain({ deliverable_id: agent.deliverable })('getDeliverable'),
    ...onMain({ dispute_id: agent.openDispute })('getDispute', 'commentOnDispute'),
    ...onMain({ dispute_id: agent.disputeToWithdraw })('withdrawDispute'),
    ...onMain({ payment_request_id: agent.mainPaymentRequest })('getRequestPaymentRequest'),
    ...onMain({ job_id: main.jobId })('getJob'),
    ...onMain({ milestone_id: milestones.toApprove })('getMilestone', 'approveMilestone'),
    ...onMain({ milestone_id: milestones.toSendBack })('requestMilestoneChanges'),
    ...at({ id: toDeclineOn.id, proposal_id: proposals.proposalToDecline }, toDeclineOn.token)(
      'getProposal',
      'declineProposal',
    ),
    ...at(
      { id: toAcceptOn.id, proposal_id: proposals.proposalToAccept },
      toAcceptOn.token,
    )('acceptProposal'),
    ...at({ id: agent.toCancel.id }, agent.toCancel.token)('cancelRequest'),
  ];
}

/** The provider's operations, each on an id of its own or of the main engagement. */
export function providerOperations({
  agent,
  proposals,
  staff,
  routing,
}: Resources): OperationFixture[] {
  const { main, milestones } = agent;
  return [
    ...on(agent.kept, 'getProviderDeliverable'),
    ...on(agent.toWithdraw, 'withdrawDeliverable'),
    ...on(agent.openDispute, 'getProviderDispute', 'commentOnDisputeAsProvider'),
    ...on(main.jobId, 'getProviderJob'),
    ...on(staff.toComplete.jobId, 'completeJob'),
    ...on(main.jobId, 'createMilestone').map((fixture) => ({
      ...fixture,
      body: { currency: 'USD' },
    })),
    ...on(milestones.open, 'getProviderMilestone', 'createDeliverable', 'updateMilestoneProgress'),
    ...on(milestones.toSubmit, 'submitMilestone'),
    ...on(proposals.proposalToWithdraw, 'getProviderProposal', 'withdrawProposal'),
    ...on(
      main.id,
      'getProviderRequest',
      'sendProviderMessage',
      'uploadProviderRequestFile',
      'listProviderRequestFiles',
    ),
    // The agent's file in the conversation, which the engaged provider may read.
    ...at({ id: main.id, file_id: agent.file })('getProviderRequestFile'),
    ...on(milestones.open, 'uploadDeliverableFile'),
    ...on(proposals.unproposed.id, 'createProposal'),
    ...on(routing.toAccept.id, 'acceptOffer'),
    ...on(routing.toDecline.id, 'declineOffer'),
  ];
}

/** Staff's operations: access, disputes, money, integrations, providers and requests. */
export function staffOperations({
  staff,
  access,
  providerId,
  routing,
}: Resources): OperationFixture[] {
  const integration = access.second.integration_id;
  const other = access.otherProviderId;
  return [
    ...on(access.applicationToApprove, 'getAccessApplicationAsStaff', 'approveAccessApplication'),
    ...on(access.applicationToReject, 'rejectAccessApplication'),
    ...on(
      staff.disputeToEscalate,
      'getDisputeAsStaff',
      'commentOnDisputeAsStaff',
      'escalateDispute',
    ),
    ...on(staff.disputeToResolve, 'resolveDispute'),
    ...on(
      integration,
      'getIntegration',
      'listWebhookEndpointsAsStaff',
      'updateIntegration',
      'issueApiKey',
    ),
    ...at({ id: integration, endpoint_id: access.hookId })(
      'listWebhookAttemptsAsStaff',
      'rotateWebhookEndpointSecretAsStaff',
    ),
    ...at({ id: integration, event_id: access.eventToRedeliver })('redeliverEventAsStaff'),
    ...at({ key_id: access.second.key_id })('revokeApiKey'),
    ...on(staff.toCancel.jobId, 'cancelJob'),
    ...on(staff.milestoneToCancel, 'cancelMilestone'),
    ...on(staff.prqToApprove, 'approvePaymentRequest'),
    ...on(staff.prqToReject, 'rejectPaymentRequest'),
    ...on(staff.paymentToConfirm, 'getPayment', 'confirmPayment'),
    ...on(staff.paymentToFail, 'failPayment'),
    ...at({ key_id: access.spareProviderKey })('revokeProviderKey'),
    ...at({ session_id: access.sessionToRevoke })('revokeProviderSession'),
    ...on(other, 'listProviderSessions', 'getProvider', 'updateProvider', 'issueProviderKey'),
    ...on(staff.toChange.id, 'getRequestAsStaff', 'getRequestTimeline', 'listStaffRequestFiles'),
    // Routing names active providers only.
    ...on(staff.toChange.id, 'updateRequest').map((fixture) => ({
      ...fixture,
      body: { 'routing.provider_ids.*': providerId },
    })),
    ...on(staff.toReview.id, 'reviewMarketplacePublication'),
    ...on(routing.toSteer.id, 'suggestRequestRouting'),
    // An offer names an active provider.
    ...on(routing.toSteer.id, 'overrideRequestRouting').map((fixture) => ({
      ...fixture,
      body: { provider_id: providerId },
    })),
  ];
}
