import { describe, expect, it } from '@jest/globals';
import { AUDIT_STREAM } from '@handoff/contracts';
import { messagePublisher } from '../src/outbox/publish.ts';
import { publishedOn, testMessage, useOutboxServers } from './support/outbox-servers.ts';

const servers = useOutboxServers('outbox-publish');

const stored = async (subject: string) =>
  servers.bus.jsm.streams.getMessage(AUDIT_STREAM.name, { last_by_subj: subject });

describe('publishing an outbox message', () => {
  it('publishes its body under its id, once however often it is published', async () => {
    const publish = messagePublisher(servers.bus.js);
    const message = testMessage();
    expect(await publish(message)).toEqual({ id: message.id, duplicate: false });
    expect(await publish(message)).toEqual({ id: message.id, duplicate: true });
    expect(await publishedOn(servers.bus, message.subject)).toBe(1);
    const held = await stored(message.subject);
    expect(held?.json()).toEqual({ id: message.id });
    expect(held?.header.get('Nats-Msg-Id')).toBe(message.id);
  });

  it('carries its headers, and publishes what beforePublish returns instead of its body', async () => {
    const seen: string[] = [];
    const publish = messagePublisher(servers.bus.js, (message) => {
      seen.push(message.id);
      return Promise.resolve({ id: message.id, sequence: 7 });
    });
    const message = { ...testMessage(), headers: { traceparent: '00-abc-def-01' } };
    await publish(message);
    expect(seen).toEqual([message.id]);
    const held = await stored(message.subject);
    expect(held?.json()).toEqual({ id: message.id, sequence: 7 });
    expect(held?.header.get('traceparent')).toBe('00-abc-def-01');
  });

  it('publishes the body as stored when beforePublish returns nothing', async () => {
    const publish = messagePublisher(servers.bus.js, () => Promise.resolve(undefined));
    const legacy = { ...testMessage(), payload: { id: 'evt_legacy', nested: { n: 1 } } };
    await publish(legacy);
    expect((await stored(legacy.subject))?.json()).toEqual({ id: 'evt_legacy', nested: { n: 1 } });
  });
});
