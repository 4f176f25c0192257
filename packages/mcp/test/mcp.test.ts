// The MCP server's own surface without the stack: which tools a key's scopes list (through a
// real MCP client over the SDK's in-memory transport pair), the HTTP entry's refusal without a
// key (a real HTTP server), and the stdio entry's refusal without its variables. The whole
// engagement over stdio and HTTP is in examples/test/mcp.test.ts, against the local stack.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHandoffClient } from '@handoff/sdk';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  createHandoffMcpServer,
  createMcpHttpHandler,
  MCP_BODY_LIMIT_BYTES,
  TEST_TOOLS,
  TOOLS,
  toolsFor,
} from '../src/index.ts';

async function listed(scopes: readonly string[], apiKey = 'hk_live_unused') {
  // Listing calls nothing upstream, so the client's address is never contacted.
  const api = createHandoffClient({ baseUrl: 'http://127.0.0.1:9', apiKey });
  const server = createHandoffMcpServer(api, scopes);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  const tools = (await client.listTools()).tools;
  const resources = (await client.listResources()).resources;
  await client.close();
  await server.close();
  return { tools, resources };
}

describe('tools by scope', () => {
  it('lists every tool for every scope, and only the public one for none', async () => {
    const all = await listed(TOOLS.flatMap((tool) => tool.scopes));
    expect(all.tools.map((tool) => tool.name).sort()).toEqual(
      TOOLS.map((tool) => tool.name).sort(),
    );
    expect(all.resources.map((resource) => resource.uri).sort()).toEqual([
      'handoff://capabilities',
      'handoff://docs/state-machines',
    ]);
    const none = await listed([]);
    expect(none.tools.map((tool) => tool.name)).toEqual(['list_service_categories']);
  });

  it('lists the test clock tools and the test fields of create_handoff to a test key only', async () => {
    const scopes = TOOLS.flatMap((tool) => tool.scopes);
    const live = await listed(scopes);
    const test = await listed(scopes, 'hk_test_unused');
    const names = (tools: typeof live.tools) => tools.map((tool) => tool.name).sort();
    expect(names(test.tools)).toEqual([...TOOLS, ...TEST_TOOLS].map((tool) => tool.name).sort());
    expect(names(live.tools)).not.toContain('advance_test_clock');
    const create = (tools: typeof live.tools) =>
      Object.keys(
        tools.find((tool) => tool.name === 'create_handoff')?.inputSchema.properties ?? {},
      );
    expect(create(test.tools)).toEqual(expect.arrayContaining(['test_scenario', 'test_clock']));
    expect(create(live.tools)).not.toContain('test_scenario');
    expect(create(live.tools)).not.toContain('test_clock');
  });

  it('lists cancel_handoff with the scope of the cancel route, its reason optional', () => {
    const creating = toolsFor(['requests:create']).map((tool) => tool.name);
    expect(creating.sort()).toEqual([
      'cancel_handoff',
      'create_handoff',
      'list_service_categories',
    ]);
    const cancel = TOOLS.find((tool) => tool.name === 'cancel_handoff');
    expect(cancel).toMatchObject({ operationId: 'cancelRequest', readOnly: false });
    const schema = z.toJSONSchema(cancel?.input ?? z.object({}), { io: 'input' }) as {
      required?: string[];
      properties?: Record<string, unknown>;
    };
    expect(schema.required?.sort()).toEqual(['request_id', 'request_token']);
    expect(Object.keys(schema.properties ?? {})).toContain('reason');
  });

  it('gives each tool an input schema that needs the request reference where the API does', () => {
    const reviewing = toolsFor(['milestones:review']).filter((tool) => tool.scopes.length > 0);
    expect(reviewing.map((tool) => tool.name).sort()).toEqual([
      'approve_milestone',
      'request_milestone_changes',
    ]);
    for (const tool of reviewing) {
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as { required?: string[] };
      expect(schema.required).toEqual(
        expect.arrayContaining(['request_id', 'request_token', 'milestone_id']),
      );
    }
  });
});

describe('the HTTP entry', () => {
  const server = createServer((req, res) => {
    void handler.handle(req, res);
  });
  /** Every key is taken: what is checked here comes after the key. */
  const handler = createMcpHttpHandler({
    gatewayUrl: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authenticate: async () => ({ integrationId: 'int_test', scopes: [] }),
  });
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers 401 with a problem typed as the gateway types it, and WWW-Authenticate', async () => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.json()).toEqual({
      type: '/docs/errors/api_key_missing',
      title: 'Unauthorized',
      status: 401,
      detail: expect.any(String),
      code: 'api_key_missing',
      request_id: res.headers.get('request-id'),
    });
  });

  it('refuses a declared Content-Length over its limit at once, without the body', async () => {
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // One byte over the limit is promised; none of the body is ever sent.
    socket.write(
      [
        'POST /mcp HTTP/1.1',
        'Host: 127.0.0.1',
        'Authorization: Bearer hk_live_test',
        'Content-Type: application/json',
        `Content-Length: ${MCP_BODY_LIMIT_BYTES + 1}`,
        '',
        '',
      ].join('\r\n'),
    );
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({
      type: '/docs/errors/payload_too_large',
      code: 'payload_too_large',
      detail: `The body is over ${MCP_BODY_LIMIT_BYTES} bytes.`,
    });
  });

  it('cuts a body without a length off at the limit', async () => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: {
        Authorization: 'Bearer hk_live_test',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      // A stream has no length to declare: it goes chunked, and is read until the limit.
      body: new Blob([`{"a":"${'x'.repeat(MCP_BODY_LIMIT_BYTES)}"}`]).stream(),
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });
});

describe('the stdio entry', () => {
  it('refuses to start without HANDOFF_URL and HANDOFF_API_KEY, naming them', () => {
    const entry = fileURLToPath(new URL('../src/stdio.ts', import.meta.url));
    const run = spawnSync(process.execPath, [entry], {
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('HANDOFF_URL, HANDOFF_API_KEY');
    expect(run.stdout).toBe('');
  });
});
