import { createHandoffClient, HandoffError, type HandoffClient } from '@handoff/sdk';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHandoffMcpServer } from './server.ts';

/** The verified agent key of an MCP request. */
export interface McpIdentity {
  integrationId: string;
  scopes: readonly string[];
}

export interface McpHttpOptions {
  /** Where the agent API is (the gateway's own address when mounted on it). */
  gatewayUrl: () => string;
  /**
   * Verifies the request's `Authorization` itself (the gateway uses its key verifier, so that
   * failures count against the caller's address and not its own loopback address); it throws
   * to refuse. Without it the key is checked with `GET /v1/me`.
   */
  authenticate?: (req: IncomingMessage, apiKey: string) => Promise<McpIdentity>;
  /** Largest JSON-RPC body accepted (default 1 MiB). */
  maxBodyBytes?: number;
}

function problem(res: ServerResponse, status: number, body: Record<string, unknown>) {
  const headers: Record<string, string> = { 'Content-Type': 'application/problem+json' };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="handoff"';
  res.writeHead(status, headers).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Streamable HTTP (stateless) for agents: the agent key is the Bearer token, checked with
 * `GET /v1/me` through the SDK, and its scopes decide the tools listed. Each tool call goes
 * through the agent API with that key, so every check of the API applies unchanged.
 */
export function createMcpHttpHandler(options: McpHttpOptions) {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  const clientFor = (apiKey: string): HandoffClient =>
    createHandoffClient({
      baseUrl: options.gatewayUrl(),
      apiKey,
      userAgent: 'handoff-mcp/0.1.0 (http)',
    });
  const handler = createMcpHandler((ctx) =>
    createHandoffMcpServer(clientFor(ctx.authInfo?.token ?? ''), ctx.authInfo?.scopes ?? []),
  );

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const authorization = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    const apiKey = match?.[1];
    if (!apiKey) {
      return problem(res, 401, {
        type: 'https://handoff.dev/problems/api_key_missing',
        title: 'Unauthorized',
        status: 401,
        code: 'api_key_missing',
        detail: 'Send the agent key as `Authorization: Bearer hk_live_...`.',
      });
    }
    let identity: McpIdentity;
    if (options.authenticate) {
      identity = await options.authenticate(req, apiKey);
    } else {
      try {
        const me = await clientFor(apiKey).me();
        identity = { integrationId: me.integration_id, scopes: me.scopes };
      } catch (error) {
        if (error instanceof HandoffError) return problem(res, error.status, { ...error.body });
        throw error;
      }
    }
    const body =
      req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE'
        ? undefined
        : await readBody(req, limit);
    if (body === undefined && req.method === 'POST') {
      return problem(res, 413, {
        type: 'https://handoff.dev/problems/payload_too_large',
        title: 'Content Too Large',
        status: 413,
        code: 'payload_too_large',
        detail: `The body is over ${limit} bytes.`,
      });
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const request = new Request(new URL(req.url ?? '/mcp', 'http://localhost'), {
      method: req.method ?? 'GET',
      headers,
      ...(body === undefined ? {} : { body: new Uint8Array(body) }),
    });
    const response = await handler.fetch(request, {
      authInfo: { token: apiKey, clientId: identity.integrationId, scopes: [...identity.scopes] },
    });
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    res.writeHead(response.status, out);
    if (!response.body) {
      res.end();
      return;
    }
    // Streamed as it comes: a tool call may answer as server-sent events.
    const reader = response.body.getReader();
    res.once('close', () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  }

  return { handle, close: () => handler.close() };
}
