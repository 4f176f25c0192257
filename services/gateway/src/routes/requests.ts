import {
  DEFAULT_CURRENCY,
  listOf,
  ListQuery,
  Message,
  messageOps,
  PaymentRequest,
  PaymentRequestCreate,
  PaymentRequestStatus,
  PaymentStatus,
  paymentOps,
  paymentRecordOps,
  RequestPayment,
  RequestCreateFields,
  RequestCreated,
  withBudgetOrder,
  type RequestCreate,
  RequestCancel,
  RequestDetail,
  requestOps,
  type Request,
  testClockOps,
} from '@handoff/contracts';
import { generateSecret } from '@handoff/runtime';
import { z } from 'zod';
import type { ServiceCategory } from '../categories.ts';
import { fixedDocumentRoute } from '../http/fixed-document.ts';
import {
  defineRoute,
  type RequestContext,
  type RouteContext,
  type RouteDefinition,
} from '../http/route.ts';
import { checkAmount } from './amount-precision.ts';
import { validationFailed } from '../http/errors.ts';
import { child, RequestParams } from './ids.ts';
import { NEW_MESSAGE } from './new-message.ts';
import { filteredList, page } from './paging.ts';

/**
 * The agent's reads of an owned request and of what hangs on it, with the request's token: an
 * unknown or foreign request is 404 `request_not_found`.
 */
const READ = {
  method: 'get',
  tags: ['requests'],
  access: { kind: 'agent', scopes: ['requests:read'] },
  requestToken: 'owner',
  params: RequestParams,
  status: 200,
  notFound: ['request_not_found'],
} as const;

/** The lists of a request's payment requests and of its payments, by status. */
const PAYMENT_REQUESTS = filteredList({ status: PaymentRequestStatus.optional() });
const PAYMENTS = filteredList({ status: PaymentStatus.optional() });

/** The deprecated alias's schedule (RFC 9745 `Deprecation`, RFC 8594 `Sunset`). */
export const HUMAN_REQUEST_DEPRECATION = {
  Deprecation: '@1767225600',
  Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
  Link: '</v1/ai-to-human-request>; rel="successor-version"',
} as const;

type OwnedRequestContext = RouteContext<'agent'> & RequestContext<'owner'>;

/**
 * The agent's read: the request (its token already checked by the pipeline; intake reads it for
 * its owner only), its conversation and its approved payment requests, asked at once. `request`
 * is how the request itself is had: read, or as an action on it answered.
 */
async function readDetail(
  ctx: OwnedRequestContext,
  asked: Promise<Request> = ctx.call(requestOps.get, {
    request_id: ctx.request.id,
    integration_id: ctx.agent.integration_id,
  }),
) {
  const { id } = ctx.request;
  const [request, conversation, payments] = await Promise.allSettled([
    asked,
    ctx.call(messageOps.list, { request_id: id }),
    ctx.call(paymentOps.listApproved, { request_id: id }),
  ]);
  if (request.status === 'rejected') throw request.reason;
  if (conversation.status === 'rejected') throw conversation.reason;
  if (payments.status === 'rejected') throw payments.reason;
  return {
    ...request.value,
    conversation: conversation.value.data,
    conversation_has_more: conversation.value.has_more,
    payments: payments.value.data,
  };
}

/** The agent's calls on a request it owns, with its token (checked by the pipeline). */
const OWNED_REQUEST_ROUTES: RouteDefinition[] = [
  defineRoute({
    path: '/v1/request/{id}',
    operationId: 'getRequest',
    summary: 'Read an owned request with its conversation and approved payment data',
    ...READ,
    response: RequestDetail,
    // Only the owner with its token reaches the replica's request cache (the pipeline checked
    // both); a read there is current until the request's next event.
    // A miss reads the request's view (services/gateway/src/views), or the services when the view
    // is behind what the request's writes have announced.
    handle: (ctx) => ctx.request.view(() => readDetail(ctx)),
  }),
  defineRoute({
    path: '/v1/request/{id}/messages',
    operationId: 'listRequestMessages',
    summary:
      'The whole conversation of an owned request, a page at a time, newest first (extension)',
    ...READ,
    query: ListQuery,
    response: listOf(Message),
    // The read shows the newest 1,000 messages; this list reaches every one of them.
    handle: (ctx) => ctx.call(messageOps.list, { ...page(ctx.query), request_id: ctx.request.id }),
  }),
  defineRoute({
    path: '/v1/request/{id}/payment-requests',
    operationId: 'listRequestPaymentRequests',
    summary:
      'Every payment request of an owned request, newest first, whatever its status (extension)',
    ...READ,
    query: PAYMENT_REQUESTS.query,
    response: listOf(PaymentRequest),
    // The spec's read (`GET /v1/request/{id}`) keeps showing approved ones only; this list
    // shows pending, rejected (with `rejection_reason`) and expired ones too.
    handle: (ctx) =>
      ctx.call(paymentOps.list, {
        ...PAYMENT_REQUESTS.input(ctx.query),
        request_id: ctx.request.id,
      }),
  }),
  defineRoute({
    path: '/v1/request/{id}/payment-requests/{payment_request_id}',
    operationId: 'getRequestPaymentRequest',
    summary: 'One payment request of an owned request, whatever its status (extension)',
    ...READ,
    params: child('payment_request_id'),
    response: PaymentRequest,
    notFound: ['payment_request_not_found', 'request_not_found'],
    handle: (ctx) =>
      ctx.call(paymentOps.getForRequest, {
        id: ctx.params.payment_request_id,
        request_id: ctx.request.id,
      }),
  }),
  defineRoute({
    path: '/v1/request/{id}/payments',
    operationId: 'listRequestPayments',
    summary:
      'The payments of an owned request (one per approved payment request), newest first, with their outcome (extension)',
    ...READ,
    query: PAYMENTS.query,
    response: listOf(RequestPayment),
    handle: async (ctx) => {
      const list = await ctx.call(paymentRecordOps.list, {
        ...PAYMENTS.input(ctx.query),
        request_id: ctx.request.id,
      });
      // The payment provider's name and reference are staff's.
      return {
        ...list,
        data: list.data.map(
          ({ provider: _provider, provider_reference: _reference, ...payment }) => payment,
        ),
      };
    },
  }),
  defineRoute({
    ...NEW_MESSAGE,
    path: '/v1/request/{id}/message',
    operationId: 'sendMessage',
    summary: 'Send a follow-up message into the conversation',
    tags: ['requests'],
    access: { kind: 'agent', scopes: ['messages:create'] },
    requestToken: 'open',
    params: RequestParams,
    handle: (ctx) =>
      ctx.call(messageOps.create, {
        request_id: ctx.request.id,
        integration_id: ctx.agent.integration_id,
        author_role: 'agent',
        message: ctx.body.message,
        ...(ctx.body.attachments ? { attachments: ctx.body.attachments } : {}),
      }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/cancel',
    operationId: 'cancelRequest',
    summary:
      'Cancel an owned request while no provider is engaged (`submitted`, `routed`); from `in_progress` 409 `invalid_state_transition`: open a dispute instead (extension)',
    tags: ['requests'],
    // Withdrawing a hand-off before anyone took it is the other side of making it.
    access: { kind: 'agent', scopes: ['requests:create'] },
    // A closed request is refused by the machine (409 `invalid_state_transition`, naming its
    // state), as every other state the customer may not cancel from.
    requestToken: 'owner',
    params: RequestParams,
    body: RequestCancel,
    bodyOptional: true,
    status: 200,
    response: RequestDetail,
    notFound: ['request_not_found'],
    // Answered as the agent's read shows the request now: cancelled, with its conversation.
    handle: (ctx) =>
      readDetail(
        ctx,
        ctx.call(requestOps.cancel, {
          request_id: ctx.request.id,
          integration_id: ctx.agent.integration_id,
          ...(ctx.body.reason === undefined ? {} : { reason: ctx.body.reason }),
        }),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/request/{id}/payment-request',
    operationId: 'proposePaymentRequest',
    summary: 'Propose a custom payment request; saved pending staff approval',
    tags: ['requests'],
    access: { kind: 'agent', scopes: ['payments:propose'] },
    requestToken: 'open',
    params: RequestParams,
    body: PaymentRequestCreate,
    status: 201,
    response: PaymentRequest,
    notFound: ['request_not_found'],
    conflicts: ['request_closed'],
    checkBody: checkAmount,
    handle: (ctx) =>
      ctx.call(paymentOps.create, {
        request_id: ctx.request.id,
        integration_id: ctx.agent.integration_id,
        input: { ...ctx.body, currency: ctx.body.currency ?? DEFAULT_CURRENCY },
      }),
  }),
];

export function requestRoutes(categories: readonly ServiceCategory[]): RouteDefinition[] {
  const slugs = categories.map((category) => category.slug);

  // The category must be one the deployment offers; the schema (and so OpenAPI) lists them.
  const body = withBudgetOrder(
    RequestCreateFields.extend({
      category: z
        .enum(slugs as [string, ...string[]], {
          error: `not a supported category; use one of: ${slugs.join(', ')} (GET /v1/services)`,
        })
        .optional(),
    }),
  );

  const create = async (ctx: RouteContext<'agent', unknown, unknown, RequestCreate>) => {
    // `test_scenario` says what the simulated provider does, `test_clock` which clock moves the
    // request's deadlines: a live request has no such thing.
    for (const [field, what] of [
      ['test_scenario', 'scenario'],
      ['test_clock', 'clock'],
    ] as const) {
      if (ctx.agent.livemode && ctx.body[field] !== undefined) {
        throw validationFailed([
          {
            pointer: `/${field}`,
            code: 'test_mode_only',
            detail: `Only a test key (\`hk_test_…\`) may name a test ${what}.`,
          },
        ]);
      }
    }
    // The clock counts the request before it exists, and may refuse it (full, advancing, unknown).
    if (ctx.body.test_clock !== undefined) {
      await ctx.call(testClockOps.reserve, {
        integration_id: ctx.agent.integration_id,
        id: ctx.body.test_clock,
      });
    }
    const { secret, hash } = generateSecret('hrt', 40);
    const request = await ctx.call(requestOps.create, {
      integration_id: ctx.agent.integration_id,
      token_hash: hash,
      input: ctx.body,
      ...(ctx.agent.livemode ? {} : { livemode: false }),
    });
    ctx.views?.begin({ integration_id: ctx.agent.integration_id, token_hash: hash }, request);
    return { ...request, request_token: secret };
  };

  const createRoute = (path: string, deprecated: boolean) =>
    defineRoute({
      method: 'post',
      path,
      operationId: deprecated ? 'createHumanRequestLegacy' : 'createHandoffRequest',
      summary: deprecated
        ? 'Deprecated alias of POST /v1/ai-to-human-request; same body and behaviour'
        : 'Create a handoff request; the request token is returned only here',
      tags: ['requests'],
      access: { kind: 'agent', scopes: ['requests:create'] },
      body,
      status: 201,
      response: RequestCreated,
      notFound: ['test_clock_not_found'],
      conflicts: ['test_clock_full', 'test_clock_advancing'],
      ...(deprecated ? { deprecated: true, headers: { ...HUMAN_REQUEST_DEPRECATION } } : {}),
      handle: create,
    });

  return [
    fixedDocumentRoute(
      {
        path: '/v1/services',
        operationId: 'listServiceCategories',
        summary: 'Supported service categories',
        response: listOf(z.object({ slug: z.string(), name: z.string(), description: z.string() })),
      },
      { object: 'list' as const, data: [...categories], has_more: false },
    ),
    createRoute('/v1/ai-to-human-request', false),
    createRoute('/v1/human-request', true),
    ...OWNED_REQUEST_ROUTES,
  ];
}
