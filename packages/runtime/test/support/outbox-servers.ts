// Real NATS and a fresh database for the outbox's tests, and messages on audit subjects (a stream
// every test server has), so what was published can be read back.
import { connectBus, ensureStreams, type Bus } from '@handoff/bus';
import { AUDIT_STREAM, newId } from '@handoff/contracts';
import { createLogger } from '@handoff/observability';
import { connectStore, type Store } from '@handoff/store';
import { afterAll, beforeAll } from '@jest/globals';
import { freshDatabase, natsOptions } from '@handoff/testkit';
import { outboxMessage, type OutboxMessage } from '../../src/index.ts';

export const logger = createLogger({ service: 'outbox-test', version: '0', level: 'silent' });

export async function outboxServers(label: string): Promise<{ bus: Bus; store: Store }> {
  const { servers, user, pass } = natsOptions();
  const bus = await connectBus({ url: servers, user, password: pass, name: label, logger });
  await ensureStreams(bus.jsm);
  const store = await connectStore({ ...freshDatabase(label), appName: label, logger });
  return { bus, store };
}

/**
 * The servers of one test file: connected before its tests, closed after them. Read them in a
 * hook or a test, not at the file's top level.
 */
export function useOutboxServers(label: string): { readonly bus: Bus; readonly store: Store } {
  let servers: { bus: Bus; store: Store } | undefined;
  beforeAll(async () => {
    servers = await outboxServers(label);
  });
  afterAll(async () => {
    await servers?.bus.nc.close();
    await servers?.store.close();
  });
  const connected = () => {
    if (!servers) throw new Error(`${label}: the servers are connected before the file's tests`);
    return servers;
  };
  return {
    get bus() {
      return connected().bus;
    },
    get store() {
      return connected().store;
    },
  };
}

/** A message on a subject of its own, written `ageMs` ago. */
export function testMessage(ageMs = 0): OutboxMessage {
  const id = newId('evt');
  return {
    ...outboxMessage(id, `handoff.audit.outboxtest.${id}`, { id }),
    created_at: new Date(Date.now() - ageMs),
  };
}

/** How many messages the audit stream holds on the subject (0 or 1). */
export async function publishedOn(bus: Bus, subject: string): Promise<number> {
  const info = await bus.jsm.streams.info(AUDIT_STREAM.name, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}
