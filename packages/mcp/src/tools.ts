import {
  DisputeComment,
  DisputeCreate,
  MessageCreate,
  MilestoneChangeRequest,
  PaymentRequestCreate,
  ProposalDecline,
  RequestCancel,
  RequestCreateFields,
  RequestUpdatesQuery,
  UPDATES_LIMITS,
} from '@handoff/contracts';
import { toArray, type HandoffClient } from '@handoff/sdk';
import { TEST_CREATE_NOTE, TEST_TOOLS } from './test-tools.ts';
import { FILE_TOOLS } from './file-tools.ts';
import { bodyOf, onRequest, type Described, type Requests, type Token } from './request-tool.ts';
import type { ToolDefinition } from './tool-definition.ts';
import { z } from 'zod';

export type { ToolDefinition };

/** A tool listing a collection of the request, every page of it. */
const listTool = (
  tool: Described,
  collection: (requests: Requests) => {
    list: (id: string, filters: object, opts: Token) => AsyncIterable<unknown>;
  },
) =>
  onRequest(tool, {}, async (requests, id, opts) => ({
    data: await toArray(collection(requests).list(id, {}, opts)),
  }));

/**
 * A tool on one child of the request (a proposal, a milestone, a dispute) whose id is the `key`
 * argument; `call` gets the child's id and the other fields as the body.
 */
const childTool = (
  tool: Described,
  key: string,
  fields: z.ZodRawShape,
  call: (
    requests: Requests,
    id: string,
    childId: string,
    opts: Token,
    body: Record<string, unknown>,
  ) => unknown,
) =>
  onRequest(tool, { [key]: z.string().max(64), ...fields }, (requests, id, opts, args) => {
    const { [key]: childId, ...body } = bodyOf(args);
    return call(requests, id, String(childId), opts, body);
  });

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'list_service_categories',
    title: 'List service categories',
    description:
      'The service categories Handoff routes requests to (slug, name, description); use a slug as `category` in create_handoff.',
    scopes: [],
    operationId: 'listServiceCategories',
    input: z.object({}),
    readOnly: true,
    run: (client) => client.services(),
  },
  {
    name: 'create_handoff',
    title: 'Hand a request to humans',
    description:
      "Hands the customer's request over to human providers. The answer holds `id` and `request_token`: keep both; every other tool about this request needs them, and the token is shown only here.",
    scopes: ['requests:create'],
    operationId: 'createHandoffRequest',
    // A live key's tool has no test fields (the API refuses them from it); see `toolsFor`.
    input: z.object(RequestCreateFields.shape).omit({ test_scenario: true, test_clock: true }),
    readOnly: false,
    task: true,
    run: (client, args) =>
      client.requests.create(args as Parameters<HandoffClient['requests']['create']>[0]),
  },
  onRequest(
    {
      name: 'get_handoff',
      title: 'Read a handoff',
      description:
        'The request with its status, routing, whole conversation in order and approved payment requests.',
      scopes: ['requests:read'],
      operationId: 'getRequest',
      readOnly: true,
    },
    {},
    (requests, id, opts) => requests.get(id, opts),
  ),
  onRequest(
    {
      name: 'send_message',
      title: 'Send a message',
      description:
        "Adds a message from the customer's side to the request's conversation. `attachments` sends files uploaded with upload_file first (their ids, at most 10), which the provider can then open.",
      scopes: ['messages:create'],
      operationId: 'sendMessage',
      readOnly: false,
    },
    MessageCreate.shape,
    (requests, id, opts, args) => requests.sendMessage(id, bodyOf(args), opts),
  ),
  ...FILE_TOOLS,
  onRequest(
    {
      name: 'propose_payment',
      title: 'Propose a payment request',
      description:
        'Proposes a payment request for the request. Staff approve it before it appears in get_handoff; no money moves until then.',
      scopes: ['payments:propose'],
      operationId: 'proposePaymentRequest',
      readOnly: false,
    },
    PaymentRequestCreate.shape,
    (requests, id, opts, args) => requests.proposePayment(id, bodyOf(args), opts),
  ),
  onRequest(
    {
      name: 'cancel_handoff',
      title: 'Cancel a handoff',
      description:
        'Cancels the request while no provider is engaged yet (status `submitted` or `routed`), optionally with a reason for staff: open proposals are declined. Once a proposal was accepted (`in_progress`) it is refused with `invalid_state_transition`: open a dispute instead.',
      scopes: ['requests:create'],
      operationId: 'cancelRequest',
      readOnly: false,
    },
    RequestCancel.shape,
    (requests, id, opts, args) => requests.cancel(id, bodyOf(args), opts),
  ),
  listTool(
    {
      name: 'list_proposals',
      title: "List providers' proposals",
      description:
        "Providers' proposals for the request (price, plan of milestones, status), newest first.",
      scopes: ['proposals:read'],
      operationId: 'listProposals',
      readOnly: true,
    },
    (requests) => requests.proposals,
  ),
  childTool(
    {
      name: 'accept_proposal',
      title: 'Accept a proposal',
      description:
        "Accepts one proposal: its job starts, its plan's milestones are created, the other open proposals are declined.",
      scopes: ['proposals:accept'],
      operationId: 'acceptProposal',
      readOnly: false,
    },
    'proposal_id',
    {},
    (requests, id, proposalId, opts) => requests.proposals.accept(id, proposalId, opts),
  ),
  childTool(
    {
      name: 'decline_proposal',
      title: 'Decline a proposal',
      description: 'Declines one proposal, optionally with a reason the provider sees.',
      scopes: ['proposals:accept'],
      operationId: 'declineProposal',
      readOnly: false,
    },
    'proposal_id',
    ProposalDecline.shape,
    (requests, id, proposalId, opts, body) =>
      requests.proposals.decline(id, proposalId, body, opts),
  ),
  listTool(
    {
      name: 'list_milestones',
      title: 'List milestones',
      description:
        'The milestones of the request with status, progress, revision and review deadline.',
      scopes: ['milestones:read'],
      operationId: 'listMilestones',
      readOnly: true,
    },
    (requests) => requests.milestones,
  ),
  childTool(
    {
      name: 'approve_milestone',
      title: 'Approve a milestone',
      description:
        'Approves a milestone the provider submitted for review (status `submitted`). Approval never moves money.',
      scopes: ['milestones:review'],
      operationId: 'approveMilestone',
      readOnly: false,
    },
    'milestone_id',
    {},
    (requests, id, milestoneId, opts) => requests.milestones.approve(id, milestoneId, opts),
  ),
  childTool(
    {
      name: 'request_milestone_changes',
      title: 'Request changes to a milestone',
      description: 'Sends a submitted milestone back to the provider with the reason.',
      scopes: ['milestones:review'],
      operationId: 'requestMilestoneChanges',
      readOnly: false,
    },
    'milestone_id',
    MilestoneChangeRequest.shape,
    (requests, id, milestoneId, opts, body) =>
      requests.milestones.requestChanges(id, milestoneId, body as { reason: string }, opts),
  ),
  listTool(
    {
      name: 'list_disputes',
      title: 'List disputes',
      description: 'Disputes and refund cases of the request with their status and comments.',
      scopes: ['disputes:read'],
      operationId: 'listDisputes',
      readOnly: true,
    },
    (requests) => requests.disputes,
  ),
  onRequest(
    {
      name: 'open_dispute',
      title: 'Open a dispute or refund case',
      description:
        'Opens a dispute (`kind: dispute`) or a refund case (`kind: refund`, with `amount`) on the request or one milestone. Staff resolve it.',
      scopes: ['disputes:manage'],
      operationId: 'openDispute',
      readOnly: false,
    },
    DisputeCreate.shape,
    (requests, id, opts, args) => requests.disputes.open(id, bodyOf(args), opts),
  ),
  childTool(
    {
      name: 'comment_on_dispute',
      title: 'Comment on a dispute',
      description: 'Adds a comment to an open dispute of the request.',
      scopes: ['disputes:manage'],
      operationId: 'commentOnDispute',
      readOnly: false,
    },
    'dispute_id',
    DisputeComment.shape,
    (requests, id, disputeId, opts, body) =>
      requests.disputes.comment(id, disputeId, body as { message: string }, opts),
  ),
  childTool(
    {
      name: 'withdraw_dispute',
      title: 'Withdraw a dispute',
      description: 'Withdraws an open dispute of the request.',
      scopes: ['disputes:manage'],
      operationId: 'withdrawDispute',
      readOnly: false,
    },
    'dispute_id',
    {},
    (requests, id, disputeId, opts) => requests.disputes.withdraw(id, disputeId, opts),
  ),
  onRequest(
    {
      name: 'wait_for_updates',
      title: 'Wait for updates',
      description:
        `The request's events after \`after\` (a \`sequence\`), in order; when there are none yet, waits up to \`wait\` seconds (at most ${UPDATES_LIMITS.maxWaitSeconds}) for the next. ` +
        'Pass the highest `sequence` you have seen as `after` next time. An empty `data` means nothing happened yet: call again.',
      scopes: ['requests:read'],
      operationId: 'waitForRequestUpdates',
      readOnly: true,
    },
    { after: RequestUpdatesQuery.shape.after, wait: RequestUpdatesQuery.shape.wait },
    (requests, id, opts, args) => {
      const { after, wait } = RequestUpdatesQuery.parse({ after: args.after, wait: args.wait });
      return requests.waitForUpdates(id, { after, wait }, opts);
    },
  ),
];

/**
 * The tools a key with these scopes may use. A test key (`livemode: false`) also gets the test
 * clock tools, and `create_handoff` with `test_scenario` and `test_clock`.
 */
export const toolsFor = (scopes: readonly string[], livemode = true) =>
  (livemode ? TOOLS : [...TOOLS.map(withTestFields), ...TEST_TOOLS]).filter((tool) =>
    tool.scopes.every((scope) => scopes.includes(scope)),
  );

function withTestFields(tool: ToolDefinition): ToolDefinition {
  if (tool.name !== 'create_handoff') return tool;
  return {
    ...tool,
    description: tool.description + TEST_CREATE_NOTE,
    input: z.object(RequestCreateFields.shape),
  };
}
