import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How much of a refused body is read off and thrown away before the connection closes.
 * - `bytes`: 8 MiB past what was read, about what is already on its way when the client learns
 *   of the refusal (the bandwidth-delay product of 1 Gbit/s over 64 ms, or a client's socket
 *   buffers), so that a client streaming fast has stopped before the gateway stops reading.
 * - `ms`: 5 s in all, whatever the pace (a trickle cannot hold the connection).
 * - `idleMs`: 1 s without a byte: a client that stopped sending already has its answer.
 */
export const DRAIN_LIMITS = { bytes: 8 * 1024 * 1024, ms: 5_000, idleMs: 1_000 } as const;

export type DrainLimits = { [K in keyof typeof DRAIN_LIMITS]: number };

type End = ServerResponse['end'];

/**
 * Makes an answer that ends while the request's body is unread, on a connection it closes
 * (`Connection: close`: a 413 that stopped reading, a 401 before the body, ...), read the rest
 * of the body off before the connection closes. Closing with bytes unread makes the kernel
 * answer them with a TCP reset, and a client still writing its body (most send it all before
 * they read) reports ECONNRESET or EPIPE, not the answer it was sent. So the answer is written
 * at once, the body is read and thrown away (never kept) within `limits`, and only then does the
 * answer end, which lets Node close the connection cleanly. Past a limit the socket is
 * destroyed, as it was before. Call once per request, before the answer ends.
 */
export function drainThenClose(
  req: IncomingMessage,
  res: ServerResponse,
  limits: DrainLimits = DRAIN_LIMITS,
): void {
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    res.end = end;
    if (req.complete || req.socket.destroyed)
      return Reflect.apply(end, this, args) as ServerResponse;
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as () => void) : undefined;
    const [chunk, encoding] = args as [string | Uint8Array | undefined, BufferEncoding | undefined];
    if (!this.headersSent) {
      // The answer's length, so that the client knows it whole before the answer ends.
      if (chunk !== undefined && chunk !== null && !this.hasHeader('content-length')) {
        this.setHeader('Content-Length', Buffer.byteLength(chunk, encoding));
      }
      this.writeHead(this.statusCode);
    }
    if (!closesConnection(this)) {
      return Reflect.apply(end, this, [...args, ...(callback ? [callback] : [])]) as ServerResponse;
    }
    if (chunk !== undefined && chunk !== null) this.write(chunk, encoding as BufferEncoding);
    discardRest(req, limits, (whole) => {
      Reflect.apply(end, this, callback ? [callback] : []);
      if (!whole) req.socket.destroy();
    });
    return this;
  } as End;
}

function closesConnection(res: ServerResponse): boolean {
  const header = res.getHeader('connection');
  return typeof header === 'string' && /(^|,)\s*close\s*(,|$)/i.test(header);
}

/**
 * Reads the rest of the body and drops it, then calls `done`: `whole` when the body ended,
 * otherwise a limit was crossed (or the client went away) and reading has stopped.
 */
function discardRest(
  req: IncomingMessage,
  limits: DrainLimits,
  done: (whole: boolean) => void,
): void {
  let read = 0;
  const stop = (whole: boolean) => {
    clearTimeout(overall);
    clearTimeout(idle);
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
    if (!whole) req.pause();
    done(whole);
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > limits.bytes) return stop(false);
    idle.refresh();
  };
  const onEnd = () => stop(true);
  const onClose = () => stop(req.complete);
  const overall = setTimeout(() => stop(false), limits.ms).unref();
  const idle = setTimeout(() => stop(false), limits.idleMs).unref();
  req.on('data', onData);
  req.once('end', onEnd);
  req.once('close', onClose);
  req.resume();
}
