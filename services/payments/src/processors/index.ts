import type { Env } from '../env.ts';
import { manualProvider } from './manual.ts';
import type { PaymentProvider } from './processor.ts';
import { stripeProvider } from './stripe.ts';

export type * from './processor.ts';

/** The provider `PAYMENT_PROVIDER` names (the env schema has checked its settings). */
export function createProvider(env: Env, version: string): PaymentProvider {
  if (env.PAYMENT_PROVIDER === 'manual') return manualProvider();
  if (env.STRIPE_SECRET_KEY === undefined || env.STRIPE_WEBHOOK_SECRET === undefined) {
    throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  return stripeProvider({
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    apiUrl: env.STRIPE_API_URL,
    version,
  });
}
