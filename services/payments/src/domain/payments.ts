import type { PAYMENT_PROCESSORS } from '@handoff/contracts';

/**
 * A payment processor's name, as configured (`PAYMENT_PROVIDER`) and stored on each payment;
 * `test` is a test request's, whatever is configured (test mode settles it, nothing is charged).
 */
export type PaymentProcessorName = (typeof PAYMENT_PROCESSORS)[number];

/** The processor of every test request's payment (test mode, issue 33). */
export const TEST_PROCESSOR: PaymentProcessorName = 'test';

/** Work younger than this is left to the call that started it; the sweep takes what is older. */
export const RECOVERY_GRACE_MS = 30_000;
