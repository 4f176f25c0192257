// What mails need to know of a provider: from intake its name, address and status, and from this
// service which kinds it gets and whether its address bounces. Cached per replica, dropped by the
// access broadcast that every provider change sends and by this service's own broadcast when a
// provider's settings or address state change; and a request as staff see it.
import { BusError, call, createAccessCache, type AccessCache, type Bus } from '@handoff/bus';
import {
  accessSubjects,
  notificationSubjects,
  providerOps,
  requestOps,
  routingOps,
  type Provider,
  type Request,
} from '@handoff/contracts';
import type { Store } from '@handoff/store';
import { addressBook } from '../store/addresses.ts';
import { mailSettings, type Kinds } from '../store/settings.ts';

const CALL_TIMEOUT_MS = 5_000;
/** How long a provider's answer is trusted without a broadcast: a lost one costs at most this. */
const PROVIDER_TTL_MS = 60_000;

/** A provider as mail needs it: who, where, and what it wants. */
export type Reader = Pick<Provider, 'id' | 'name' | 'email' | 'status'> & {
  /** The kinds of mail it gets. */
  kinds: Kinds;
  /** Whether its address is marked bouncing (mail to it is held back). */
  bouncing: boolean;
};

/**
 * The providers mail is written to, per replica: a mail costs no read of them while nothing about
 * them changes (a broadcast drops one at once; a lost broadcast costs at most the TTL).
 */
export function providerDirectory(bus: Bus, store: Store): AccessCache<Reader> {
  const settings = mailSettings(store);
  const addresses = addressBook(store);
  return createAccessCache<Reader>({
    nc: bus.nc,
    ttlMs: PROVIDER_TTL_MS,
    subject: [accessSubjects.invalidate, notificationSubjects.changed],
    async fetch(id, callId) {
      try {
        const [provider, kinds] = await Promise.all([
          call(
            bus.nc,
            providerOps.get,
            { id },
            { timeoutMs: CALL_TIMEOUT_MS, ...(callId ? { callId } : {}) },
          ),
          settings.kinds(id),
        ]);
        return {
          id: provider.id,
          name: provider.name,
          email: provider.email,
          status: provider.status,
          kinds,
          bouncing: await addresses.bouncing(provider.email),
        };
      } catch (error) {
        if (error instanceof BusError && error.code === 'provider_not_found') return null;
        throw error;
      }
    },
    invalidatedBy: (reader, invalidation) =>
      invalidation.provider_ids?.includes(reader.id) ?? false,
  });
}

/**
 * Tells every replica (this one before it answers: it hears its own broadcast before the flush
 * returns) that what it holds of these providers changed: their settings, or their address's state.
 */
export async function announceChange(bus: Bus, providerIds: readonly string[]): Promise<void> {
  if (providerIds.length === 0) return;
  bus.nc.publish(notificationSubjects.changed, JSON.stringify({ provider_ids: providerIds }));
  await bus.nc.flush();
}

/** The request as it is now; null when intake knows none (nothing to mail about). */
export async function requestOf(bus: Bus, id: string): Promise<Request | null> {
  try {
    return await call(bus.nc, requestOps.getAsStaff, { id }, { timeoutMs: CALL_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof BusError && error.code === 'request_not_found') return null;
    throw error;
  }
}

/**
 * A request routed to providers as staff see it, with its offers (the mail says by when to
 * answer one); any other request as its event carried it. Gone meanwhile: as the event had it.
 */
export async function withOffers(bus: Bus, request: Request | null): Promise<Request | null> {
  if (request?.routing.mode !== 'direct' || request.routing.provider_ids.length === 0) {
    return request;
  }
  try {
    return await call(bus.nc, routingOps.get, { id: request.id }, { timeoutMs: CALL_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof BusError && error.code === 'request_not_found') return request;
    throw error;
  }
}
