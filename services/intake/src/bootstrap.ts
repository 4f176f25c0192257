import { adoptOnce, packageVersion, runAuditedService } from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { accessEndpoints } from './handlers/access.ts';
import { startEngagementConsumer } from './handlers/engagement.consumer.ts';
import { readEnv } from './env.ts';
import { providerEndpoints } from './handlers/providers.ts';
import { requestEndpoints } from './handlers/requests.ts';
import { adoptLegacySequences } from './store/legacy-sequences.ts';
import { collections, OUTBOX_COLLECTIONS } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export async function bootstrap(options: BootstrapOptions = {}) {
  return runAuditedService({
    name: 'intake',
    version: VERSION,
    description:
      'Access applications, integrations and agent keys; handoff requests; providers and their keys.',
    env: readEnv(options.env),
    collections,
    outbox: OUTBOX_COLLECTIONS,
    // A request keeps the events of its recent writes: no second write to remove each one.
    kept: ['requests'],
    endpoints: (deps) => ({
      ...accessEndpoints(deps),
      ...requestEndpoints(deps),
      ...providerEndpoints(deps),
    }),
    // Counters from before HANDOFF_SEQUENCES first (until a start finds none); then requests
    // move when the engagement does: proposal accepted → in progress, job completed → completed.
    background: async (deps) => {
      await adoptOnce(deps.store, 'legacy_sequences', () => adoptLegacySequences(deps));
      return startEngagementConsumer(deps);
    },
    logger: options.logger,
  });
}
