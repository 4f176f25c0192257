import { describe, expect, it } from '@jest/globals';
import { Parser } from '@asyncapi/parser';
import { readFileSync } from 'node:fs';
import { ACCESS_EVENT_TYPES } from '../src/access.ts';
import { buildAsyncApi } from '../src/asyncapi.ts';
import { ALL_EVENT_TYPES, EVENT_TYPES, EXTENSION_EVENT_TYPES } from '../src/events.ts';
import { ACCESS_STREAM, EVENTS_STREAM } from '../src/subjects.ts';

const COMMITTED = new URL('../asyncapi.json', import.meta.url);
const doc = buildAsyncApi();

type Json = Record<string, unknown>;

/** A channel's messages, each one a reference to the document's `components.messages`. */
function messagesOf(channel: Json): Json[] {
  return Object.values(channel.messages as Record<string, { $ref: string }>).map(({ $ref }) => {
    const [, name] = /^#\/components\/messages\/([^/]+)$/.exec($ref) ?? [];
    const message = name === undefined ? undefined : doc.components.messages[name];
    if (message === undefined) throw new Error(`dangling reference ${$ref}`);
    return message;
  });
}

const channelFor = (address: string) =>
  Object.entries(doc.channels).find(([, channel]) => channel.address === address);

describe('the committed AsyncAPI document', () => {
  // The documents compare as text, so that the order of their members counts too.
  it('is what the current schemas generate (else run `npm run openapi` and commit the result)', () => {
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8')) as unknown;
    expect(JSON.stringify(committed, null, 2)).toBe(JSON.stringify(doc, null, 2));
  });
});

describe('the AsyncAPI document', () => {
  it('is a valid AsyncAPI 3.0 document for the official parser, with no warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    // Severity 0 is an error, 1 a warning; 2 and 3 are hints (such as "3.1.0 exists").
    const serious = diagnostics
      .filter((d) => d.severity <= 1)
      .map((d) => `${d.code}: ${d.message} at ${d.path.join('/')}`);
    expect(serious).toEqual([]);
    expect(document).toBeDefined();
    expect(document?.version()).toBe('3.0.0');
    expect(document?.info().version()).toBe('1.0.2');
    expect(document?.channels().length).toBe(ALL_EVENT_TYPES.length + ACCESS_EVENT_TYPES.length);
    expect(
      document
        ?.operations()
        .all()
        .every((op) => op.action() === 'receive'),
    ).toBe(true);
    expect(document?.servers().get('nats')?.protocol()).toBe('nats');
  });

  it('would be refused by the parser if it were broken', async () => {
    const broken = structuredClone(doc);
    const first = Object.keys(broken.operations)[0] ?? '';
    broken.operations[first] = { action: 'receive', channel: { $ref: '#/channels/nowhere' } };
    const { diagnostics } = await new Parser().parse(JSON.stringify(broken));
    expect(diagnostics.some((d) => d.severity === 0)).toBe(true);
  });

  it('has a channel, a message and a receive operation for each of the 15 domain events and each extension kind', () => {
    expect(EVENT_TYPES).toHaveLength(15);
    expect(EXTENSION_EVENT_TYPES).toEqual([
      'payment.request_rejected',
      'payment.request_expired',
      'payment.failed',
      'proposal.declined',
    ]);
    for (const type of ALL_EVENT_TYPES) {
      const found = channelFor(`handoff.events.${type}`);
      if (!found) throw new Error(`no channel for ${type}`);
      const [id, channel] = found;
      const messages = messagesOf(channel);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ name: type, contentType: 'application/json' });
      expect((messages[0]?.payload as { allOf: unknown[] }).allOf).toEqual([
        { $ref: '#/components/schemas/EventEnvelope' },
        { type: 'object', properties: { type: { const: type } } },
      ]);
      expect(String(channel.description)).toContain(EVENTS_STREAM.name);
      expect(String(channel.description)).toContain('Nats-Msg-Id');
      if (!(EVENT_TYPES as readonly string[]).includes(type)) {
        expect(String(messages[0]?.summary)).toContain('Extension:');
      }
      const operations = Object.values(doc.operations).filter(
        (op) => (op.channel as { $ref: string }).$ref === `#/channels/${id}`,
      );
      expect(operations).toEqual([expect.objectContaining({ action: 'receive' })]);
    }
  });

  it('has a channel for each of the 6 access events on handoff.access.*', () => {
    expect(ACCESS_EVENT_TYPES).toHaveLength(6);
    for (const type of ACCESS_EVENT_TYPES) {
      const found = channelFor(`handoff.${type}`);
      if (!found) throw new Error(`no channel for ${type}`);
      expect(found[1].address).toMatch(/^handoff\.access\./);
      const [message] = messagesOf(found[1]);
      expect((message?.payload as { allOf: unknown[] }).allOf[0]).toEqual({
        $ref: '#/components/schemas/AccessEvent',
      });
      expect(String(found[1].description)).toContain(ACCESS_STREAM.name);
    }
  });

  it('gives the envelope and the de-duplication header from the contracts', () => {
    const envelope = doc.components.schemas.EventEnvelope as {
      properties: Json;
      required: string[];
    };
    expect(envelope.required).toEqual(['id', 'type', 'timestamp', 'livemode', 'data']);
    expect(envelope.properties.type).toMatchObject({ enum: [...ALL_EVENT_TYPES] });
    expect(envelope.properties.data).toMatchObject({
      required: ['request_id', 'sequence', 'object'],
    });
    const access = doc.components.schemas.AccessEvent as { properties: Json };
    expect(access.properties.type).toMatchObject({ enum: [...ACCESS_EVENT_TYPES] });
    expect(doc.components.messageTraits.natsHeaders).toMatchObject({
      headers: { required: ['Nats-Msg-Id'], properties: { 'Nats-Msg-Id': { pattern: '^evt_' } } },
    });
    expect(doc.info.description).toContain(EVENTS_STREAM.name);
    expect(doc.info.description).toContain(ACCESS_STREAM.name);
  });
});
