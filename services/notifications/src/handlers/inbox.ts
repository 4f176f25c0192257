// `inbox.unread`, `inbox.read`: a provider's unread counts (the gateway checked that it may see
// the requests it names).
import { BusError, implement, type Endpoint } from '@handoff/bus';
import { notificationOps } from '@handoff/contracts';
import type { Store } from '@handoff/store';
import { inbox, isInboxKey } from '../store/inbox.ts';

export function inboxEndpoints(deps: { store: Store }): Record<string, Endpoint> {
  const unread = inbox(deps.store);
  return {
    ...implement(notificationOps.unread, async ({ provider_id, request_ids }) => ({
      requests: await unread.counts(provider_id, request_ids),
    })),
    ...implement(notificationOps.markRead, async ({ provider_id, request_id }) => {
      if (!isInboxKey(request_id)) throw new BusError('validation_failed', 'Not a request id.');
      await unread.read(provider_id, request_id, new Date());
      return { object: 'request_read' as const, request_id, unread_messages: 0 as const };
    }),
  };
}
