import {
  DisputeComment,
  DisputeCreate,
  MessageCreate,
  MilestoneChangeRequest,
  PaymentRequestCreate,
  ProposalDecline,
  RequestCreateFields,
  RequestUpdatesQuery,
  UPDATES_LIMITS,
  type Scope,
} from '@handoff/contracts';
import { toArray, type HandoffClient } from '@handoff/sdk';
import { z } from 'zod';

/**
 * Every tool names the scope(s) its API call needs, so that a key only ever sees the tools it
 * may use, and the operation it mirrors (checked against the OpenAPI document in the tests).
 */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  scopes: readonly Scope[];
  operationId: string;
  input: z.ZodObject;
  readOnly: boolean;
  run(client: HandoffClient, args: Record<string, unknown>): Promise<unknown>;
}

/** The request a tool acts on: the id and the token `create_handoff` returned (stateless). */
const OnRequest = z.object({
  request_id: z.string().max(64).describe('The id `create_handoff` returned (`req_...`).'),
  request_token: z
    .string()
    .max(200)
    .describe('The `request_token` `create_handoff` returned for this request (`hrt_...`).'),
});
type OnRequest = z.infer<typeof OnRequest>;

const on = (args: Record<string, unknown>) => {
  const { request_id, request_token } = OnRequest.parse(args);
  return { id: request_id, opts: { token: request_token } };
};

/** The fields of a body schema beside the request reference (the API validates the rest). */
const withRequest = <T extends z.ZodRawShape>(shape: T) => OnRequest.extend(shape);

/** The API's body fields of a tool call: everything except the request reference. */
function bodyOf<T>(args: Record<string, unknown>): T {
  const body = { ...args };
  delete body.request_id;
  delete body.request_token;
  return body as T;
}

const str = (args: Record<string, unknown>, key: string) => String(args[key]);

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
    input: z.object(RequestCreateFields.shape),
    readOnly: false,
    run: (client, args) =>
      client.requests.create(args as Parameters<HandoffClient['requests']['create']>[0]),
  },
  {
    name: 'get_handoff',
    title: 'Read a handoff',
    description:
      'The request with its status, routing, whole conversation in order and approved payment requests.',
    scopes: ['requests:read'],
    operationId: 'getRequest',
    input: OnRequest,
    readOnly: true,
    run: (client, args) => {
      const { id, opts } = on(args);
      return client.requests.get(id, opts);
    },
  },
  {
    name: 'send_message',
    title: 'Send a message',
    description: "Adds a message from the customer's side to the request's conversation.",
    scopes: ['messages:create'],
    operationId: 'sendMessage',
    input: withRequest(MessageCreate.shape),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      return client.requests.sendMessage(id, bodyOf(args), opts);
    },
  },
  {
    name: 'propose_payment',
    title: 'Propose a payment request',
    description:
      'Proposes a payment request for the request. Staff approve it before it appears in get_handoff; no money moves until then.',
    scopes: ['payments:propose'],
    operationId: 'proposePaymentRequest',
    input: withRequest(PaymentRequestCreate.shape),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      return client.requests.proposePayment(id, bodyOf(args), opts);
    },
  },
  {
    name: 'list_proposals',
    title: "List providers' proposals",
    description:
      "Providers' proposals for the request (price, plan of milestones, status), newest first.",
    scopes: ['proposals:read'],
    operationId: 'listProposals',
    input: OnRequest,
    readOnly: true,
    run: async (client, args) => {
      const { id, opts } = on(args);
      return { data: await toArray(client.requests.proposals.list(id, {}, opts)) };
    },
  },
  {
    name: 'accept_proposal',
    title: 'Accept a proposal',
    description:
      "Accepts one proposal: its job starts, its plan's milestones are created, the other open proposals are declined.",
    scopes: ['proposals:accept'],
    operationId: 'acceptProposal',
    input: withRequest({ proposal_id: z.string().max(64) }),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      return client.requests.proposals.accept(id, str(args, 'proposal_id'), opts);
    },
  },
  {
    name: 'decline_proposal',
    title: 'Decline a proposal',
    description: 'Declines one proposal, optionally with a reason the provider sees.',
    scopes: ['proposals:accept'],
    operationId: 'declineProposal',
    input: withRequest({ proposal_id: z.string().max(64), ...ProposalDecline.shape }),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      const { proposal_id: proposalId, ...body } = bodyOf<Record<string, unknown>>(args);
      return client.requests.proposals.decline(id, String(proposalId), body, opts);
    },
  },
  {
    name: 'list_milestones',
    title: 'List milestones',
    description:
      'The milestones of the request with status, progress, revision and review deadline.',
    scopes: ['milestones:read'],
    operationId: 'listMilestones',
    input: OnRequest,
    readOnly: true,
    run: async (client, args) => {
      const { id, opts } = on(args);
      return { data: await toArray(client.requests.milestones.list(id, {}, opts)) };
    },
  },
  {
    name: 'approve_milestone',
    title: 'Approve a milestone',
    description:
      'Approves a milestone the provider submitted for review (status `submitted`). Approval never moves money.',
    scopes: ['milestones:review'],
    operationId: 'approveMilestone',
    input: withRequest({ milestone_id: z.string().max(64) }),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      return client.requests.milestones.approve(id, str(args, 'milestone_id'), opts);
    },
  },
  {
    name: 'request_milestone_changes',
    title: 'Request changes to a milestone',
    description: 'Sends a submitted milestone back to the provider with the reason.',
    scopes: ['milestones:review'],
    operationId: 'requestMilestoneChanges',
    input: withRequest({ milestone_id: z.string().max(64), ...MilestoneChangeRequest.shape }),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      const { milestone_id: milestoneId, ...body } = bodyOf<Record<string, unknown>>(args);
      return client.requests.milestones.requestChanges(
        id,
        String(milestoneId),
        body as { reason: string },
        opts,
      );
    },
  },
  {
    name: 'list_disputes',
    title: 'List disputes',
    description: 'Disputes and refund cases of the request with their status and comments.',
    scopes: ['disputes:read'],
    operationId: 'listDisputes',
    input: OnRequest,
    readOnly: true,
    run: async (client, args) => {
      const { id, opts } = on(args);
      return { data: await toArray(client.requests.disputes.list(id, {}, opts)) };
    },
  },
  {
    name: 'open_dispute',
    title: 'Open a dispute or refund case',
    description:
      'Opens a dispute (`kind: dispute`) or a refund case (`kind: refund`, with `amount`) on the request or one milestone. Staff resolve it.',
    scopes: ['disputes:manage'],
    operationId: 'openDispute',
    input: withRequest(DisputeCreate.shape),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      return client.requests.disputes.open(id, bodyOf(args), opts);
    },
  },
  {
    name: 'comment_on_dispute',
    title: 'Comment on a dispute',
    description: 'Adds a comment to an open dispute of the request.',
    scopes: ['disputes:manage'],
    operationId: 'commentOnDispute',
    input: withRequest({ dispute_id: z.string().max(64), ...DisputeComment.shape }),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      const { dispute_id: disputeId, ...body } = bodyOf<Record<string, unknown>>(args);
      return client.requests.disputes.comment(
        id,
        String(disputeId),
        body as { message: string },
        opts,
      );
    },
  },
  {
    name: 'withdraw_dispute',
    title: 'Withdraw a dispute',
    description: 'Withdraws an open dispute of the request.',
    scopes: ['disputes:manage'],
    operationId: 'withdrawDispute',
    input: withRequest({ dispute_id: z.string().max(64) }),
    readOnly: false,
    run: (client, args) => {
      const { id, opts } = on(args);
      return client.requests.disputes.withdraw(id, str(args, 'dispute_id'), opts);
    },
  },
  {
    name: 'wait_for_updates',
    title: 'Wait for updates',
    description:
      `The request's events after \`after\` (a \`sequence\`), in order; when there are none yet, waits up to \`wait\` seconds (at most ${UPDATES_LIMITS.maxWaitSeconds}) for the next. ` +
      'Pass the highest `sequence` you have seen as `after` next time. An empty `data` means nothing happened yet: call again.',
    scopes: ['requests:read'],
    operationId: 'waitForRequestUpdates',
    input: withRequest({
      after: RequestUpdatesQuery.shape.after,
      wait: RequestUpdatesQuery.shape.wait,
    }),
    readOnly: true,
    run: (client, args) => {
      const { id, opts } = on(args);
      const { after, wait } = RequestUpdatesQuery.parse({ after: args.after, wait: args.wait });
      return client.requests.waitForUpdates(id, { after, wait }, opts);
    },
  },
];

/** The tools a key with these scopes may use. */
export const toolsFor = (scopes: readonly string[]) =>
  TOOLS.filter((tool) => tool.scopes.every((scope) => scopes.includes(scope)));
