// The agent API on the shared stack: create a request, read one, send messages. Each call goes
// through the same gateway pipeline as gateway-authenticated (key check, per-key rate-limit
// counter in JetStream), then over the bus to the services that own the data:
//
// - create: intake stores the request with its `request.created` and publishes that to JetStream;
//   the event stays in the request (one bus call from the gateway, a JetStream publish inside it,
//   one write);
// - read: intake (the request, checking the token), conversation (the messages) and payments (the
//   approved ones), all three at once;
// - message: the token checked (the replica's cache), then conversation stores the message with
//   its event, takes the event's sequence number from the sequence bucket and publishes
//   `message.created`; the event stays in the message (written once, never changed), so there
//   is no second write.
//
// The events are consumed in the background too (the webhook dispatcher logs each one), so the
// write scenarios also measure that work competing for the same database.
import {
  CREATE_BODY,
  createRequest,
  readRequest,
  requestHeaders,
  requestPath,
  sendMessage,
  times,
  setupCalls,
} from '../fixtures/agent-api.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import type { Fixture, Scenario } from '../types.ts';

/**
 * The agent API's writes end in FerretDB on SQLite locally, one writer per database at a time;
 * at 50 connections the queue outgrows the gateway's 3 s bus timeout and calls get 503 (the
 * documented overload answer, not a measurement of the path). So these run at a fixed 10.
 */
export const AGENT_API_CONNECTIONS = 10;

/** Messages in the conversation that gateway-read reads. */
export const READ_CONVERSATION_MESSAGES = 5;
/** How many of a pool's requests setup creates at once. */
const SETUP_CONCURRENCY = 8;
const MESSAGE_BODY = JSON.stringify({ message: 'Any update on this?' });

/** `POST /v1/ai-to-human-request`: a new request (and its token) on every call. */
export function gatewayCreate(
  stack: Fixture<GatewayStack>,
  logLevel: string,
  /** Appended to the name, for the same scenario on another stack (e.g. `-r3`). */
  suffix = '',
): Scenario {
  return {
    name: `gateway-create${suffix}`,
    connections: AGENT_API_CONNECTIONS,
    description: `gateway POST /v1/ai-to-human-request with an agent key (intake create over NATS: insert, request.created to JetStream), shared full stack, LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const { url, agent } = await ctx.use(stack);
      return {
        kind: 'http',
        method: 'POST',
        url: `${url}/v1/ai-to-human-request`,
        headers: { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(CREATE_BODY),
        expectStatus: 201,
      };
    },
  };
}

/**
 * `GET /v1/request/{id}` of one request with a short conversation, created in setup. Reads do not
 * contend with each other, so every connection reads the same request.
 */
export function gatewayRead(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'gateway-read',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway GET /v1/request/{id} with an agent key and the request token (intake, conversation and payments over NATS at once), ${READ_CONVERSATION_MESSAGES} messages, shared full stack, LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      const calls = setupCalls(ctx);
      const request = await createRequest(gateway, calls);
      for (let n = 1; n <= READ_CONVERSATION_MESSAGES; n += 1) {
        await sendMessage(gateway, request, `Bench message ${n}`, calls);
      }
      // What the load will read: the conversation is there, in full.
      const detail = await readRequest(gateway, request, calls);
      const { conversation } = detail;
      if (!Array.isArray(conversation) || conversation.length !== READ_CONVERSATION_MESSAGES) {
        throw new Error(
          `read the request: expected ${READ_CONVERSATION_MESSAGES} messages in its conversation: ${JSON.stringify(detail).slice(0, 500)}`,
        );
      }
      ctx.progress(`reading ${request.id} (${READ_CONVERSATION_MESSAGES} messages)`);
      return {
        kind: 'http',
        url: `${gateway.url}${requestPath(request.id)}`,
        headers: requestHeaders(gateway, request),
        expectStatus: 200,
      };
    },
  };
}

/**
 * `POST /v1/request/{id}/message` over a pool of requests created in setup, one per connection, as
 * many agents each in their own conversation: a request's events take their sequence numbers one
 * at a time (intake serializes them per request, and each one adds an entry to the request's
 * document, which every token check reads in full), so all connections on one request would
 * measure that queue and a growing document, not a message.
 */
export function gatewayMessage(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'gateway-message',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway POST /v1/request/{id}/message with an agent key and the request token (token check, then conversation insert + sequence from the KV bucket + message.created to JetStream, the event kept in the message), one request per connection, shared full stack, LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      ctx.progress(`creating ${ctx.connections} requests, one per connection`);
      const calls = setupCalls(ctx);
      const pool = await times(ctx.connections, SETUP_CONCURRENCY, () =>
        createRequest(gateway, calls),
      );
      return {
        kind: 'http',
        method: 'POST',
        url: `${gateway.url}/`,
        headers: { 'Content-Type': 'application/json' },
        body: MESSAGE_BODY,
        perConnection: pool.map((request) => ({
          path: `${requestPath(request.id)}/message`,
          headers: requestHeaders(gateway, request),
        })),
        expectStatus: 201,
      };
    },
  };
}
