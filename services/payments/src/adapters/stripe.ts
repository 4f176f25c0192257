import { BusError } from '@handoff/bus';
import Stripe from 'stripe';
import {
  STRIPE_SIGNATURE_INVALID,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProcessor,
  type ProcessorNotification,
} from './processor.ts';

export interface StripeProcessorOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API base URL (stripe-mock in tests); Stripe's own when omitted. */
  apiUrl?: string | undefined;
  /** Identifies Handoff in Stripe's logs (`appInfo`). */
  version: string;
}

/**
 * The payment method the PaymentIntent is confirmed with. Handoff collects no card details (the
 * agent API has none), so the intent is confirmed with Stripe's test Visa card: this processor
 * exercises the full PaymentIntent and webhook flow in test mode and against stripe-mock.
 */
export const STRIPE_PAYMENT_METHOD = 'pm_card_visa';

function endpointOptions(apiUrl: string | undefined) {
  if (apiUrl === undefined) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'https:' ? ('https' as const) : ('http' as const);
  return {
    host: url.hostname,
    port: url.port === '' ? (protocol === 'https' ? 443 : 80) : Number(url.port),
    protocol,
  };
}

/** Payments through Stripe PaymentIntents; the outcome arrives as a signed webhook. */
export function stripeProcessor(options: StripeProcessorOptions): PaymentProcessor {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'handoff-payments', version: options.version },
    ...endpointOptions(options.apiUrl),
  });

  const charge = async (payment: ChargeRequest): Promise<ChargeResult> => {
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: payment.amount_minor,
          currency: payment.currency.toLowerCase(),
          description: payment.description,
          confirm: true,
          payment_method: STRIPE_PAYMENT_METHOD,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          metadata: {
            payment_id: payment.payment_id,
            payment_request_id: payment.payment_request_id,
            request_id: payment.request_id,
          },
        },
        // A retry after a crash or a timeout gets the same PaymentIntent back, never a second one.
        { idempotencyKey: payment.payment_id },
      );
      return { outcome: 'pending', provider_reference: intent.id };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        return {
          outcome: 'failed',
          provider_reference: error.payment_intent?.id ?? null,
          failure_reason: error.decline_code ?? error.code ?? 'card_declined',
        };
      }
      throw error;
    }
  };

  const parseWebhook = (payload: string, signature: string): ProcessorNotification => {
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(payload, signature, options.webhookSecret);
    } catch {
      throw new BusError('signature_invalid', STRIPE_SIGNATURE_INVALID);
    }
    if (
      event.type !== 'payment_intent.succeeded' &&
      event.type !== 'payment_intent.payment_failed'
    ) {
      return { kind: 'ignored', type: event.type };
    }
    const intent = event.data.object;
    return {
      kind: event.type === 'payment_intent.succeeded' ? 'succeeded' : 'failed',
      provider_reference: intent.id,
      payment_id: intent.metadata?.payment_id ?? null,
      amount_minor: intent.amount,
      currency: intent.currency,
      failure_reason:
        event.type === 'payment_intent.payment_failed'
          ? (intent.last_payment_error?.decline_code ??
            intent.last_payment_error?.code ??
            'payment_failed')
          : null,
    };
  };

  return { name: 'stripe', charge, parseWebhook };
}
