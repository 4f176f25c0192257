import type { Logger } from '@handoff/observability';
import type { Outbox } from '@handoff/runtime';
import type { Store } from '@handoff/store';

export interface MilestonesDeps {
  store: Store;
  logger: Logger;
  outbox: Outbox;
}
