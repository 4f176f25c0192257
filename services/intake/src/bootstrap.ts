import { endpointsOf } from '@handoff/bus';
import { adoptOnce, packageVersion, runAuditedService, stopInReverse } from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { accessEndpoints } from './handlers/access.ts';
import { intakeContext, type IntakeContext } from './handlers/context.ts';
import { startRouting } from './routing/consumers.ts';
import { countFromZero } from './routing/offer-metrics.ts';
import { startEngagementConsumer } from './handlers/engagement.consumer.ts';
import { readEnv } from './env.ts';
import { providerEndpoints } from './handlers/providers.ts';
import { requestEndpoints } from './handlers/requests.ts';
import { workspaceEndpoints } from './handlers/workspace.ts';
import { sweepExpiredLinks } from './handlers/workspace/link-sweep.ts';
import { adoptLegacySequences } from './store/legacy-sequences.ts';
import { ensureSimulatedProvider } from './routing/test-mode.ts';
import { collections, OUTBOX_COLLECTIONS } from './store/collections.ts';
import { adoptProviderEmailKeys } from './store/workspace.ts';

/** How often unused sign-in links that expired are deleted. */
const LINK_SWEEP_MS = 10 * 60 * 1000;

export const VERSION = packageVersion(import.meta.url);

export async function bootstrap(options: BootstrapOptions = {}) {
  let workspace: ReturnType<typeof workspaceEndpoints> | undefined;
  let context: IntakeContext | undefined;
  const env = readEnv(options.env);
  countFromZero();
  return runAuditedService({
    name: 'intake',
    version: VERSION,
    description:
      'Access applications, integrations and agent keys; handoff requests and their automatic ' +
      'routing; providers and their keys.',
    env,
    collections,
    outbox: OUTBOX_COLLECTIONS,
    // A request keeps the events of its recent writes: no second write to remove each one.
    kept: ['requests'],
    endpoints: (deps) => {
      const ctx = intakeContext(deps);
      context = ctx;
      const settling = workspaceEndpoints(ctx);
      workspace = settling;
      return endpointsOf(ctx, [
        accessEndpoints,
        requestEndpoints,
        providerEndpoints,
        () => settling.endpoints,
      ]);
    },
    // Counters from before HANDOFF_SEQUENCES first (until a start finds none); then requests
    // move when the engagement does: proposal accepted → in progress, job completed → completed;
    // and routing settles each request event.
    // Providers stored before the workspace get the address sign-in looks them up by.
    background: async (deps) => {
      await adoptOnce(deps.store, 'legacy_sequences', () => adoptLegacySequences(deps));
      await adoptOnce(deps.store, 'provider_email_keys', () => adoptProviderEmailKeys(deps.store));
      const stopConsumer = await startEngagementConsumer(deps);
      if (!context) throw new Error('the endpoints are built before the background');
      // Test requests go to the simulated provider, whose record every deployment has.
      await ensureSimulatedProvider(context);
      // Requests reach providers by the rules; offers that run out move on (on the bus).
      const stopRouting = await startRouting(context, env.NATS_STREAM_REPLICAS);
      // Unused links of the last two days at start (a stopped service missed their sweeps), then
      // the last two hours' every ten minutes.
      const sweep = (hoursBack: number) =>
        sweepExpiredLinks(deps, new Date(), hoursBack).catch((error: unknown) => {
          deps.logger.warn({ err: error }, 'expired sign-in links not swept');
          return 0;
        });
      void sweep(48);
      const timer = setInterval(() => void sweep(2), LINK_SWEEP_MS);
      timer.unref();
      return stopInReverse(stopConsumer, stopRouting, async () => {
        clearInterval(timer);
        await workspace?.settle();
      });
    },
    logger: options.logger,
  });
}
