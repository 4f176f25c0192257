import type { Logger } from '@handoff/observability';
import {
  auditEndpoints,
  auditFromOutbox,
  packageVersion,
  runService,
  sequenceFromIntake,
  withSequence,
} from '@handoff/runtime';
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
      beforePublish: ({ bus, store }) => {
        const sequence = withSequence(sequenceFromIntake(bus.nc));
        const audit = auditFromOutbox('payments', store);
        return async (message) => {
          await audit(message);
          return sequence(message);
        };
      },
    },
    endpoints: (deps) => ({ ...paymentEndpoints(deps), ...auditEndpoints('payments', deps.store) }),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
