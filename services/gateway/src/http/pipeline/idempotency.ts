import type { Logger } from '@handoff/observability';
import { createHash } from 'node:crypto';
import { idempotencyRecordKey, type IdempotencyStore } from '../../idempotency.ts';
import type { Caller } from '../route.ts';
import { openBody, sealBody } from '../sealed.ts';

export interface IdempotentCall {
  /** The validated `Idempotency-Key`; without one the call simply runs. */
  key: string | undefined;
  /** Whose key it is ({@link idempotencyScope}). */
  scope: string;
  /** What makes a retry the same call (method, path, body); asked only when there is a key. */
  fingerprint(): string;
  /** The status of a success, kept with its body. */
  status: number;
}

/** The answer to give: the handler's, or the one kept from the first call with the key. */
export type IdempotentAnswer =
  | { replayed: false; body: unknown }
  /** `stored` is false when the first answer's body was not kept: the status alone is replayed. */
  | { replayed: true; status: number; stored: boolean; body: unknown };

/**
 * Runs the call at most once per key (conventions §1): the first call claims the key, and its
 * success is kept for replays before it is answered, so an immediate retry is a replay and not a
 * 409. A call that fails releases the key, since it changed nothing that a retry should not redo.
 * The store's refusals (409 in use, 422 reused for another call, 503) are thrown.
 */
export async function idempotent(
  store: IdempotencyStore,
  call: IdempotentCall,
  run: () => Promise<unknown>,
  log: { logger: Logger; callId: string },
): Promise<IdempotentAnswer> {
  const { key, scope } = call;
  if (key === undefined) return { replayed: false, body: await run() };
  const outcome = await store.begin(scope, key, call.fingerprint());
  if (outcome.kind === 'replay') {
    return typeof outcome.body === 'string'
      ? {
          replayed: true,
          status: outcome.status,
          stored: true,
          body: openBody(key, scope, outcome.body),
        }
      : { replayed: true, status: outcome.status, stored: false, body: undefined };
  }
  let body: unknown;
  try {
    body = await run();
  } catch (error) {
    await outcome.abandon().catch(() => undefined);
    throw error;
  }
  await outcome.complete(call.status, sealBody(key, scope, body)).catch((error: unknown) => {
    log.logger.warn({ err: error, call_id: log.callId }, 'idempotency record not stored');
  });
  return { replayed: false, body };
}

/**
 * The operation a call with an `Idempotency-Key` carries out, the same on every retry of it: the
 * services record it on what they move (`Handoff-Operation`), so that a retry after an answer was
 * lost on the way (a timeout, a replica killed after its write) is answered as done, not as an
 * illegal move. A hash: the raw key never leaves the gateway.
 */
export function operationOf(scope: string, key: string): string {
  return `op_${idempotencyRecordKey(scope, key)}`;
}

/** Idempotency keys are kept per integration (or provider, staff member, applicant, address). */
export function idempotencyScope(caller: Caller, address: string): string {
  switch (caller.kind) {
    case 'agent':
      return caller.agent.integration_id;
    case 'provider':
    case 'workspace':
      return `provider:${caller.provider.provider_id}`;
    case 'staff':
      return `staff:${caller.staff.sub}`;
    case 'applicant':
      return `applicant:${createHash('sha256').update(caller.applicationSecret).digest('hex')}`;
    case 'public':
      return `ip:${address}`;
  }
}
