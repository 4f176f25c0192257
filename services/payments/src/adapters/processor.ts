import type { PaymentProcessorName } from '../domain/payments.ts';

/** What a processor needs to charge one payment. */
export interface ChargeRequest {
  payment_id: string;
  payment_request_id: string;
  request_id: string;
  /** Integer minor units of `currency`. */
  amount_minor: number;
  /** ISO 4217, upper case as stored. */
  currency: string;
  description: string;
}

/**
 * The processor's answer to a charge. `pending`: the outcome arrives later (staff confirm, or a
 * Stripe webhook); `failed`: the processor refused it outright (a declined card).
 */
export type ChargeResult =
  | { outcome: 'pending'; provider_reference: string | null }
  | { outcome: 'failed'; provider_reference: string | null; failure_reason: string };

/** A verified processor notification, reduced to what the payment machine needs. */
export type ProcessorNotification =
  | {
      kind: 'succeeded' | 'failed';
      /** The processor's id of the charge (a PaymentIntent `pi_…`). */
      provider_reference: string;
      /** Our payment id, as the charge's metadata carried it. */
      payment_id: string | null;
      amount_minor: number;
      currency: string;
      failure_reason: string | null;
    }
  | { kind: 'ignored'; type: string };

/**
 * A payment processor (manual, Stripe): what moves the money of a payment. Named "provider" where
 * it is public (`PAYMENT_PROVIDER`, a payment's `provider` and `provider_reference`); "provider"
 * elsewhere in Handoff means a human service provider.
 */
/** The answer to a Stripe webhook whose `Stripe-Signature` does not verify (400 `signature_invalid`). */
export const STRIPE_SIGNATURE_INVALID =
  'The Stripe-Signature header does not verify for this body.';

export interface PaymentProcessor {
  readonly name: PaymentProcessorName;
  /**
   * Asks the processor to charge. Must be idempotent per `payment_id`: the recovery sweep may
   * ask again after a crash. Throws on a transient failure (the sweep retries).
   */
  charge(payment: ChargeRequest): Promise<ChargeResult>;
  /**
   * Verifies a webhook's signature and reads it; throws `BusError('signature_invalid')` with
   * {@link STRIPE_SIGNATURE_INVALID} when it does not verify. Only processors that report by
   * webhook have it.
   */
  parseWebhook?(payload: string, signature: string): ProcessorNotification;
}
