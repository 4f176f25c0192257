import type { PAYMENT_PROVIDERS } from '@handoff/contracts';

/** A payment processor's name, as configured (`PAYMENT_PROVIDER`) and stored on each payment. */
export type PaymentProcessorName = (typeof PAYMENT_PROVIDERS)[number];

/** Work younger than this is left to the call that started it; the sweep takes what is older. */
export const RECOVERY_GRACE_MS = 30_000;
