// The variables of services/payments. The schema lives in this package rather than in the service so
// that the dev stack (which checks a stack's settings before it starts anything) and the deploy
// checks read the same schema without importing a service. The service reads it in src/env.ts.
import { PAYMENT_PROVIDERS } from '@handoff/contracts';
import { z } from 'zod';
import { baseServiceEnv } from '../index.ts';

export const paymentsEnv = baseServiceEnv
  .extend({
    /** The payment processor: `manual` (staff confirm) or `stripe` (PaymentIntents + webhooks). */
    PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).default('manual'),
    /** Stripe API key (secret or restricted); required with `PAYMENT_PROVIDER=stripe`. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_-]+$/, 'must be a Stripe key: sk_… or rk_…')
      .optional(),
    /** The signing secret of the Stripe webhook endpoint; required with `PAYMENT_PROVIDER=stripe`. */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9_+/=-]+$/, 'must be a Stripe webhook signing secret: whsec_…')
      .optional(),
    /** Another Stripe API base URL, such as stripe-mock's `http://127.0.0.1:12111`. */
    STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.PAYMENT_PROVIDER !== 'stripe') return;
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (env[name] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is required with PAYMENT_PROVIDER=stripe',
        });
      }
    }
  });
export type PaymentsEnv = z.output<typeof paymentsEnv>;
