import { PROBLEM_BASE } from '@handoff/contracts';
import { createHandoffClient, HandoffError, type HandoffClient } from '@handoff/sdk';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_BODY_LIMIT_BYTES } from './limits.ts';
import { createHandoffMcpServer } from './server.ts';

/** How the tools reach the agent API: a `fetch` of web requests. */
export type AgentApiFetch = (request: Request) => Promise<Response>;

/** The verified agent key of an MCP request. */
export interface McpIdentity {
  integrationId: string;
  scopes: readonly string[];
  /**
   * How this request's tools reach the agent API, when not over HTTP at `gatewayUrl` (the gateway
   * serves its own routes in process: no second exchange, key check or rate-limit count).
   */
  fetch?: AgentApiFetch;
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
}

const TITLES: Record<number, string> = { 401: 'Unauthorized', 413: 'Content Too Large' };

/** A problem as the gateway words its own: `type` is the code's page, `request_id` its header. */
function problem(
  res: ServerResponse,
  status: number,
  code: string,
  detail: string,
  headers: Record<string, string> = {},
) {
  // Mounted on the gateway, the request already has its id; alone, it gets one here.
  const given = res.getHeader('request-id');
  const requestId = typeof given === 'string' ? given : randomUUID();
  const body = JSON.stringify({
    type: `${PROBLEM_BASE}${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    request_id: requestId,
  });
  res.writeHead(status, {
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Request-Id': requestId,
    ...(status === 401 ? { 'WWW-Authenticate': 'Bearer realm="handoff"' } : {}),
    ...headers,
  });
  res.end(body);
}

const tooLarge = (res: ServerResponse) =>
  // The rest of the body is never read, so the connection cannot carry another request.
  problem(res, 413, 'payload_too_large', `The body is over ${MCP_BODY_LIMIT_BYTES} bytes.`, {
    Connection: 'close',
  });

/**
 * The body, or `undefined` the moment it grows past the limit: reading stops there (the stream
 * is paused, not drained), so an endless chunked body costs no more than the limit.
 */
function readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> {
  // Node leaves `Expect: 100-continue` to the gateway, which invites the body only when the
  // checks before it have passed, as they have here.
  if (/^\s*100-continue\s*$/i.test(req.headers.expect ?? '') && !res.headersSent) {
    res.writeContinue();
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MCP_BODY_LIMIT_BYTES) {
        cleanup();
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      if (!req.complete) onError(new Error('the client went away before the end of the body'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** The identity's `fetch`, which rides to the server's factory in the auth info's `extra`. */
const fetchOf = (extra: Record<string, unknown> | undefined): AgentApiFetch | undefined =>
  typeof extra?.fetch === 'function' ? (extra.fetch as AgentApiFetch) : undefined;

/**
 * Streamable HTTP (stateless) for agents: the agent key is the Bearer token, checked with
 * `GET /v1/me` through the SDK, and its scopes decide the tools listed. Each tool call goes
 * through the agent API with that key (over HTTP, or the identity's `fetch`), so every check of
 * the API applies unchanged.
 */
export function createMcpHttpHandler(options: McpHttpOptions) {
  const clientFor = (apiKey: string, fetch?: AgentApiFetch): HandoffClient =>
    createHandoffClient({
      baseUrl: options.gatewayUrl(),
      apiKey,
      userAgent: 'handoff-mcp/0.1.0 (http)',
      ...(fetch ? { fetch } : {}),
    });
  const handler = createMcpHandler(
    (ctx) => {
      const apiKey = ctx.authInfo?.token ?? '';
      // Tasks are the 2026-07-28 extension: a 2025-era client gets the plain tools.
      const tasks = ctx.era === 'modern' ? { apiKey } : undefined;
      const client = clientFor(apiKey, fetchOf(ctx.authInfo?.extra));
      return createHandoffMcpServer(client, ctx.authInfo?.scopes ?? [], tasks);
    },
    { maxRequestBodySize: MCP_BODY_LIMIT_BYTES },
  );

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const authorization = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    const apiKey = match?.[1];
    if (!apiKey) {
      return problem(
        res,
        401,
        'api_key_missing',
        'Send the agent key as `Authorization: Bearer hk_live_...`.',
      );
    }
    let identity: McpIdentity;
    if (options.authenticate) {
      identity = await options.authenticate(req, apiKey);
    } else {
      try {
        const me = await clientFor(apiKey).me();
        identity = { integrationId: me.integration_id, scopes: me.scopes };
      } catch (error) {
        if (error instanceof HandoffError) {
          // The gateway's own problem, as it answered `GET /v1/me`.
          res.writeHead(error.status, {
            'Content-Type': 'application/problem+json; charset=utf-8',
            ...(error.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="handoff"' } : {}),
          });
          res.end(JSON.stringify(error.body));
          return;
        }
        throw error;
      }
    }
    let body: Buffer | undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE') {
      // A declared length over the limit is refused before a byte of the body is read.
      const declared = Number(req.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > MCP_BODY_LIMIT_BYTES) return tooLarge(res);
      body = await readBody(req, res);
      if (body === undefined) return tooLarge(res);
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
      authInfo: {
        token: apiKey,
        clientId: identity.integrationId,
        scopes: [...identity.scopes],
        ...(identity.fetch ? { extra: { fetch: identity.fetch } } : {}),
      },
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
