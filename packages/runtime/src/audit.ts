import { implement, type Endpoint } from '@handoff/bus';
import {
  auditOps,
  auditSubject,
  newId,
  type AuditEntry,
  type AUDITED_SERVICES,
} from '@handoff/contracts';
import { insertOnce, paginate, type IndexDefinition, type Store } from '@handoff/store';
import type { Collection } from 'mongodb';
import { outboxMessage, type OutboxMessage } from './outbox.ts';

export interface AuditDoc {
  _id: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  at: Date;
  /** The `Request-Id` of the staff call that made the entry; null when no call did. */
  call_id: string | null;
  /** Legacy: entries written before `call_id` named the call id `request_id`; read, never written. */
  request_id?: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** What a staff action records; it travels as `local.audit` of the outbox message it causes. */
export type AuditRecord = Omit<AuditDoc, '_id' | 'request_id'>;

/** Each audited service's own collection; services may share a database, never a collection. */
export const auditCollectionName = (service: (typeof AUDITED_SERVICES)[number]) =>
  `${service}_audit_log`;
export const auditIndexes: readonly IndexDefinition[] = [
  { key: { target_id: 1, _id: -1 }, options: { name: 'target_newest' } },
];

export function auditCollection(
  service: (typeof AUDITED_SERVICES)[number],
  store: Store,
): Collection<AuditDoc> {
  return store.db.collection<AuditDoc>(auditCollectionName(service));
}

export function auditView(doc: AuditDoc): AuditEntry {
  return {
    object: 'audit_entry',
    id: doc._id,
    actor: doc.actor,
    action: doc.action,
    target_type: doc.target_type,
    target_id: doc.target_id,
    at: doc.at.toISOString(),
    call_id: doc.call_id ?? doc.request_id ?? null,
    before: doc.before,
    after: doc.after,
  };
}

/**
 * An outbox `beforePublish` that writes the audit entry carried by a message. The entry's id is
 * the message's, so writing it again after a crash is a no-op: the action, its event and its
 * audit entry come from one single-document write and cannot be lost separately.
 */
export function auditFromOutbox(service: (typeof AUDITED_SERVICES)[number], store: Store) {
  const audit = auditCollection(service, store);
  return async (message: OutboxMessage): Promise<undefined> => {
    const entry = message.local?.audit as AuditRecord | undefined;
    if (!entry) return undefined;
    await insertOnce(audit, {
      ...entry,
      at: new Date(entry.at),
      _id: `aud_${message.id.slice('evt_'.length)}`,
    });
    return undefined;
  };
}

/** A message for the audit stream alone, for a staff action that has no domain event. */
export function auditMessage(service: string, action: string, audit: AuditRecord): OutboxMessage {
  const id = newId('evt');
  return outboxMessage(
    id,
    auditSubject(service, action),
    {
      id,
      type: `audit.${service}.${action}`,
      timestamp: audit.at.toISOString(),
      data: { ...audit, at: audit.at.toISOString() },
    },
    { audit },
  );
}

/** Serves this service's page of the audit log (the gateway merges the services' pages). */
export function auditEndpoints(
  service: (typeof AUDITED_SERVICES)[number],
  store: Store,
): Record<string, Endpoint> {
  const audit = auditCollection(service, store);
  return implement(auditOps[service], async ({ query }) => {
    const page = await paginate(audit, {}, query);
    return { object: 'list' as const, data: page.data.map(auditView), has_more: page.has_more };
  });
}
