// JSON calls to one HTTP server over a few keep-alive connections, for closed-loop loads whose
// every call needs a target of its own (which autocannon's fixed requests cannot give): the same
// kind of connections autocannon keeps, without fetch's extra layers.
import { Agent, request } from 'node:http';
import { UnexpectedStatusError, type CallInit } from '@handoff/devstack/gateway-client';

/** How long a call may take before it fails (autocannon's timeout in the HTTP loads). */
const TIMEOUT_MS = 10_000;
/** How much of an unexpected answer an error message quotes. */
const QUOTED_CHARS = 300;

/** One call: `CallInit` (its headers are never quoted in errors: they carry keys) and its path. */
export interface KeepAliveCall extends CallInit {
  /** Path and query, e.g. `/v1/request/req_1/milestones`. */
  path: string;
}

/** One server of the client's, with the connections kept to it. */
interface Server {
  host: string;
  port: number;
  agent: Agent;
}

/**
 * At most `connections` keep-alive connections to `baseUrl` (plain HTTP), shared by the calls:
 * a closed loop of that many callers keeps each on a connection of its own, as autocannon does.
 * Given several base URLs (a stack's gateway replicas), the connections are split between them
 * and the calls alternate, so each server takes its share and each connection stays on one.
 */
export class KeepAliveClient {
  readonly #servers: Server[];
  #next = 0;

  constructor(baseUrl: string | readonly string[], connections: number) {
    const urls = typeof baseUrl === 'string' ? [baseUrl] : baseUrl;
    if (urls.length === 0) throw new Error('no server to call');
    this.#servers = urls.map((base, index) => {
      const url = new URL(base);
      if (url.protocol !== 'http:') throw new Error(`not a plain HTTP URL: ${base}`);
      const share = Math.max(1, Math.ceil((connections - index) / urls.length));
      return {
        host: url.hostname,
        port: Number(url.port || 80),
        agent: new Agent({ keepAlive: true, maxSockets: share }),
      };
    });
  }

  /**
   * One call; resolves with the answer's JSON object when the status is `expect`, throws an
   * {@link UnexpectedStatusError} (method, path, status and the start of the answer) otherwise,
   * and an error naming the call when the answer is not a JSON object.
   */
  call(init: KeepAliveCall): Promise<Record<string, unknown>> {
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const what = `${init.method} ${init.path.split('?')[0] ?? init.path}`;
    const server = this.#nextServer();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: server.agent,
          host: server.host,
          port: server.port,
          method: init.method,
          path: init.path,
          headers: {
            Accept: 'application/json',
            ...(payload === undefined
              ? {}
              : {
                  'Content-Type': 'application/json',
                  'Content-Length': String(Buffer.byteLength(payload)),
                }),
            ...init.headers,
          },
          timeout: TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status !== init.expect) {
              reject(
                new UnexpectedStatusError(
                  `${what} answered ${status}, not ${init.expect}: ${text.slice(0, QUOTED_CHARS)}`,
                  status,
                ),
              );
              return;
            }
            try {
              const parsed: unknown = JSON.parse(text);
              if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
                throw new Error('not an object');
              }
              resolve(parsed as Record<string, unknown>);
            } catch {
              reject(
                new Error(
                  `${what}: the answer is not a JSON object: ${text.slice(0, QUOTED_CHARS)}`,
                ),
              );
            }
          });
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`${what}: no answer within ${TIMEOUT_MS / 1_000} s`)),
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The servers in turn, one per call. */
  #nextServer(): Server {
    const server = this.#servers[this.#next % this.#servers.length];
    this.#next += 1;
    if (!server) throw new Error('no server to call');
    return server;
  }

  /** Closes the connections. */
  close(): void {
    for (const server of this.#servers) server.agent.destroy();
  }
}
