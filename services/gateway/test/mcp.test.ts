import { describe, expect, it } from '@jest/globals';
import { eventually } from '@handoff/testkit';
import { http } from './support/http.ts';
import { useStack } from './support/stack.ts';

// The gateway's /mcp runs the agent routes its tools call in process (src/mcp/route-fetch.ts):
// a tool's result is the REST answer as it is over HTTP (livemode included), its problems are
// the REST problems under the /mcp call's id, and the call is counted once, at /mcp.

const stack = useStack('gw_mcp', { oneDatabase: true });

type Json = Record<string, unknown>;

/** One stateless MCP 2026-07-28 `tools/call`; the answer and its headers. */
async function tool(key: string, name: string, args: Json) {
  const res = await fetch(`${stack.gateway.url}/mcp`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  expect(res.status).toBe(200);
  const answer = (await res.json()) as {
    result: { isError?: boolean; content: { text: string }[] };
  };
  const text = answer.result.content.map((block) => block.text).join('');
  return {
    isError: answer.result.isError === true,
    body: JSON.parse(text) as Json,
    headers: res.headers,
  };
}

describe("the gateway's /mcp", () => {
  it('answers tools with the REST answers and problems, counting the call once', async () => {
    const agent = await stack.agentOf(['requests:create', 'requests:read']);
    const created = await tool(agent.key, 'create_handoff', { message: 'Fix a leaking tap.' });
    expect(created.isError).toBe(false);
    expect(created.body).toMatchObject({ object: 'request', livemode: true });
    const ref = {
      request_id: String(created.body.id),
      request_token: String(created.body.request_token),
    };
    // The counter of the key moved at /mcp, and the answer says so as every route's does.
    expect(created.headers.get('ratelimit')).toMatch(/^"key";r=\d+;t=\d+$/);

    // Read both ways until two reads agree: routing may move the request between them.
    await eventually(async () => {
      const read = await tool(agent.key, 'get_handoff', ref);
      const rest = await http(stack.gateway, `/v1/request/${ref.request_id}`, {
        token: agent.key,
        headers: { 'X-Service-Request-Token': ref.request_token },
      });
      expect(rest.status).toBe(200);
      expect(read.body).toEqual(rest.body);
      return true;
    });

    const wrong = await tool(agent.key, 'get_handoff', { ...ref, request_token: 'hrt_wrong' });
    const problem = await http(stack.gateway, `/v1/request/${ref.request_id}`, {
      token: agent.key,
      headers: { 'X-Service-Request-Token': 'hrt_wrong' },
    });
    expect(wrong.isError).toBe(true);
    expect(wrong.body).toMatchObject({
      status: problem.status,
      code: problem.body.code,
      detail: problem.body.detail,
      // The tool's API call is part of the /mcp call, under its id.
      request_id: wrong.headers.get('request-id'),
    });
  });
});
