// The webhook scenarios' events, published onto a real nats-server's HANDOFF_EVENTS stream and
// read back as the webhook dispatcher reads them: the envelope, the subject and the headers a
// service's outbox gives them.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ensureStreams } from '@handoff/bus';
import {
  EVENT_OWNER_HEADER,
  EVENTS_STREAM,
  EventEnvelope,
  idPattern,
  Request,
  subjects,
} from '@handoff/contracts';
import { startNats, TEST_NATS_USER, type NatsServer } from '@handoff/testkit';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventSource, requestCreatedEvent } from '../src/fixtures/event-source.ts';
import { EVENT_INPUT } from '../src/fixtures/webhook-events.ts';

const INTEGRATION = 'int_benchsource00000000000000000';

describe('requestCreatedEvent', () => {
  it('is a valid request.created envelope of a new request, sequence 1, owner in the header', () => {
    const event = requestCreatedEvent(INTEGRATION, Date.parse('2025-06-01T12:00:00.000Z'));
    expect(event.subject).toBe(subjects.event('request.created'));
    expect(event.headers).toEqual({ [EVENT_OWNER_HEADER]: INTEGRATION });
    const envelope = EventEnvelope.parse(event.envelope);
    expect(envelope.type).toBe('request.created');
    expect(envelope.id).toMatch(idPattern('evt'));
    expect(envelope.timestamp).toBe('2025-06-01T12:00:00.000Z');
    expect(envelope.data.request_id).toMatch(idPattern('req'));
    expect(envelope.data.sequence).toBe(1);
    // The object is intake's view of the request (the contract's schema, strictly).
    const object = Request.strict().parse(envelope.data.object);
    expect(object.id).toBe(envelope.data.request_id);
    expect(object.message).toBe(EVENT_INPUT.message);
    expect(object.created_at).toBe(envelope.timestamp);
  });

  it('makes a new event and request id every time', () => {
    const events = Array.from({ length: 100 }, () => requestCreatedEvent(INTEGRATION));
    expect(new Set(events.map((event) => event.envelope.id)).size).toBe(100);
    expect(new Set(events.map((event) => event.envelope.data.request_id)).size).toBe(100);
  });
});

describe('eventSource on a real nats-server', () => {
  let dataDir = '';
  let server: NatsServer | undefined;
  let nc: NatsConnection | undefined;
  let jsm: JetStreamManager | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bench-event-source-'));
    server = await startNats({ dataDir });
    nc = await connect({
      servers: server.url,
      ...(server.passwords ? { user: TEST_NATS_USER, pass: server.passwords[TEST_NATS_USER] } : {}),
    });
    jsm = await jetstreamManager(nc);
    await ensureStreams(jsm, 1, { sequences: false });
  });

  afterAll(async () => {
    await nc?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes onto HANDOFF_EVENTS as an outbox does: subject, Nats-Msg-Id, owner header', async () => {
    if (!nc || !jsm) throw new Error('no connection');
    const source = eventSource(jetstream(nc), INTEGRATION);
    const before = (await jsm.streams.info(EVENTS_STREAM.name)).state.last_seq;
    const requestIds = [await source.publish(), await source.publish()];
    expect(new Set(requestIds).size).toBe(2);
    for (const [index, requestId] of requestIds.entries()) {
      const stored = await jsm.streams.getMessage(EVENTS_STREAM.name, { seq: before + 1 + index });
      if (!stored) throw new Error(`no message at ${before + 1 + index}`);
      expect(stored.subject).toBe(subjects.event('request.created'));
      const envelope = EventEnvelope.parse(stored.json());
      expect(envelope.data.request_id).toBe(requestId);
      expect(envelope.data.sequence).toBe(1);
      expect(stored.header.get('Nats-Msg-Id')).toBe(envelope.id);
      expect(stored.header.get(EVENT_OWNER_HEADER)).toBe(INTEGRATION);
    }
  });
});
