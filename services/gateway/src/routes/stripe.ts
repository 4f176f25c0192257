import { paymentRecordOps } from '@handoff/contracts';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';

/** Stripe's webhook body limit here: the bus operation takes at most this much. */
export const STRIPE_WEBHOOK_LIMIT_BYTES = 512 * 1024;

/** What Stripe sends (an Event object); documented only, since the body is passed on unparsed. */
const StripeEvent = z
  .looseObject({
    id: z.string().meta({ description: 'The Stripe event id, `evt_...`.' }),
    object: z.literal('event'),
    type: z.string().meta({ description: 'For example `payment_intent.succeeded`.' }),
    data: z.looseObject({ object: z.looseObject({}) }),
  })
  .meta({ title: 'StripeEvent' });

/**
 * `POST /v1/webhooks/stripe`: Stripe's deliveries for the Stripe payment provider. The signature
 * covers the exact bytes, so the route takes the raw body (`rawBody`) and hands it, with the
 * `Stripe-Signature` header, to the payments service, which alone holds the webhook secret and
 * verifies it. A body that does not verify answers 400 `signature_invalid` (Stripe retries
 * non-2xx answers); a verified one answers 200 `{ "received": true }`, also for event types the
 * payments service ignores.
 */
export const stripeRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/v1/webhooks/stripe',
    operationId: 'receiveStripeWebhook',
    summary: "Stripe's webhook deliveries; verified by the payments service with its secret",
    tags: ['payments'],
    access: { kind: 'public' },
    rawBody: {
      limitBytes: STRIPE_WEBHOOK_LIMIT_BYTES,
      schema: StripeEvent,
      description:
        'The Stripe Event exactly as Stripe sent it, with its `Stripe-Signature` header; the ' +
        'bytes are verified as they arrived, so they are never parsed or re-serialized on the way.',
      badRequest: ['signature_invalid'],
    },
    requestHeaders: [
      {
        name: 'Stripe-Signature',
        description:
          "Stripe's signature of the body (`t=<unix>,v1=<hex HMAC-SHA256>`); without it the answer is 400 `signature_invalid`.",
        required: true,
      },
    ],
    status: 200,
    response: z.object({ received: z.literal(true) }),
    // The verified event reports another amount or currency than the payment's.
    conflicts: ['amount_mismatch'],
    handle: async (ctx) => {
      const signature = ctx.header('stripe-signature')?.trim();
      if (!signature || signature.length > 4_096) {
        throw new HttpError(
          'signature_invalid',
          'The Stripe-Signature header does not verify for this body.',
        );
      }
      // The payments service answers a signature that does not verify with `signature_invalid`.
      await ctx.call(paymentRecordOps.stripeWebhook, { payload: ctx.rawBody, signature });
      return { received: true as const };
    },
  }),
];
