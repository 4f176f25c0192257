// A handoff created in the agent protocols the gateway also speaks, on the shared stack, against
// gateway-create in the same run (issue 34's target: at least 0.8x, since each adds one
// translation and no round trip):
//
// - a2a-send: A2A 1.0 `SendMessage` at /a2a with `returnImmediately`, the task answered as soon as
//   the request exists. The binding runs the REST create route in process, then holds the
//   request token for the integration (one KV put, sealed with AES-256-GCM) before it answers.
// - mcp-task-create: MCP 2026-07-28 `tools/call` of `create_handoff` at /mcp (stateless
//   Streamable HTTP), declaring the tasks extension, so the answer is a task whose id seals the
//   request's id and token. The MCP server calls the agent API through @handoff/sdk, whose fetch
//   runs the gateway's routes in process (one key check and rate-limit count, at /mcp).
import { CREATE_BODY } from '../fixtures/agent-api.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import type { Fixture, Scenario } from '../types.ts';
import { AGENT_API_CONNECTIONS } from './gateway-requests.ts';

const A2A_SEND_BODY = {
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: {
    message: {
      messageId: 'bench-message',
      role: 'ROLE_USER',
      parts: [{ text: CREATE_BODY.message }, { data: { category: CREATE_BODY.category } }],
    },
    configuration: { returnImmediately: true },
  },
};

const MCP_PROTOCOL = '2026-07-28';
const MCP_TASK_CREATE_BODY = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'create_handoff',
    arguments: { message: CREATE_BODY.message, category: CREATE_BODY.category },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MCP_PROTOCOL,
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
    },
  },
};

/**
 * A JSON-RPC error is a 200 too, so the load's status check alone would count refused calls as
 * handoffs: setup makes one call and insists on a created task before the load starts.
 */
async function expectTask(
  url: string,
  headers: Record<string, string>,
  body: string,
  taskOf: (result: Record<string, unknown>) => unknown,
): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  const answer = JSON.parse(text) as { result?: Record<string, unknown> };
  if (response.status !== 200 || answer.result === undefined || !taskOf(answer.result)) {
    throw new Error(
      `expected a created task from ${url}: ${response.status} ${text.slice(0, 500)}`,
    );
  }
}

/** A2A `SendMessage` with an agent key: a new request (and its held token) on every call. */
export function a2aSend(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'a2a-send',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway POST /a2a SendMessage (A2A 1.0, returnImmediately) with an agent key: the REST create in process, the request token held in a KV bucket, shared full stack, LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const { url, agent } = await ctx.use(stack);
      const headers = {
        Authorization: `Bearer ${agent.api_key}`,
        'Content-Type': 'application/json',
        'A2A-Version': '1.0',
      };
      const body = JSON.stringify(A2A_SEND_BODY);
      await expectTask(`${url}/a2a`, headers, body, (result) => result.task);
      return { kind: 'http', method: 'POST', url: `${url}/a2a`, headers, body, expectStatus: 200 };
    },
  };
}

/** MCP `tools/call` of `create_handoff` as a task, over stateless Streamable HTTP. */
export function mcpTaskCreate(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'mcp-task-create',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway POST /mcp tools/call create_handoff as a task (MCP ${MCP_PROTOCOL}, tasks extension) with an agent key: the agent API's create in process, shared full stack, LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const { url, agent } = await ctx.use(stack);
      const headers = {
        Authorization: `Bearer ${agent.api_key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': MCP_PROTOCOL,
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'create_handoff',
      };
      const body = JSON.stringify(MCP_TASK_CREATE_BODY);
      await expectTask(
        `${url}/mcp`,
        headers,
        body,
        (result) => result.resultType === 'task' && result.taskId,
      );
      return { kind: 'http', method: 'POST', url: `${url}/mcp`, headers, body, expectStatus: 200 };
    },
  };
}
