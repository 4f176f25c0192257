#!/usr/bin/env node
// `npx handoff-mcp`: the Handoff MCP server over stdio, for one agent key.
//   HANDOFF_URL      the gateway, e.g. http://127.0.0.1:8080
//   HANDOFF_API_KEY  the agent key, hk_live_... (or a test key, hk_test_...: test mode)
// Only stderr is written to: stdout carries the protocol.
import { createHandoffClient } from '@handoff/sdk';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { MCP_BODY_LIMIT_BYTES } from './limits.ts';
import { createHandoffMcpServer } from './server.ts';

const Env = z.object({
  HANDOFF_URL: z.url({ protocol: /^https?$/ }),
  // An agent key by its prefix, live or test; the gateway judges the rest at the first call.
  HANDOFF_API_KEY: z.string().regex(/^hk_(?:live|test)_/),
});

const parsed = Env.safeParse(process.env);
if (!parsed.success) {
  process.stderr.write(
    `handoff-mcp: set ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')} (HANDOFF_URL: the gateway URL; HANDOFF_API_KEY: an agent key hk_live_... or hk_test_...)\n`,
  );
  process.exit(2);
}
const client = createHandoffClient({
  baseUrl: parsed.data.HANDOFF_URL,
  apiKey: parsed.data.HANDOFF_API_KEY,
  userAgent: 'handoff-mcp/0.1.0 (stdio)',
});
// The key's scopes decide the tools; a key the gateway refuses stops the server at once.
const me = await client.me().catch((error: unknown) => {
  process.stderr.write(`handoff-mcp: the key was not accepted: ${String(error)}\n`);
  process.exit(1);
});
serveStdio(
  (ctx) =>
    createHandoffMcpServer(
      client,
      me.scopes,
      ctx.era === 'modern' ? { apiKey: parsed.data.HANDOFF_API_KEY } : undefined,
    ),
  {
    // Room for one upload_file call, whose file travels in the message as base64.
    transport: new StdioServerTransport(process.stdin, process.stdout, {
      maxBufferSize: MCP_BODY_LIMIT_BYTES,
    }),
    onerror: (error) => process.stderr.write(`handoff-mcp: ${error.message}\n`),
  },
);
