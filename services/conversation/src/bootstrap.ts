import { packageVersion, runService, withSequence } from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { readEnv } from './env.ts';
import { messageEndpoints } from './handlers/messages.ts';
import { testDataEndpoints } from './handlers/test-data.ts';
import { collections } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export async function bootstrap(options: BootstrapOptions = {}) {
  return runService({
    name: 'conversation',
    version: VERSION,
    description: 'The conversation of each request: messages in order, with author roles.',
    env: readEnv(options.env),
    collections,
    outbox: {
      collections: ['messages'],
      // Written once and never changed: their events stay in them after the publish.
      kept: ['messages'],
      // Intake owns requests, so it hands out each request's event sequence numbers.
      beforePublish: ({ sequences }) => withSequence(sequences),
    },
    endpoints: (deps) => ({ ...messageEndpoints(deps), ...testDataEndpoints(deps) }),
    logger: options.logger,
  });
}
