import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import type { RunningGateway } from '../../src/bootstrap.ts';
import { address } from './http.ts';

// Raw HTTP/1.1 over a socket, for what fetch will not send: lying lengths, endless bodies.

/** A well-formed agent key (right shape, wrong checksum is fine: it is refused either way). */
export const bogusAgentKey = () =>
  `hk_live_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The socket was closed by the server. */
  closed: boolean;
}

/** Parses the first HTTP/1.1 answer out of what a raw socket received. */
function parseAnswer(text: string, closed: boolean): RawAnswer | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = text.slice(end + 4);
  const length = Number(headers['content-length'] ?? '0');
  if (Buffer.byteLength(rest) < length) return undefined;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: rest.slice(0, length),
    closed,
  };
}

/**
 * Opens a socket to the gateway and sends `head` (the request line and headers, CRLF-separated,
 * without the blank line). `feed` may then write the body; it gets the socket and a flag that
 * turns true once the server has answered or closed.
 */
export function rawCall(
  target: RunningGateway,
  head: string,
  feed?: (socket: Socket, done: () => boolean) => Promise<void>,
  /** End the head with the blank line; false leaves the headers open (a slow client). */
  endHead = true,
): Promise<RawAnswer & { sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, '127.0.0.1');
    let received = '';
    let answer: RawAnswer | undefined;
    let finished = false;
    let sent = 0;
    const write = socket.write.bind(socket);
    const finish = () => {
      if (finished) return;
      finished = true;
      socket.destroy();
      if (answer) resolve({ ...answer, sent });
      else reject(new Error(`no complete answer; received ${JSON.stringify(received)}`));
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      answer ??= parseAnswer(received, false);
    });
    socket.on('end', () => {
      if (answer) answer.closed = true;
      else answer = parseAnswer(received, true);
      finish();
    });
    socket.on('close', finish);
    socket.on('error', () => {
      // A reset while the client still writes: what was received before still counts.
      answer ??= parseAnswer(received, true);
      if (answer) answer.closed = true;
      finish();
    });
    socket.on('connect', () => {
      write(endHead ? `${head}\r\n\r\n` : head);
      if (!feed) return;
      feed(
        Object.assign(socket, {
          write: ((chunk: Buffer | string, ...rest: never[]) => {
            sent += Buffer.byteLength(chunk);
            return write(chunk, ...rest);
          }) as Socket['write'],
        }),
        () => finished || answer !== undefined,
      ).catch(() => undefined);
    });
  });
}

export const requestHead = (method: string, path: string, headers: Record<string, string>) =>
  [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `X-Forwarded-For: ${address()}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');

/** The head of a `POST` of JSON; `headers` add to it or override `Content-Type`. */
export const jsonPost = (path: string, headers: Record<string, string> = {}) =>
  requestHead('POST', path, { 'Content-Type': 'application/json', ...headers });

/**
 * Feeds an endless chunked body: 64 KiB chunks until the server has answered (or closed) or
 * `limit` bytes went out, waiting whenever the socket's buffer is full.
 */
export async function feedChunks(socket: Socket, done: () => boolean, limit: number) {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const frame = Buffer.concat([
    Buffer.from(`${chunk.length.toString(16)}\r\n`),
    chunk,
    Buffer.from('\r\n'),
  ]);
  for (let sent = 0; sent < limit && !done(); sent += chunk.length) {
    if (!socket.write(frame)) {
      await new Promise((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    }
  }
}
