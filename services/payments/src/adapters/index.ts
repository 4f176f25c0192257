import type { Env } from '../env.ts';
import { manualProcessor } from './manual.ts';
import type { PaymentProcessor } from './processor.ts';
import { stripeProcessor } from './stripe.ts';

export type * from './processor.ts';
export { STRIPE_SIGNATURE_INVALID } from './processor.ts';

/** The payment processor `PAYMENT_PROVIDER` names (the env schema has checked its settings). */
export function createProcessor(env: Env, version: string): PaymentProcessor {
  if (env.PAYMENT_PROVIDER === 'manual') return manualProcessor();
  if (env.STRIPE_SECRET_KEY === undefined || env.STRIPE_WEBHOOK_SECRET === undefined) {
    throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  return stripeProcessor({
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    apiUrl: env.STRIPE_API_URL,
    version,
  });
}
