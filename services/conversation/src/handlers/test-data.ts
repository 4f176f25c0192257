// `test_data.purge`: intake deletes an integration's test data; here, its requests' messages.
import { implement, type Endpoint } from '@handoff/bus';
import { testDataOps } from '@handoff/contracts';
import { deleteEach, type Store } from '@handoff/store';
import { messageCollections } from '../store/messages.ts';

export function testDataEndpoints(deps: { store: Store }): Record<string, Endpoint> {
  const c = messageCollections(deps.store);
  return implement(testDataOps.conversation, async ({ request_ids }) => ({
    messages: await deleteEach(c.messages, 'request_id', request_ids),
  }));
}
