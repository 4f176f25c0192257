// A handoff as an MCP task (protocol 2026-07-28, the Tasks extension io.modelcontextprotocol/tasks)
// through clients we did not write: @modelcontextprotocol/client for the connection and
// @modelcontextprotocol/ext-tasks for the task, over the gateway's /mcp, with a test key whose
// simulated provider plays a scenario (docs/test-mode.md): the provider's question, its proposal
// and its milestone come back as `input_required`, each answer becomes the API's action, and the
// deliverables are the task's result.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import { createHandoffClient, createStaffClient } from '@handoff/sdk';
import { eventually } from '@handoff/testkit';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type ApplicationElicitResult,
  type ApplicationInputRequest,
  type CreateTaskSessionFromClientOptions,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';
import { startLocalStack, STACK_SETUP_MS, type LocalStack } from './support.ts';

const PROTOCOL = '2026-07-28';
const CLIENT_INFO = { name: 'handoff-tasks-test', version: '0.1.0' };

type Json = Record<string, unknown>;

let stack: LocalStack;
let testKey: string;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  stack = await startLocalStack('mcp-tasks');
  const liveKey = await stack.agentKey(SCOPES, 'MCP task agent');
  const me = await createHandoffClient({ baseUrl: stack.base, apiKey: liveKey }).me();
  const staff = createStaffClient({ baseUrl: stack.base, token: stack.staffToken });
  testKey = (await staff.integrations.createKey(me.integration_id, { livemode: false })).api_key;
}, STACK_SETUP_MS);

afterAll(async () => {
  for (const one of open.reverse()) await one.close().catch(() => undefined);
  await stack?.stop();
});

/**
 * The host's raw JSON-RPC path that ext-tasks asks for on a 2026-07-28 server (the SDK client's
 * codec has no task wire shapes): one POST to /mcp with the routing headers the spec names.
 */
let rpcId = 0;
async function rawDispatch(request: unknown) {
  const message = request as { method: string; params?: Json };
  const name = message.params?.taskId ?? message.params?.name;
  const res = await fetch(`${stack.base}/mcp`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${testKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': PROTOCOL,
      'Mcp-Method': message.method,
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
    },
    // ext-tasks hands over the request; the JSON-RPC framing is the host's.
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, ...message }),
  });
  const text = await res.text();
  // A JSON body, or the last event of a stream.
  const body = (
    res.headers.get('content-type')?.includes('text/event-stream')
      ? JSON.parse(
          text
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .at(-1)
            ?.slice(5) ?? '{}',
        )
      : JSON.parse(text)
  ) as { result?: Json; error?: { code: number; message: string } };
  return body.error
    ? { kind: 'error' as const, error: body.error }
    : { kind: 'result' as const, result: (body.result ?? {}) as never };
}

/**
 * Jest runs the test in its own realm, where `Response.json()` (Node's fetch) makes objects of
 * the outer realm, which ext-tasks' plain-JSON check refuses; parsing the text here keeps them
 * of this realm, as they are in any ordinary program.
 */
const sameRealmFetch = async (url: string | URL | Request, init?: RequestInit) => {
  const response = await fetch(url, init);
  return Object.assign(response, {
    json: async () => JSON.parse(await response.text()) as unknown,
  });
};

type Answer = (request: ApplicationInputRequest, inputId: string) => ApplicationElicitResult;

async function session(answer?: Answer): Promise<TaskEnabledSession> {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: PROTOCOL } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${testKey}` } },
      fetch: sameRealmFetch,
    }),
  );
  open.push(client);
  const tasks = createTaskSessionFromClient(client, {
    endpointId: 'handoff-local',
    rawDispatch,
    v2RequestFraming: {
      protocolVersion: PROTOCOL,
      clientInfo: CLIENT_INFO,
      clientCapabilities: {},
    },
    ...(answer
      ? { onInputRequest: async (request, context) => answer(request, context.inputId ?? '') }
      : {}),
  } as CreateTaskSessionFromClientOptions);
  open.push(tasks);
  return tasks;
}

/** What the test answers: the kind of question is the prefix of its key. */
function answers(milestoneAnswers: ApplicationElicitResult[]) {
  const asked: string[] = [];
  const answer: Answer = (request, inputId) => {
    expect(request.kind).toBe('elicitation');
    const kind = inputId.split(':')[0] ?? '';
    asked.push(kind);
    if (kind === 'reply') return { action: 'accept', content: { message: 'Tuesday, please.' } };
    if (kind === 'proposal') return { action: 'accept', content: { decision: 'accept' } };
    const next = milestoneAnswers.shift();
    if (!next) throw new Error(`no answer left for ${inputId}`);
    return next;
  };
  return { asked, answer };
}

const approve: ApplicationElicitResult = { action: 'accept', content: { decision: 'approve' } };

async function createTask(tasks: TaskEnabledSession, scenario: string) {
  const execution = await tasks.callTool(
    'create_handoff',
    { message: `Paint our shop sign (${scenario}).`, budget_max: 300, test_scenario: scenario },
    { task: { preference: 'require' } },
  );
  expect(execution.kind).toBe('task');
  return execution;
}

describe('create_handoff as an MCP task', () => {
  it("asks the provider's question, its proposal and its milestone, then completes with the deliverables", async () => {
    const { asked, answer } = answers([approve]);
    const tasks = await session(answer);
    const execution = await createTask(tasks, 'asks_question');
    const statuses = new Set<string>();
    const { outcome } = await execution.settle({
      onEvent: (event) => {
        if (event.type === 'task') statuses.add(event.task.status);
      },
    });
    expect(asked).toEqual(['reply', 'proposal', 'milestone']);
    expect([...statuses]).toEqual(expect.arrayContaining(['working', 'input_required']));
    expect(outcome.status).toBe('completed');
    const result = (outcome as { result: { content: Json[]; structuredContent: Json } }).result;
    const deliverables = result.structuredContent.deliverables as Json[];
    expect(deliverables.length).toBeGreaterThan(0);
    expect(result.structuredContent.status).toBe('completed');
    expect(result.content).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'resource_link', uri: deliverables[0]?.url }),
      ]),
    );
  }, 180_000);

  it('sends a milestone back with a reason, then approves the revision', async () => {
    const changes: ApplicationElicitResult = {
      action: 'accept',
      content: { decision: 'request_changes', reason: 'Use our logo colours.' },
    };
    const { asked, answer } = answers([changes, approve]);
    const tasks = await session(answer);
    const execution = await createTask(tasks, 'requests_changes');
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('completed');
    expect(asked).toEqual(['proposal', 'milestone', 'milestone']);
  }, 180_000);

  /** A happy_path task once its proposal waits on the agent: the task, its key and request. */
  async function waitingOnProposal(tasks: TaskEnabledSession) {
    const execution = await createTask(tasks, 'happy_path');
    if (execution.kind !== 'task') throw new Error('create_handoff did not answer a task');
    const taskId = execution.handle.taskId;
    await execution.detach();
    const task = tasks.task(taskId);
    // The provider writes before it proposes, and its message is a question until the proposal
    // follows it: the proposal is waited for, as a client polling would see it come.
    const waiting = await eventually(
      async () => {
        const view = await task.snapshot();
        expect(view.status).toBe('input_required');
        const asked = Object.keys(view.raw.inputRequests as Json);
        return asked.some((key) => key.startsWith('proposal:')) ? view : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const keys = Object.keys(waiting.raw.inputRequests as Json);
    expect(keys).toEqual([expect.stringMatching(/^proposal:/)]);
    const requestId = String(((waiting.raw._meta as Json)['dev.handoff/request'] as Json).id);
    return { taskId, task, key: keys[0] ?? '', requestId };
  }

  const staffRead = (requestId: string) =>
    createStaffClient({ baseUrl: stack.base, token: stack.staffToken }).requests.get(requestId);

  it('cancelling cancels the request before a provider is engaged; the task is cancelled at once', async () => {
    const tasks = await session();
    const { taskId, task, requestId } = await waitingOnProposal(tasks);

    await tasks.cancelTask(taskId);
    const cancelled = await task.snapshot();
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.raw.inputRequests).toBeUndefined();
    expect(await staffRead(requestId)).toMatchObject({
      status: 'cancelled',
      cancellation: { by: 'customer' },
    });
    // A cancelled task cannot be cancelled again: invalid params, saying why.
    await expect(tasks.cancelTask(taskId)).rejects.toThrow(/cannot be cancelled.*cancelled/);

    // An id that is not a task of this key is not found.
    const forged = `${taskId.slice(0, -4)}AAAA` as typeof taskId;
    await expect(tasks.task(forged).snapshot()).rejects.toThrow(/not found/i);
  }, 120_000);

  it('refuses to cancel once a provider is engaged, saying why; the task goes on', async () => {
    const tasks = await session();
    const { taskId, task, key, requestId } = await waitingOnProposal(tasks);
    await task.update({ [key]: { action: 'accept', content: { decision: 'accept' } } });
    await eventually(async () =>
      (await staffRead(requestId)).status === 'in_progress' ? true : undefined,
    );

    await expect(tasks.cancelTask(taskId)).rejects.toThrow(/cannot be cancelled.*dispute/);
    expect(['working', 'input_required']).toContain((await task.snapshot()).status);
    expect((await staffRead(requestId)).status).toBe('in_progress');
  }, 120_000);
});
