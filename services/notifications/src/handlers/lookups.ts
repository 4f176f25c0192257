// What mails need from intake: a provider's name, address and status (cached per replica, dropped
// by the access broadcast that every provider change sends), and a request as staff see it.
import { BusError, call, createAccessCache, type AccessCache, type Bus } from '@handoff/bus';
import {
  accessSubjects,
  providerOps,
  requestOps,
  type Provider,
  type Request,
} from '@handoff/contracts';

const CALL_TIMEOUT_MS = 5_000;
/** How long a provider's answer is trusted without a broadcast: a lost one costs at most this. */
const PROVIDER_TTL_MS = 60_000;

/** A provider as mail needs it. */
export type Reader = Pick<Provider, 'id' | 'name' | 'email' | 'status'>;

export function providerDirectory(bus: Bus): AccessCache<Reader> {
  return createAccessCache<Reader>({
    nc: bus.nc,
    ttlMs: PROVIDER_TTL_MS,
    subject: accessSubjects.invalidate,
    async fetch(id, callId) {
      try {
        const provider = await call(
          bus.nc,
          providerOps.get,
          { id },
          { timeoutMs: CALL_TIMEOUT_MS, ...(callId ? { callId } : {}) },
        );
        return {
          id: provider.id,
          name: provider.name,
          email: provider.email,
          status: provider.status,
        };
      } catch (error) {
        if (error instanceof BusError && error.code === 'not_found') return null;
        throw error;
      }
    },
    invalidatedBy: (reader, invalidation) =>
      invalidation.provider_ids?.includes(reader.id) ?? false,
  });
}

/** The request as it is now; null when intake knows none (nothing to mail about). */
export async function requestOf(bus: Bus, id: string): Promise<Request | null> {
  try {
    return await call(bus.nc, requestOps.getAsStaff, { id }, { timeoutMs: CALL_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof BusError && error.code === 'not_found') return null;
    throw error;
  }
}
