// What an attempt's answer changes on its endpoint: a run of failures starts or ends, and an
// endpoint that is gone, or has failed for too long without a success, is disabled.
import type { SendOutcome } from '../adapters/sender.ts';
import { shouldDisable } from '../domain/schedule.ts';
import { collectionsOf } from '../store/collections.ts';
import type { EndpointDoc } from '../store/endpoints.ts';
import { endpointDisabled } from './metrics.ts';
import type { DeliveryResources } from './resources.ts';

export type EndpointHealth =
  /** A success, and none of a run of failures to end. */
  | { kind: 'unchanged' }
  /** A success after failures: the run of failures ends. */
  | { kind: 'recovered' }
  /** 410: disabled as gone. */
  | { kind: 'gone' }
  /**
   * Any other failure: failing since `since` (`first`: this attempt starts the run), disabled
   * as failing when that has lasted too long.
   */
  | { kind: 'failing'; since: Date; first: boolean; disable: boolean };

/** What an answer of `outcome` to an attempt made at `attemptedAt` changes on the endpoint. */
export function endpointHealth(
  endpoint: Pick<EndpointDoc, 'failing_since'>,
  outcome: SendOutcome,
  attemptedAt: Date,
  disableAfterSeconds: number,
  now = new Date(),
): EndpointHealth {
  if (outcome === 'success')
    return endpoint.failing_since ? { kind: 'recovered' } : { kind: 'unchanged' };
  if (outcome === 'gone') return { kind: 'gone' };
  const since = endpoint.failing_since ?? attemptedAt;
  return {
    kind: 'failing',
    since,
    first: !endpoint.failing_since,
    disable: shouldDisable(since, null, now, disableAfterSeconds),
  };
}

/**
 * Writes the change. An endpoint's writes go one at a time with the API's (enable, disable,
 * rotate), as every read-modify-write in this service does (store.serialize: FerretDB rewrites
 * whole documents), and the directory is told of each.
 */
export async function applyEndpointHealth(
  resources: Pick<DeliveryResources, 'store' | 'directory' | 'logger'>,
  endpoint: EndpointDoc,
  health: EndpointHealth,
): Promise<void> {
  const { endpoints } = collectionsOf(resources.store);
  const write = async (change: () => Promise<unknown>) => {
    await resources.store.serialize(endpoints, endpoint._id, change);
    await resources.directory.changed({
      id: endpoint._id,
      integration_id: endpoint.integration_id,
    });
  };
  const disable = async (reason: 'gone' | 'failing') => {
    const now = new Date();
    const change = { enabled: false, disabled_reason: reason, disabled_at: now, updated_at: now };
    await write(() => endpoints.updateOne({ _id: endpoint._id }, { $set: change }));
    endpointDisabled(reason);
    resources.logger.warn({ endpoint_id: endpoint._id, reason }, 'webhook endpoint disabled');
  };
  switch (health.kind) {
    case 'unchanged':
      return;
    case 'recovered':
      await write(() =>
        endpoints.updateOne({ _id: endpoint._id }, { $set: { failing_since: null } }),
      );
      return;
    case 'gone':
      await disable('gone');
      return;
    case 'failing':
      if (health.first) {
        await write(() =>
          endpoints.updateOne(
            { _id: endpoint._id, failing_since: null },
            { $set: { failing_since: health.since } },
          ),
        );
      }
      if (health.disable) await disable('failing');
  }
}
