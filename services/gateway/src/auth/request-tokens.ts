import { BusError } from '@handoff/bus';
import { digestsEqual, sha256Hex } from '@handoff/contracts';

/** What a request token check needs of a request; neither field changes after creation. */
export interface RequestOwner {
  integration_id: string;
  token_hash: string;
}

const DEFAULT_MAX_ENTRIES = 50_000;

export interface RequestTokenChecker {
  /**
   * Resolves when `integrationId` owns the request and `token` is its request token. Rejects
   * with the bus's `not_found` for an unknown or another integration's request (the same answer
   * for both: no existence oracle) and `forbidden` for the owner with a wrong token.
   */
  check(
    requestId: string,
    integrationId: string,
    token: string,
    fetch: (requestId: string) => Promise<RequestOwner>,
  ): Promise<void>;
}

/**
 * Checks request tokens against a per-replica LRU of (request id → owner, token hash), filled
 * from intake's projected `requests.authorize`. Both never change once a request exists, so an
 * entry never goes stale; only found requests are kept (an unknown id is asked about again).
 * Nothing that changes, such as the request's status, is kept here.
 */
export function createRequestTokenChecker(
  options: { maxEntries?: number } = {},
): RequestTokenChecker {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const owners = new Map<string, RequestOwner>();
  const pending = new Map<string, Promise<RequestOwner>>();

  const ownerOf = async (
    requestId: string,
    fetch: (requestId: string) => Promise<RequestOwner>,
  ): Promise<RequestOwner> => {
    const known = owners.get(requestId);
    if (known) {
      // Most recently used last, so the first entry is the one to evict.
      owners.delete(requestId);
      owners.set(requestId, known);
      return known;
    }
    const inFlight = pending.get(requestId);
    if (inFlight) return inFlight;
    const lookup = fetch(requestId).then((owner) => {
      owners.set(requestId, { integration_id: owner.integration_id, token_hash: owner.token_hash });
      if (owners.size > maxEntries) {
        const oldest = owners.keys().next();
        if (!oldest.done) owners.delete(oldest.value);
      }
      return owner;
    });
    pending.set(requestId, lookup);
    try {
      return await lookup;
    } finally {
      pending.delete(requestId);
    }
  };

  return {
    async check(requestId, integrationId, token, fetch) {
      const owner = await ownerOf(requestId, fetch);
      if (owner.integration_id !== integrationId) {
        throw new BusError('not_found', 'No such request.');
      }
      if (!digestsEqual(owner.token_hash, sha256Hex(token))) {
        throw new BusError('forbidden', 'The request token does not match this request.');
      }
    },
  };
}
