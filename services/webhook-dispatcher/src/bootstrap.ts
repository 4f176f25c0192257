import type { Logger } from '@handoff/observability';
import { packageVersion, runService } from '@handoff/runtime';
import { readEnv } from './env.ts';
import { collections } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export interface BootstrapOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

export async function bootstrap(options: BootstrapOptions = {}) {
  return runService({
    name: 'webhook-dispatcher',
    version: VERSION,
    description: 'Signed webhook deliveries of domain events, with durable retries.',
    env: readEnv(options.env),
    collections,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
