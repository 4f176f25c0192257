import type { Logger } from '@handoff/observability';
import { packageVersion, runService, sequenceFromIntake, withSequence } from '@handoff/runtime';
import { paymentEndpoints, paymentOutboxCollections } from './domain/handlers.ts';
import { readEnv } from './env.ts';
import { collections } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export interface BootstrapOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

export async function bootstrap(options: BootstrapOptions = {}) {
  return runService({
    name: 'payments',
    version: VERSION,
    description: 'Payment requests proposed by agents, staff approval, and payments.',
    env: readEnv(options.env),
    collections,
    outbox: {
      collections: paymentOutboxCollections,
      // Intake owns requests and hands out each request's event sequence numbers.
      beforePublish: ({ bus }) => withSequence(sequenceFromIntake(bus.nc)),
    },
    endpoints: (deps) => paymentEndpoints(deps),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
