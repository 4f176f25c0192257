import type { PaymentProcessor } from './processor.ts';

/**
 * The default processor: it records the payment and moves no money itself. Staff settle it
 * outside Handoff and confirm it (`payments.confirm`), or mark it failed.
 */
export function manualProcessor(): PaymentProcessor {
  return {
    name: 'manual',
    charge: async () => ({ outcome: 'pending', provider_reference: null }),
  };
}
