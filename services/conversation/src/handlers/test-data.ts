// `test_data.purge`: intake deletes an integration's test data; here, its requests' messages and
// their files.
import { implement, type Endpoint } from '@handoff/bus';
import { testDataOps } from '@handoff/contracts';
import { removeRequestFiles, type FileServiceDeps } from '@handoff/files';
import { deleteEach, type Store } from '@handoff/store';
import { messageCollections } from '../store/messages.ts';

export function testDataEndpoints(deps: {
  store: Store;
  files: Pick<FileServiceDeps, 'catalog' | 'store'>;
}): Record<string, Endpoint> {
  const c = messageCollections(deps.store);
  return implement(testDataOps.conversation, async ({ request_ids }) => ({
    // The files first: a purge cut short still finds their messages' request ids.
    message_files: await removeRequestFiles(deps.files, request_ids),
    messages: await deleteEach(c.messages, 'request_id', request_ids),
  }));
}
