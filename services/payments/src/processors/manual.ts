import type { PaymentProvider } from './processor.ts';

/**
 * The default provider: it records the payment and moves no money itself. Staff settle it
 * outside Handoff and confirm it (`payments.confirm`), or mark it failed.
 */
export function manualProvider(): PaymentProvider {
  return {
    name: 'manual',
    charge: async () => ({ outcome: 'pending', provider_reference: null }),
  };
}
