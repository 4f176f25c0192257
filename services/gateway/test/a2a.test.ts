import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AgentCard, Role, type StreamResponse, type Task } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { SCOPES } from '@handoff/contracts';
import { eventually, startReceiver, type Receiver } from '@handoff/testkit';
import { randomBytes, randomUUID } from 'node:crypto';
import { http } from './support/http.ts';
import { startStack, type Stack } from './support/stack.ts';

// A handoff as an A2A task (docs/a2a.md), driven by the A2A SDK's own client against a whole
// stack: the card, a test key's task through the simulated provider's scenarios, streams, push
// notifications to a real receiver, and the refusals (keys, scopes, other integrations' tasks).

let stack: Stack;
let hooks: Receiver;
const pushes: { headers: Record<string, unknown>; body: Record<string, unknown> }[] = [];
let testKey: string;
let client: Client;
let card: Record<string, unknown>;

const TASK_STATE = { submitted: 1, working: 2, completed: 3, canceled: 5, inputRequired: 6 };

async function testKeyOf(scopes: string[]): Promise<string> {
  const agent = await stack.agentOf(scopes);
  const issued = await stack.asStaff(`/integrations/${agent.integrationId}/keys`, {
    body: { livemode: false },
  });
  expect(issued.status).toBe(201);
  return String(issued.body.api_key);
}

async function clientOf(key: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${key}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] });
  return factory.createFromAgentCard(AgentCard.fromJSON(card));
}

/** What the raw calls below read of an answer: a JSON-RPC result or error, or a problem. */
interface RpcAnswer {
  code?: string;
  missing_scopes?: string[];
  error?: { code: number; message: string };
  result?: {
    id?: string;
    kind?: string;
    status?: { state: string };
    task?: { id: string; status: { state: string } };
  };
}

/** A raw JSON-RPC call, for what the client hides (statuses, error codes, 0.3 method names). */
async function rpc(key: string | undefined, method: string, params: unknown, version = '1.0') {
  const res = await fetch(`${stack.gateway.url}/a2a`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(version ? { 'A2A-Version': version } : {}),
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: JSON.parse(text) as RpcAnswer,
  };
}

const message = (parts: object[], taskId?: string) => ({
  messageId: randomUUID(),
  role: Role.ROLE_USER,
  parts: parts.map((part) => ({ metadata: undefined, filename: '', mediaType: '', ...part })),
  contextId: '',
  taskId: taskId ?? '',
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const text = (value: string) => ({ content: { $case: 'text' as const, value } });
const data = (value: Record<string, unknown>) => ({ content: { $case: 'data' as const, value } });

const send = (c: Client, parts: object[], taskId?: string, immediately = false) =>
  c.sendMessage({
    tenant: '',
    message: message(parts, taskId),
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: immediately,
    },
    metadata: undefined,
  });

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const lastState = (events: StreamResponse[]) => {
  const last = events.at(-1)?.payload;
  if (last?.$case === 'statusUpdate') return last.value.status?.state;
  if (last?.$case === 'task') return last.value.status?.state;
  return undefined;
};

const statusData = (task: Task) => {
  const part = task.status?.message?.parts.find((p) => p.content?.$case === 'data');
  return part?.content?.$case === 'data' ? (part.content.value as Record<string, unknown>) : {};
};

const asTask = (result: unknown): Task => {
  if (typeof result !== 'object' || result === null || !('status' in result)) {
    throw new Error(`not a task: ${JSON.stringify(result)}`);
  }
  return result as Task;
};

const BRIEF = 'Please find me a plumber for a leaking kitchen tap this week.';
const brief = (scenario: string) => [
  text(BRIEF),
  data({ category: 'home-services', test_scenario: scenario, budget_max: 300 }),
];

beforeAll(async () => {
  hooks = await startReceiver((received) => {
    pushes.push({ headers: received.headers, body: JSON.parse(received.body) });
  });
  stack = await startStack('gw_a2a', {
    oneDatabase: true,
    env: { 'webhook-dispatcher': { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } },
    gateway: { A2A_TOKENS_KEY: randomBytes(32).toString('base64') },
  });
  testKey = await testKeyOf([...SCOPES]);
  const res = await fetch(`${stack.gateway.url}/.well-known/agent-card.json`, {
    headers: { 'A2A-Version': '1.0' },
  });
  card = (await res.json()) as Record<string, unknown>;
  client = await clientOf(testKey);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await hooks?.close();
});

describe('the Agent Card', () => {
  it('is a valid A2A 1.0 card: the JSON-RPC endpoint, streaming, push, a skill per category', async () => {
    // The SDK's own model reads it and writes it back unchanged: nothing unknown, nothing lost.
    expect(AgentCard.toJSON(AgentCard.fromJSON(card))).toEqual(card);
    const services = await http(stack.gateway, '/v1/services');
    const slugs = (services.body.data as { slug: string }[]).map((c) => c.slug);
    expect(card).toMatchObject({
      name: 'Handoff',
      supportedInterfaces: [
        { url: `${stack.gateway.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${stack.gateway.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { agent_key: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { agent_key: {} } }],
    });
    expect((card.skills as { id: string }[]).map((skill) => skill.id)).toEqual(
      slugs.map((slug) => `handoff.${slug}`),
    );
  });

  it('is served in the 0.3 shape to a client that names no version', async () => {
    const res = await fetch(`${stack.gateway.url}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      url: `${stack.gateway.url}/a2a`,
      protocolVersion: '0.3',
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { agent_key: { type: 'http', scheme: 'Bearer' } },
    });
  });
});

describe('the JSON-RPC binding', () => {
  it('refuses a call without a key like /mcp: 401 with WWW-Authenticate', async () => {
    const answer = await rpc(undefined, 'GetTask', { id: 'req_x' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(answer.body.code).toBe('api_key_missing');
  });

  it('runs a happy path: submitted, the proposal accepted, the milestone approved, completed', async () => {
    const created = asTask(await send(client, brief('happy_path'), undefined, true));
    expect(created.id).toMatch(/^req_/);
    expect(created.status?.state).toBe(TASK_STATE.submitted);
    expect(created.contextId).toBe(created.id);
    // Staff see the request behind the task.
    expect((await stack.asStaff(`/requests/${created.id}`)).status).toBe(200);

    const proposal = await eventually(
      async () => {
        const task = await client.getTask({ tenant: '', id: created.id });
        return statusData(task).kind === 'proposal' ? task : undefined;
      },
      { timeoutMs: 20_000, what: 'the proposal' },
    );
    expect(proposal.status?.state).toBe(TASK_STATE.inputRequired);
    expect(proposal.history[0]?.parts[0]?.content).toEqual(text(BRIEF).content);

    const review = asTask(await send(client, [data({ decision: 'accept' })], created.id));
    expect(review.status?.state).toBe(TASK_STATE.inputRequired);
    expect(statusData(review)).toMatchObject({ kind: 'milestone_review' });
    expect(review.artifacts).toHaveLength(1);
    expect(review.artifacts[0]?.parts[0]?.content?.$case).toBe('url');

    const stream = client.sendMessageStream({
      tenant: '',
      message: message([data({ decision: 'approve' })], created.id),
      configuration: undefined,
      metadata: undefined,
    });
    const events = await collect(stream);
    expect(events[0]?.payload?.$case).toBe('task');
    expect(lastState(events)).toBe(TASK_STATE.completed);
  }, 60_000);

  it('streams a question as input-required, and the reply brings the proposal', async () => {
    const events = await collect(
      client.sendMessageStream({
        tenant: '',
        message: message(brief('asks_question')),
        configuration: undefined,
        metadata: undefined,
      }),
    );
    const first = events[0]?.payload;
    expect(first?.$case).toBe('task');
    const taskId = first?.$case === 'task' ? first.value.id : '';
    expect(lastState(events)).toBe(TASK_STATE.inputRequired);
    const question = events.at(-1)?.payload;
    expect(question?.$case === 'statusUpdate' && question.value.status?.message?.role).toBe(
      Role.ROLE_AGENT,
    );

    const after = await collect(
      client.sendMessageStream({
        tenant: '',
        message: message([text('Thursday morning suits me best.')], taskId),
        configuration: undefined,
        metadata: undefined,
      }),
    );
    expect(lastState(after)).toBe(TASK_STATE.inputRequired);
    // The stream ends at the first input-required after the reply; the simulated provider may
    // write before it proposes, so the proposal is waited for, as a client would ask again.
    const task = await eventually(
      async () => {
        const current = await client.getTask({ tenant: '', id: taskId });
        return statusData(current).kind === 'proposal' ? current : undefined;
      },
      { timeoutMs: 20_000, what: 'the proposal after the reply' },
    );
    expect(task.history.map((m) => m.role)).toEqual([
      Role.ROLE_USER,
      Role.ROLE_AGENT,
      Role.ROLE_USER,
    ]);
  }, 60_000);

  it('delivers push notifications A2A-shaped, with the client token, signed', async () => {
    const task = asTask(await send(client, brief('happy_path'), undefined, true));
    const token = randomBytes(12).toString('hex');
    const config = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: '',
      taskId: task.id,
      url: `${hooks.url}/a2a`,
      token,
      authentication: undefined,
    });
    expect(config).toMatchObject({ taskId: task.id, url: `${hooks.url}/a2a` });
    const listed = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId: task.id,
      pageSize: 0,
      pageToken: '',
    });
    expect(listed.configs.map((c) => c.id)).toEqual([config.id]);

    const pushed = await eventually(
      () =>
        pushes.find(
          (push) =>
            (push.body.statusUpdate as { taskId?: string; status?: { state?: string } } | undefined)
              ?.status?.state === 'TASK_STATE_INPUT_REQUIRED' &&
            (push.body.statusUpdate as { taskId?: string }).taskId === task.id,
        ),
      { timeoutMs: 20_000, what: 'an input-required push notification' },
    );
    expect(pushed.headers['x-a2a-notification-token']).toBe(token);
    expect(pushed.headers['webhook-signature']).toMatch(/^v1,/);
    expect(pushes.every((push) => JSON.stringify(push.body).includes(task.id))).toBe(true);

    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: config.id });
    const after = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId: task.id,
      pageSize: 0,
      pageToken: '',
    });
    expect(after.configs).toEqual([]);
  }, 60_000);

  it('answers the 0.3 method names too', async () => {
    const answer = await rpc(
      testKey,
      'message/send',
      {
        message: {
          kind: 'message',
          messageId: randomUUID(),
          role: 'user',
          parts: [{ kind: 'text', text: 'Please fix my tap, run happy_path.' }],
        },
        configuration: { blocking: false },
      },
      '',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ kind: 'task', status: { state: 'submitted' } });
    const id = String(answer.body.result?.id);
    const got = await rpc(testKey, 'tasks/get', { id }, '');
    expect(got.body.result).toMatchObject({ kind: 'task', id });
  });

  it('keeps a task to its integration: another key, or a task it did not make, is TaskNotFound', async () => {
    const task = asTask(await send(client, brief('declines'), undefined, true));
    const other = await testKeyOf([...SCOPES]);
    const foreign = await rpc(other, 'GetTask', { id: task.id });
    expect(foreign.body.error).toMatchObject({ code: -32001 });
    const restMade = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: testKey,
      body: { message: 'A request made over REST.' },
    });
    const notHeld = await rpc(testKey, 'GetTask', { id: String(restMade.body.id) });
    expect(notHeld.body.error).toMatchObject({ code: -32001 });
    const unknown = await rpc(testKey, 'GetTask', { id: 'req_doesnotexist' });
    expect(unknown.body.error).toMatchObject({ code: -32001 });
  });

  it('cancels a task before a provider is engaged: the request is cancelled, the task canceled', async () => {
    const task = asTask(await send(client, brief('declines'), undefined, true));
    const cancelled = await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    expect(cancelled).toMatchObject({ id: task.id, status: { state: TASK_STATE.canceled } });
    expect(cancelled.metadata).toMatchObject({ request_status: 'cancelled' });
    const read = await client.getTask({ tenant: '', id: task.id });
    expect(read.status?.state).toBe(TASK_STATE.canceled);
    const staff = await stack.asStaff(`/requests/${task.id}`);
    expect(staff.body).toMatchObject({ status: 'cancelled', cancellation: { by: 'customer' } });
    // Once cancelled, it allows no further moves: not cancelable, saying why.
    const again = await rpc(testKey, 'CancelTask', { id: task.id });
    expect(again.body.error).toMatchObject({ code: -32002 });
    expect(again.body.error?.message).toMatch(/cancelled/);
  });

  it('cancels with the 0.3 method name too', async () => {
    const task = asTask(await send(client, brief('asks_question'), undefined, true));
    const answer = await rpc(testKey, 'tasks/cancel', { id: task.id }, '');
    expect(answer.body.result).toMatchObject({ kind: 'task', id: task.id });
    expect(answer.body.result?.status?.state).toBe('canceled');
  });

  it('cannot cancel a task once a provider is engaged: TaskNotCancelable, saying why', async () => {
    const task = asTask(await send(client, brief('happy_path'), undefined, true));
    await eventually(
      async () => {
        const read = await client.getTask({ tenant: '', id: task.id });
        return statusData(read).kind === 'proposal' ? read : undefined;
      },
      { timeoutMs: 20_000, what: 'the proposal' },
    );
    await send(client, [data({ decision: 'accept' })], task.id, true);
    const answer = await rpc(testKey, 'CancelTask', { id: task.id });
    expect(answer.body.error).toMatchObject({ code: -32002 });
    expect(answer.body.error?.message).toMatch(/provider is engaged.*dispute/);
    const read = await client.getTask({ tenant: '', id: task.id });
    expect(read.metadata).toMatchObject({ request_status: 'in_progress' });
  }, 60_000);

  it('holds keys to their scopes, with the REST answer', async () => {
    const createOnly = await testKeyOf(['requests:create']);
    const params = {
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'Fix my tap.' }] },
    };
    const waiting = await rpc(createOnly, 'SendMessage', params);
    expect(waiting.status).toBe(403);
    expect(waiting.body).toMatchObject({
      code: 'insufficient_scope',
      missing_scopes: ['requests:read'],
    });
    const immediate = await rpc(createOnly, 'SendMessage', {
      ...params,
      configuration: { returnImmediately: true },
    });
    expect(immediate.body.result?.task?.status.state).toBe('TASK_STATE_SUBMITTED');
    const read = await rpc(createOnly, 'GetTask', { id: String(immediate.body.result?.task?.id) });
    expect(read.status).toBe(403);
    // Cancelling answers the task, so it needs the read besides the cancel route's scope.
    const cancel = await rpc(createOnly, 'CancelTask', {
      id: String(immediate.body.result?.task?.id),
    });
    expect(cancel.status).toBe(403);
    expect(cancel.body).toMatchObject({ missing_scopes: ['requests:read'] });
    const readOnly = await testKeyOf(['requests:read']);
    const notCreate = await rpc(readOnly, 'CancelTask', { id: 'req_x' });
    expect(notCreate.body).toMatchObject({ missing_scopes: ['requests:create'] });
  });

  it('answers bad input with JSON-RPC errors, never a 500', async () => {
    const noMessage = await rpc(testKey, 'SendMessage', {
      configuration: { returnImmediately: true },
    });
    expect(noMessage.status).toBe(200);
    expect(noMessage.body.error).toMatchObject({ code: -32602 });
    const badField = await rpc(testKey, 'SendMessage', {
      message: {
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'Fix my tap.' }, { data: { budgetMax: 5 } }],
      },
      configuration: { returnImmediately: true },
    });
    expect(badField.status).toBe(200);
    expect(badField.body.error?.code).toBe(-32602);
    expect(badField.body.error?.message).toContain('/budgetMax');
    const notJson = await fetch(`${stack.gateway.url}/a2a`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${testKey}` },
      body: '{not json',
    });
    expect(notJson.status).toBe(200);
    expect(await notJson.json()).toMatchObject({ error: { code: -32700 } });
  });
});
