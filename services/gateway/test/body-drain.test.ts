// A body the gateway refused is read off and thrown away, within bounds, before the connection
// closes (http/drain.ts): a client that streams fast reads its 413 (or 401, 415) instead of a
// connection reset, and a client that never stops is cut off. Real gateway, real services,
// real sockets, node:http as the client (it writes the whole body, reading the answer meanwhile,
// as most clients do).
import { beforeAll, describe, expect, it } from '@jest/globals';
import { BODY_LIMIT_BYTES } from '@handoff/contracts';
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { DRAIN_LIMITS } from '../src/http/drain.ts';
import { address, type Onboarded } from './support/http.ts';
import { useStack, type OwnedRequest } from './support/stack.ts';

const MAX_FILE = 1024 * 1024;
const FILES_ENV = { FILES_MAX_FILE_BYTES: String(MAX_FILE) };
const stack = useStack('gw_drain', {
  env: { conversation: FILES_ENV, milestones: FILES_ENV },
  // The A2A binding, which reads its JSON-RPC body outside the route table.
  gateway: { A2A_TOKENS_KEY: randomBytes(32).toString('base64') },
});

/** Well past every limit here, and within what the gateway reads off after a refusal. */
const BODY = 4 * 1024 * 1024;
const PIECE = 256 * 1024;

interface Streamed {
  status: number;
  body: string;
  /** The first error the client saw on the connection (ECONNRESET, EPIPE), if any. */
  error: string | undefined;
  written: number;
}

/**
 * POSTs `total` bytes (all of them when `total` is finite, with `Content-Length` unless
 * `chunked`) in 256 KiB writes, each as soon as the socket takes it, and answers once the
 * connection has closed.
 */
function stream(
  path: string,
  headers: OutgoingHttpHeaders,
  { total, chunked }: { total: number; chunked: boolean },
): Promise<Streamed> {
  const url = new URL(path, stack.gateway.url);
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: {
        'X-Forwarded-For': address(),
        ...headers,
        ...(chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(total) }),
      },
    });
    const piece = Buffer.alloc(PIECE, 'abcdefghij\n');
    let status = 0;
    let body = '';
    let error: string | undefined;
    let written = 0;
    let closed = false;
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (data: Buffer) => (body += data.toString('utf8')));
      res.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    });
    req.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    req.on('close', () => {
      closed = true;
      resolve({ status, body, error, written });
    });
    const pump = () => {
      while (!closed && written < total) {
        const size = Math.min(piece.length, total - written);
        written += size;
        const more = req.write(size === piece.length ? piece : piece.subarray(0, size));
        if (!more) return void req.once('drain', pump);
      }
      if (!closed) req.end();
    };
    pump();
  });
}

const problemOf = (answer: Streamed) => JSON.parse(answer.body) as Record<string, unknown>;

describe('a refused body is drained, so the client reads the answer', () => {
  let agent: Onboarded;
  let request: OwnedRequest;

  beforeAll(async () => {
    agent = await stack.agentOf();
    request = await stack.requestOf(agent);
  });

  const json = () => ({ Authorization: `Bearer ${agent.key}`, 'Content-Type': 'application/json' });
  const uploadPath = (name: string) => `/v1/request/${request.id}/files?filename=${name}`;
  const upload = (type = 'text/plain') => ({
    Authorization: `Bearer ${agent.key}`,
    'X-Service-Request-Token': request.token,
    'Content-Type': type,
  });

  it.each([
    ['a declared Content-Length', false],
    ['a chunked body', true],
  ])(
    'answers a JSON body over the limit sent fast as %s with a 413 the client reads',
    async (_, chunked) => {
      expect(BODY).toBeGreaterThan(BODY_LIMIT_BYTES * 16);
      const answer = await stream('/v1/ai-to-human-request', json(), { total: BODY, chunked });
      expect({ status: answer.status, error: answer.error }).toEqual({
        status: 413,
        error: undefined,
      });
      expect(problemOf(answer)).toMatchObject({ status: 413, code: 'payload_too_large' });
      // All of it on a quiet machine. On a loaded one the drain's 5 s (or 1 s without a byte)
      // can end first, as designed; what matters is that the client, having written far past
      // the limit, read its answer cleanly (a local CI beside a soak wrote 3.75 of 4 MiB).
      expect(answer.written).toBeGreaterThan(BODY_LIMIT_BYTES * 16);
    },
  );

  it.each([
    ['a declared Content-Length', false],
    ['a chunked body', true],
  ])(
    'answers an A2A call over its limit sent fast as %s with a 413 the client reads',
    async (_, chunked) => {
      const answer = await stream('/a2a', json(), { total: BODY, chunked });
      expect({ status: answer.status, error: answer.error }).toEqual({
        status: 413,
        error: undefined,
      });
      expect(problemOf(answer)).toMatchObject({ status: 413, code: 'payload_too_large' });
    },
  );

  it.each([
    ['a declared Content-Length', false],
    ['a chunked body', true],
  ])(
    'answers an upload over the file limit sent fast as %s with a 413 the client reads',
    async (_, chunked) => {
      const answer = await stream(uploadPath('big.txt'), upload(), { total: BODY, chunked });
      expect({ status: answer.status, error: answer.error }).toEqual({
        status: 413,
        error: undefined,
      });
      expect(problemOf(answer)).toMatchObject({ code: 'file_too_large', limit: MAX_FILE });
    },
  );

  it('answers an upload whose bytes belie its type with a 415 mid-body the client reads', async () => {
    // Chunked: a declared length over the limit would be refused (413) before the type is seen.
    const answer = await stream(uploadPath('a.png'), upload('image/png'), {
      total: BODY,
      chunked: true,
    });
    expect({ status: answer.status, error: answer.error }).toEqual({
      status: 415,
      error: undefined,
    });
    expect(problemOf(answer)).toMatchObject({ code: 'file_type_mismatch' });
  });

  it('answers an upload refused before its body (no credentials) with a 401 the client reads', async () => {
    const headers: Record<string, string> = upload();
    delete headers.Authorization;
    const answer = await stream(uploadPath('anonymous.txt'), headers, {
      total: BODY,
      chunked: true,
    });
    expect({ status: answer.status, error: answer.error }).toEqual({
      status: 401,
      error: undefined,
    });
    expect(problemOf(answer)).toMatchObject({ status: 401 });
  });

  it('still keeps nothing of the refused uploads', async () => {
    const listed = await stack.asCustomer(agent, request, '/files');
    expect(listed.body.data).toEqual([]);
  });
});

/**
 * A client that never stops: a chunked body on a raw socket (node:http would stop once the answer
 * came), one frame of `piece` bytes whenever the socket takes it (or every `pause` ms), until the
 * gateway closes the connection (or `stopAt` bytes went out: then it stays open, quiet).
 */
function endless(
  path: string,
  headers: Record<string, string>,
  { piece = PIECE, pause = 0, stopAt = Number.POSITIVE_INFINITY },
) {
  const url = new URL(path, stack.gateway.url);
  return new Promise<{ status: number; written: number; afterAnswerMs: number }>((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const frame = Buffer.concat([
      Buffer.from(`${piece.toString(16)}\r\n`),
      Buffer.alloc(piece, 'abcdefghij\n'),
      Buffer.from('\r\n'),
    ]);
    let received = '';
    let answeredAt = Number.NaN;
    let written = 0;
    let closed = false;
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      if (Number.isNaN(answeredAt) && received.includes('\r\n\r\n')) answeredAt = Date.now();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1] ?? 0);
      resolve({ status, written, afterAnswerMs: Date.now() - answeredAt });
    });
    const pump = () => {
      while (!closed && written < stopAt) {
        written += piece;
        const more = socket.write(frame);
        if (pause) return void setTimeout(pump, pause);
        if (!more) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      const head = Object.entries({
        Host: url.host,
        'X-Forwarded-For': address(),
        'Transfer-Encoding': 'chunked',
        ...headers,
      }).map(([name, value]) => `${name}: ${value}`);
      socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head.join('\r\n')}\r\n\r\n`);
      pump();
    });
  });
}

describe('draining is bounded', () => {
  let agent: Onboarded;
  beforeAll(async () => {
    agent = await stack.agentOf();
  });
  const json = () => ({ Authorization: `Bearer ${agent.key}`, 'Content-Type': 'application/json' });

  it('closes on a client that keeps sending fast past the byte bound', async () => {
    const answer = await endless('/v1/ai-to-human-request', json(), {});
    expect(answer.status).toBe(413);
    // What was read off, plus what the two sockets' buffers hold on the way: then it was cut.
    expect(answer.written).toBeGreaterThan(DRAIN_LIMITS.bytes);
    expect(answer.written).toBeLessThan(DRAIN_LIMITS.bytes + 64 * 1024 * 1024);
    expect(answer.afterAnswerMs).toBeLessThan(DRAIN_LIMITS.ms);
  });

  it('closes on an A2A call that keeps sending past the byte bound, not at the request deadline', async () => {
    const answer = await endless('/a2a', json(), {});
    expect(answer.status).toBe(413);
    expect(answer.written).toBeLessThan(DRAIN_LIMITS.bytes + 64 * 1024 * 1024);
    expect(answer.afterAnswerMs).toBeLessThan(DRAIN_LIMITS.ms);
  });

  it('closes on a client that trickles past the time bound', async () => {
    const answer = await endless('/v1/ai-to-human-request', json(), {
      piece: 16 * 1024,
      pause: Math.round(DRAIN_LIMITS.idleMs / 5),
    });
    expect(answer.status).toBe(413);
    expect(answer.written).toBeLessThan(DRAIN_LIMITS.bytes);
    expect(answer.afterAnswerMs).toBeGreaterThanOrEqual(DRAIN_LIMITS.ms - 100);
    expect(answer.afterAnswerMs).toBeLessThan(DRAIN_LIMITS.ms + 3_000);
  });

  it('closes on a client that went quiet after its answer, once it has been idle a while', async () => {
    const answer = await endless('/v1/ai-to-human-request', json(), {
      piece: 4096,
      stopAt: BODY_LIMIT_BYTES * 2,
    });
    expect(answer.status).toBe(413);
    expect(answer.afterAnswerMs).toBeGreaterThanOrEqual(DRAIN_LIMITS.idleMs - 100);
    expect(answer.afterAnswerMs).toBeLessThan(DRAIN_LIMITS.ms);
  });
});
