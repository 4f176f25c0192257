import { z } from 'zod';
import { ACCESS_EVENT_TYPES, AccessEvent } from './access.ts';
import { ALL_EVENT_TYPES, EVENT_TYPES, EXTENSION_EVENT_MEANINGS, EventEnvelope } from './events.ts';
import { ACCESS_STREAM, accessSubjects, EVENTS_STREAM, subjects } from './subjects.ts';

/**
 * The AsyncAPI 3 document of the bus's public contract (conventions §2): the domain events on
 * `handoff.events.<type>` and the access events on `handoff.access.<...>`, as staff tools receive
 * them from their own durable JetStream consumers. Payload schemas come from the same zod schemas
 * the services publish with.
 */

export const ASYNCAPI_VERSION = '3.0.0';
export const ASYNCAPI_DOCUMENT_VERSION = '1.0.2';

type Json = Record<string, unknown>;

export interface AsyncApiDocument {
  asyncapi: typeof ASYNCAPI_VERSION;
  id: string;
  info: { title: string; version: string; description: string };
  defaultContentType: string;
  servers: Record<string, Json>;
  channels: Record<string, Json & { address: string }>;
  operations: Record<string, Json & { action: 'send' | 'receive' }>;
  components: {
    /** How clients authenticate to the servers (a NATS user and password). */
    securitySchemes: Record<string, Json>;
    schemas: Record<string, Json>;
    messages: Record<string, Json>;
    messageTraits: Record<string, Json>;
  };
}

/** AsyncAPI's default schema format is a superset of JSON Schema draft-07. */
function schemaOf(schema: z.ZodType): Json {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-07',
    io: 'output',
    unrepresentable: 'any',
  }) as Json;
  delete generated.$schema;
  return generated;
}

/** `request.created` → `requestCreated`; `access.key.issued` → `accessKeyIssued`. */
const camel = (type: string) =>
  type.replace(/[._-](\w)/g, (_match, letter: string) => letter.toUpperCase());
const pascal = (type: string) => {
  const name = camel(type);
  return name.charAt(0).toUpperCase() + name.slice(1);
};

const seconds = (ms: number) => `${ms / 1000} s`;
const days = (ms: number) => `${ms / 86_400_000} days`;

function streamNote(stream: typeof EVENTS_STREAM | typeof ACCESS_STREAM): string {
  return (
    `JetStream stream \`${stream.name}\` (subjects \`${stream.subjects.join('`, `')}\`), ` +
    `kept ${days(stream.maxAgeMs)}. Each message is published with \`Nats-Msg-Id\` = the event ` +
    `\`id\`; JetStream drops a second publish of the same id within the ` +
    `${seconds(stream.duplicateWindowMs)} duplicate window, and consumers de-duplicate by \`id\` ` +
    'beyond it (delivery is at least once).'
  );
}

/** A channel, a receive operation and a message for each event type of both streams. */
function eventChannels(): Pick<AsyncApiDocument, 'channels' | 'operations'> & {
  messages: Record<string, Json>;
} {
  const channels: AsyncApiDocument['channels'] = {};
  const operations: AsyncApiDocument['operations'] = {};
  const messages: Record<string, Json> = {};

  const add = (
    type: string,
    address: string,
    envelope: 'EventEnvelope' | 'AccessEvent',
    summary: string,
    stream: typeof EVENTS_STREAM | typeof ACCESS_STREAM,
  ) => {
    const id = camel(type);
    messages[id] = {
      name: type,
      title: type,
      summary,
      contentType: 'application/json',
      traits: [{ $ref: '#/components/messageTraits/natsHeaders' }],
      payload: {
        allOf: [
          { $ref: `#/components/schemas/${envelope}` },
          { type: 'object', properties: { type: { const: type } } },
        ],
      },
    };
    channels[id] = {
      address,
      title: type,
      description: streamNote(stream),
      messages: { [id]: { $ref: `#/components/messages/${id}` } },
    };
    operations[`receive${pascal(type)}`] = {
      action: 'receive',
      title: `Receive ${type}`,
      summary: `Staff tools receive \`${type}\` from their own durable consumer.`,
      description:
        `Consume \`${address}\` (or \`${stream.subjects.join('`, `')}\`) from \`${stream.name}\` ` +
        'with a durable consumer, ack explicitly, and treat a repeated `id` as already handled.',
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/${id}` }],
    };
  };

  for (const type of ALL_EVENT_TYPES) {
    const extension = (EVENT_TYPES as readonly string[]).includes(type)
      ? ''
      : ` ${EXTENSION_EVENT_MEANINGS[type as keyof typeof EXTENSION_EVENT_MEANINGS]}`;
    add(
      type,
      subjects.event(type),
      'EventEnvelope',
      `A \`${type}\` domain event; \`data.sequence\` orders the events of one request.${extension}`,
      EVENTS_STREAM,
    );
  }
  for (const type of ACCESS_EVENT_TYPES) {
    add(
      type,
      accessSubjects.event(type),
      'AccessEvent',
      `A \`${type}\` access event (bus only, never a webhook).`,
      ACCESS_STREAM,
    );
  }
  return { channels, operations, messages };
}

/** The headers every event is published with. */
const NATS_HEADERS: Json = {
  headers: {
    type: 'object',
    properties: {
      'Nats-Msg-Id': {
        type: 'string',
        pattern: '^evt_',
        description: 'The event `id`; JetStream de-duplicates publishes by it.',
      },
      'Handoff-Integration-Id': {
        type: 'string',
        pattern: '^int_',
        description:
          "The integration that owns the event's request (domain events), so consumers need not look it up.",
      },
      'Request-Id': {
        type: 'string',
        description: 'The `Request-Id` of the API call that caused the event, when known.',
      },
      traceparent: {
        type: 'string',
        description: 'W3C trace context of the call that caused the event, when known.',
      },
    },
    required: ['Nats-Msg-Id'],
  },
};

export function buildAsyncApi(): AsyncApiDocument {
  const { channels, operations, messages } = eventChannels();
  return {
    asyncapi: ASYNCAPI_VERSION,
    id: 'urn:handoff:bus',
    info: {
      title: 'Handoff events',
      version: ASYNCAPI_DOCUMENT_VERSION,
      description: [
        'The public, versioned events of Handoff on NATS JetStream (conventions §2).',
        '',
        `- Domain events: ${streamNote(EVENTS_STREAM)} The envelope is the same on the bus and ` +
          'in webhooks: `{id, type, timestamp, data: {request_id, sequence, object}}`; ' +
          '`sequence` increases by one for each event of the same request, so receivers can order ' +
          'them and find gaps.',
        `- Access events (applications, keys, integrations): ${streamNote(ACCESS_STREAM)}`,
        '',
        'Consumers ack explicitly, are idempotent by event `id`, and have a finite `MaxDeliver` ' +
          'with `BackOff`. Fields may be added to `data.object` in a minor version; receivers ' +
          'ignore members they do not know.',
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      nats: {
        host: 'localhost:4222',
        protocol: 'nats',
        description:
          'The deployment’s NATS server (`NATS_URL`), with JetStream, in the account `HANDOFF`. ' +
          'Staff tools connect as the read-only user `staff` (user and password): they may create ' +
          'durable consumers on `HANDOFF_EVENTS`, `HANDOFF_ACCESS` and `HANDOFF_AUDIT`, read and ' +
          'ack, and nothing else; publishing to any subject is refused by the server. Each service ' +
          'has its own user with only its own events (see the README, NATS users and permissions).',
        security: [{ $ref: '#/components/securitySchemes/natsUser' }],
      },
    },
    channels,
    operations,
    components: {
      securitySchemes: {
        natsUser: {
          type: 'userPassword',
          description:
            'A NATS user and password: `staff` for staff tools (read-only on the three streams).',
        },
      },
      schemas: {
        EventEnvelope: {
          ...schemaOf(EventEnvelope),
          description: 'A domain event, as on the bus and in webhook deliveries.',
        },
        AccessEvent: {
          ...schemaOf(AccessEvent),
          description: 'An access event for staff tools.',
        },
      },
      messages,
      messageTraits: { natsHeaders: NATS_HEADERS },
    },
  };
}
