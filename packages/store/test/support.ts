import { createLogger } from '@handoff/observability';
import { freshDatabase } from '@handoff/testkit';
import { connectStore, type Store } from '../src/index.ts';

export const logger = createLogger({ service: 'store-test', version: '0', level: 'silent' });

/** A store on a fresh database of the worker's server; some tests count the commands it sends. */
export const testStore = (label: string, appName: string): Promise<Store> =>
  connectStore({ ...freshDatabase(label), appName, logger, monitorCommands: true });

/** Drops a test store's database and closes it. */
export async function dropStore(store: Store): Promise<void> {
  await store.db.dropDatabase();
  await store.close();
}
