import type { BaseServiceEnv } from '@handoff/config';
import type { AUDITED_SERVICES } from '@handoff/contracts';
import { auditEndpoints } from './audit.ts';
import { auditedSequencedEvents } from './events.ts';
import { runService, type RunningService, type ServiceDefinition } from './service.ts';

export interface AuditedServiceDefinition<E extends BaseServiceEnv> extends Omit<
  ServiceDefinition<E>,
  'name' | 'outbox'
> {
  name: (typeof AUDITED_SERVICES)[number];
  /** The collections (of `collections`) whose documents carry outbox messages, by name. */
  outbox: readonly string[];
  /** Those of `outbox` that are kept (`ServiceDefinition`'s `outbox.kept`). */
  kept?: readonly string[];
}

/**
 * `runService` for a service that owns engagement resources (intake, milestones, payments): the
 * audit entry a message carries is written and its event's sequence filled in before each
 * publish, and the service serves its page of the audit log beside its own endpoints.
 */
export function runAuditedService<E extends BaseServiceEnv>(
  definition: AuditedServiceDefinition<E>,
): Promise<RunningService<E>> {
  const { name, outbox, kept, endpoints, ...rest } = definition;
  return runService({
    ...rest,
    name,
    outbox: {
      collections: outbox,
      ...(kept ? { kept } : {}),
      beforePublish: auditedSequencedEvents(name),
    },
    endpoints: (deps) => ({ ...endpoints?.(deps), ...auditEndpoints(name, deps.store) }),
  });
}

/** One stop for background work started in order: each part is stopped, the last started first. */
export function stopInReverse(...stops: (() => Promise<void>)[]): () => Promise<void> {
  return async () => {
    for (const stop of [...stops].reverse()) await stop();
  };
}
