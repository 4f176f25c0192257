import { TEST_PROCESSOR } from '../domain/payments.ts';
import type { PaymentProcessor } from './processor.ts';

/**
 * The processor of a test request's payments: it calls nothing outside (no Stripe, no staff's
 * manual settling); the testmode service confirms or fails the payment as its scenario says.
 */
export function testProcessor(): PaymentProcessor {
  return {
    name: TEST_PROCESSOR,
    charge: async () => ({ outcome: 'pending', provider_reference: null }),
  };
}
