import { packageVersion, runService } from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { CLOCK_COLLECTIONS, clockEndpoints } from './clocks/index.ts';
import { readEnv } from './env.ts';
import { startTestModeConsumer } from './handlers/events.consumer.ts';
import { collections } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export async function bootstrap(options: BootstrapOptions = {}) {
  return runService({
    name: 'testmode',
    version: VERSION,
    description:
      'Test mode: the simulated provider that answers test requests through the services’ operations.',
    env: readEnv(options.env),
    collections: { ...collections, ...CLOCK_COLLECTIONS },
    // Test clocks: an integration's clocks and their advances (src/clocks/).
    endpoints: (deps) => clockEndpoints(deps),
    // The simulated provider hears test requests' events and acts on them.
    background: ({ bus, store, logger }) => startTestModeConsumer({ bus, store, logger }),
    logger: options.logger,
  });
}
