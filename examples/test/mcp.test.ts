// The MCP server through a real MCP client (@modelcontextprotocol/client), over stdio (the
// `npx handoff-mcp` entry of examples/mcp/mcp.json) and over Streamable HTTP (the gateway's
// /mcp), against the local stack: a whole engagement through tools, tools filtered by the key's
// scopes, problems as tool errors with a next step, and the resources.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import { TOOLS } from '@handoff/mcp';
import { eventually } from '@handoff/testkit';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readFileSync } from 'node:fs';
import { startLocalStack, STACK_SETUP_MS, type LocalStack } from './support.ts';

const CONFIG = new URL('../mcp/mcp.json', import.meta.url);

interface StdioEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}
interface HttpEntry {
  type: 'http';
  url: string;
  headers: Record<string, string>;
}

/** examples/mcp/mcp.json with `${VAR}` filled in, as MCP hosts do. */
function config(vars: Record<string, string>) {
  const text = readFileSync(CONFIG, 'utf8').replace(/\$\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`mcp.json uses \${${name}}`);
    return value;
  });
  const parsed = JSON.parse(text) as {
    mcpServers: { handoff: StdioEntry; 'handoff-http': HttpEntry };
  };
  return parsed.mcpServers;
}

let stack: LocalStack;
let fullKey: string;
let narrowKey: string;
const open: Client[] = [];

type Transport = 'stdio' | 'http';

async function connect(transport: Transport, apiKey: string): Promise<Client> {
  const servers = config({ HANDOFF_URL: stack.base, HANDOFF_API_KEY: apiKey });
  const client = new Client({ name: 'handoff-examples-test', version: '0.1.0' });
  if (transport === 'stdio') {
    const entry = servers.handoff;
    await client.connect(
      new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        // PATH as the test has it: Node 24 and the workspace's bin folder come first.
        env: { ...getDefaultEnvironment(), PATH: process.env.PATH ?? '', ...entry.env },
        stderr: 'pipe',
      }),
    );
  } else {
    const entry = servers['handoff-http'];
    await client.connect(
      new StreamableHTTPClientTransport(new URL(entry.url), {
        requestInit: { headers: entry.headers },
      }),
    );
  }
  open.push(client);
  return client;
}

type Json = Record<string, unknown>;

/** A tool's structured result; throws with its text when the tool reports an error. */
async function call(client: Client, name: string, args: Json = {}): Promise<Json> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text?: string }[])
    .map((block) => block.text ?? '')
    .join('');
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return (result.structuredContent as Json | undefined) ?? (JSON.parse(text) as Json);
}

/** A tool's error payload (code, next_step, …); fails when the tool succeeds. */
async function callFailing(client: Client, name: string, args: Json): Promise<Json> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  const text = (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new Error(`${name}: not a problem payload: ${text}`);
  }
}

const list = (body: Json) => body.data as Json[];

beforeAll(async () => {
  stack = await startLocalStack('mcp');
  fullKey = await stack.agentKey(SCOPES, 'MCP agent');
  narrowKey = await stack.agentKey(['requests:create', 'requests:read'], 'Narrow MCP agent');
}, STACK_SETUP_MS);

afterAll(async () => {
  await Promise.allSettled(open.map((client) => client.close()));
  await stack?.stop();
});

describe.each<Transport>(['stdio', 'http'])('the MCP server over %s', (transport) => {
  it('drives a whole engagement through its tools', async () => {
    await stack.withServiceLines(() => engagement(transport));
  }, 240_000);

  it("lists and runs only the tools the key's scopes allow", async () => {
    const client = await connect(transport, narrowKey);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        'cancel_handoff',
        'create_handoff',
        'get_handoff',
        'list_files',
        'list_service_categories',
        'wait_for_updates',
      ].sort(),
    );
    const created = await call(client, 'create_handoff', { message: 'Translate our menu.' });
    const ref = { request_id: created.id, request_token: created.request_token };
    // Not listed, so not callable either.
    await expect(
      client.callTool({
        name: 'send_message',
        arguments: { request_id: created.id, request_token: created.request_token, message: 'Hi' },
      }),
    ).rejects.toThrow(/send_message/);
    // The agent takes it back before any provider is engaged; only once.
    const cancelled = await call(client, 'cancel_handoff', { ...ref, reason: 'Done in-house.' });
    expect(cancelled).toMatchObject({ id: created.id, status: 'cancelled' });
    const again = await callFailing(client, 'cancel_handoff', ref);
    expect(again).toMatchObject({
      code: 'invalid_state_transition',
      next_step: expect.stringContaining('(cancelled)'),
    });
  });
});

describe("the gateway's /mcp", () => {
  it('refuses a missing or unknown agent key as the agent API does', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'test', version: '0' },
      },
    };
    for (const [authorization, code] of [
      [undefined, 'api_key_missing'],
      ['Bearer hk_live_000000000000000000000000000000000000', 'api_key_invalid'],
    ] as const) {
      const res = await fetch(`${stack.base}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(authorization ? { Authorization: authorization } : {}),
        },
        body: JSON.stringify(initialize),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      // Typed as every problem of the API: the code's page on this gateway.
      expect(await res.json()).toMatchObject({ code, type: `/docs/errors/${code}` });
    }
  });
});

describe('the MCP tools', () => {
  it('mirror documented operations and need exactly their scopes', () => {
    const document = JSON.parse(
      readFileSync(new URL('../../services/gateway/openapi.json', import.meta.url), 'utf8'),
    ) as { paths: Record<string, Record<string, { operationId: string; security?: Json[] }>> };
    const operations = new Map(
      Object.values(document.paths)
        .flatMap((item) => Object.values(item))
        .map((operation) => [operation.operationId, operation]),
    );
    for (const tool of TOOLS) {
      const operation = operations.get(tool.operationId);
      expect(operation).toBeDefined();
      const scopes = (operation?.security ?? []).flatMap((entry) =>
        Object.values(entry).flatMap((value) => value as string[]),
      );
      expect({ tool: tool.name, scopes: [...tool.scopes].sort() }).toEqual({
        tool: tool.name,
        scopes: scopes.sort(),
      });
    }
  });
});

async function engagement(transport: Transport) {
  const client = await connect(transport, fullKey);
  const tools = (await client.listTools()).tools;
  expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
  const create = tools.find((tool) => tool.name === 'create_handoff');
  expect(create?.inputSchema.required).toEqual(['message']);

  const categories = list(await call(client, 'list_service_categories'));
  expect(categories.map((category) => category.slug)).toContain('web-development');

  const created = await call(client, 'create_handoff', {
    message: 'We need a landing page for our bakery, with an order form.',
    category: 'web-development',
    name: 'Grace Hopper',
    contact_permission: true,
    budget_max: 1500,
  });
  const ref = { request_id: String(created.id), request_token: String(created.request_token) };
  const id = ref.request_id;

  // Problems come back as tool errors with the code and a next step.
  const wrongToken = await callFailing(client, 'get_handoff', { ...ref, request_token: 'hrt_x' });
  expect(wrongToken).toMatchObject({ status: 403, code: 'request_token_invalid' });
  expect(String(wrongToken.next_step)).toContain('request_token');

  const other = await stack.humans(`Provider for ${transport}`);
  await other.route(id);
  const { provider } = other;
  await other.say(id, 'Do you already have a domain name?');
  await call(client, 'send_message', { ...ref, message: 'Yes: bakery.example.' });
  const read = await call(client, 'get_handoff', ref);
  expect((read.conversation as Json[]).map((message) => message.message)).toEqual([
    'Do you already have a domain name?',
    'Yes: bakery.example.',
  ]);

  // A first proposal over budget, declined with a reason the provider reads; it proposes again.
  const tooDear = await provider.requests.propose(id, {
    message: 'A five-page site with a shop.',
    amount: 4800,
  });
  const declined = await call(client, 'decline_proposal', {
    ...ref,
    proposal_id: tooDear.id,
    reason: 'Over our budget of 1,500.',
  });
  expect(declined).toMatchObject({
    id: tooDear.id,
    status: 'declined',
    decline_reason: 'Over our budget of 1,500.',
  });
  expect(await provider.proposals.get(tooDear.id)).toMatchObject({
    status: 'declined',
    decline_reason: 'Over our budget of 1,500.',
  });

  const proposal = await provider.requests.propose(id, {
    message: 'A one-page site with an order form.',
    amount: 1200,
    milestones: [{ title: 'Design and build', amount: 1200, due_in_days: 14 }],
  });
  expect(
    list(await call(client, 'list_proposals', ref)).map((item) => [item.id, item.status]),
  ).toEqual([
    [proposal.id, 'submitted'],
    [tooDear.id, 'declined'],
  ]);
  const accepted = await call(client, 'accept_proposal', { ...ref, proposal_id: proposal.id });
  const job = accepted.job as Json;

  const milestoneId = String(
    (
      await eventually(async () => {
        const milestones = list(await call(client, 'list_milestones', ref));
        expect(milestones).toHaveLength(1);
        return milestones;
      })
    )[0]?.id,
  );
  await provider.milestones.submit(milestoneId);
  // The same zod contract as the API's checks the arguments before any call.
  const invalid = await client.callTool({
    name: 'propose_payment',
    arguments: { ...ref, amount: 0 },
  });
  expect(invalid.isError).toBe(true);
  expect(JSON.stringify(invalid.content)).toMatch(/amount.*description/);
  await call(client, 'request_milestone_changes', {
    ...ref,
    milestone_id: milestoneId,
    reason: 'Add a pickup time.',
  });
  const early = await callFailing(client, 'approve_milestone', {
    ...ref,
    milestone_id: milestoneId,
  });
  expect(early).toMatchObject({ status: 409, code: 'invalid_state_transition' });
  expect(String(early.next_step)).toContain('allowed now');
  await provider.milestones.submit(milestoneId);
  expect(
    await call(client, 'approve_milestone', { ...ref, milestone_id: milestoneId }),
  ).toMatchObject({ status: 'approved' });

  const dispute = await call(client, 'open_dispute', {
    ...ref,
    kind: 'refund',
    reason: 'No confirmation e-mail.',
    amount: 100,
    currency: 'USD',
  });
  const disputeRef = { ...ref, dispute_id: String(dispute.id) };
  await call(client, 'comment_on_dispute', { ...disputeRef, message: 'Fixed, thanks.' });
  expect(list(await call(client, 'list_disputes', ref))).toHaveLength(1);
  expect(await call(client, 'withdraw_dispute', disputeRef)).toMatchObject({ status: 'withdrawn' });
  expect(
    await call(client, 'propose_payment', {
      ...ref,
      amount: 1200,
      currency: 'USD',
      description: 'Landing page',
    }),
  ).toMatchObject({ status: 'pending_approval' });

  await provider.jobs.complete(String(job.id));

  // wait_for_updates: follow the sequence until the request completes.
  let after = 0;
  const seen: string[] = [];
  for (let polls = 0; polls < 50; polls++) {
    const page = await call(client, 'wait_for_updates', { ...ref, after, wait: 5 });
    for (const event of list(page)) {
      const data = event.data as { sequence: number; object: Json };
      expect(data.sequence).toBe(after + 1);
      after = data.sequence;
      seen.push(
        event.type === 'request.updated'
          ? `request:${String(data.object.status)}`
          : String(event.type),
      );
    }
    if (seen.includes('request:completed')) break;
  }
  expect(seen).toEqual(
    expect.arrayContaining([
      'request.created',
      'proposal.accepted',
      'milestone.approved',
      'request:completed',
    ]),
  );

  const machines = await client.readResource({ uri: 'handoff://docs/state-machines' });
  expect(JSON.stringify(machines.contents)).toContain('State machines');
  const capabilities = await client.readResource({ uri: 'handoff://capabilities' });
  expect(JSON.stringify(capabilities.contents)).toContain('requests:create');
}
