// `test_data.purge`: intake deletes an integration's test data; here, everything this service
// keeps of the test twin: its endpoints with their delivery records and attempts, and its events.
import { implement, type Endpoint } from '@handoff/bus';
import { testDataOps } from '@handoff/contracts';
import { deleteEach, type Store } from '@handoff/store';
import { collectionsOf } from '../store/collections.ts';
import type { EndpointDirectory } from '../store/endpoint-directory.ts';

export function testDataEndpoints(deps: {
  store: Store;
  directory: EndpointDirectory;
}): Record<string, Endpoint> {
  const c = collectionsOf(deps.store);
  return implement(testDataOps.dispatcher, async ({ integration_id }) => {
    const endpoints = await c.endpoints
      .find({ integration_id }, { projection: { _id: 1 } })
      .toArray();
    const ids = endpoints.map((doc) => doc._id);
    // The endpoints last, so a purge cut short still finds what hangs off them when asked again.
    // Deliveries still queued for them are cancelled as they come up, as after any deletion.
    const webhookAttempts = await deleteEach(c.attempts, 'endpoint_id', ids);
    const webhookDeliveries = await deleteEach(c.deliveries, 'endpoint_id', ids);
    const events = await c.events.deleteMany({ integration_id });
    const removed = await c.endpoints.deleteMany({ integration_id });
    for (const id of ids) await deps.directory.changed({ id, integration_id });
    return {
      webhook_endpoints: removed.deletedCount,
      webhook_events: events.deletedCount,
      webhook_deliveries: webhookDeliveries,
      webhook_attempts: webhookAttempts,
    };
  });
}
