import type { Logger } from '@handoff/observability';
import { packageVersion, runService, type OutboxDocument } from '@handoff/runtime';
import type { Collection } from 'mongodb';
import {
  accessCollections,
  accessEndpoints,
  accessOutboxCollections,
  auditFromOutbox,
} from './access/handlers.ts';
import { readEnv } from './env.ts';
import { requestCollection, requestEndpoints } from './requests/handlers.ts';
import { collections } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export interface BootstrapOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

export async function bootstrap(options: BootstrapOptions = {}) {
  return runService({
    name: 'intake',
    version: VERSION,
    description: 'Access applications, integrations and agent keys; handoff requests.',
    env: readEnv(options.env),
    collections,
    outbox: {
      collections: (store) => [
        ...accessOutboxCollections(store),
        requestCollection(store) as unknown as Collection<OutboxDocument>,
      ],
      beforePublish: ({ store }) => auditFromOutbox(accessCollections(store).audit),
    },
    endpoints: (deps) => ({ ...accessEndpoints(deps), ...requestEndpoints(deps) }),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
