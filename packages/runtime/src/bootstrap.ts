import type { Logger } from '@handoff/observability';

/** What each service's `bootstrap()` takes: its variables (`process.env` by default), a logger. */
export interface BootstrapOptions {
  env?: Record<string, string | undefined>;
  /** Lines go here instead of stdout (tests capture them). */
  logger?: Logger;
}
