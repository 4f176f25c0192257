import type { PaymentProviderName } from '../domain/documents.ts';

/** What a provider needs to charge one payment. */
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
 * The provider's answer to a charge. `pending`: the outcome arrives later (staff confirm, or a
 * Stripe webhook); `failed`: the provider refused it outright (a declined card).
 */
export type ChargeResult =
  | { outcome: 'pending'; provider_reference: string | null }
  | { outcome: 'failed'; provider_reference: string | null; failure_reason: string };

/** A verified provider notification, reduced to what the payment machine needs. */
export type ProviderNotification =
  | {
      kind: 'succeeded' | 'failed';
      /** The provider's id of the charge (a PaymentIntent `pi_…`). */
      provider_reference: string;
      /** Our payment id, as the charge's metadata carried it. */
      payment_id: string | null;
      amount_minor: number;
      currency: string;
      failure_reason: string | null;
    }
  | { kind: 'ignored'; type: string };

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /**
   * Asks the provider to charge. Must be idempotent per `payment_id`: the recovery sweep may
   * ask again after a crash. Throws on a transient failure (the sweep retries).
   */
  charge(payment: ChargeRequest): Promise<ChargeResult>;
  /**
   * Verifies a webhook's signature and reads it; throws `BusError('forbidden')` when it does not
   * verify. Only providers that report by webhook have it.
   */
  parseWebhook?(payload: string, signature: string): ProviderNotification;
}
