import type { Operation } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import type { z } from 'zod';
import type { Env } from '../env.ts';
import { intakeCollections, type IntakeCollections } from '../store/collections.ts';
import type { AccessDeps } from './keys.ts';

/** What the service gives intake's endpoints (a part of runService's deps). */
export interface IntakeDeps extends AccessDeps {
  env: Pick<
    Env,
    | 'ACCESS_CACHE_TTL_MS'
    | 'WORKSPACE_SESSION_TTL_MS'
    | 'ROUTING_RESPONSE_SECONDS'
    | 'ROUTING_MAX_OFFERS'
  >;
  logger: Logger;
}

/** What every handler of intake takes: the service's deps and its collections. */
export interface IntakeContext extends IntakeDeps {
  collections: IntakeCollections;
}

/** What a handler of `op` is given, as its schema parsed it. */
export type InputOf<O extends Operation> = z.output<O['input']>;

export function intakeContext(deps: IntakeDeps): IntakeContext {
  return { ...deps, collections: intakeCollections(deps.store) };
}
