import type { Logger } from '@handoff/observability';
import { packageVersion, runService } from '@handoff/runtime';
import {
  accessCollections,
  accessEndpoints,
  accessOutboxCollections,
  auditFromOutbox,
} from './access/handlers.ts';
import { readEnv } from './env.ts';
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
      collections: accessOutboxCollections,
      beforePublish: ({ store }) => auditFromOutbox(accessCollections(store).audit),
    },
    endpoints: (deps) => accessEndpoints(deps),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
