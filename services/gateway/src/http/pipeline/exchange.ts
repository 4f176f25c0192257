import type { Request, Response } from 'express';

/** One call as the stages before the handler see it: what they read, and the headers they add. */
export interface Exchange {
  readonly callId: string;
  /** The client's address as Express resolves it behind the trusted proxies. */
  readonly address: string;
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** This gateway's origin as the client called it (`https://host`, behind the trusted proxies). */
  readonly origin: string;
  /** Whether the call came over TLS, directly or as the trusted proxy says. */
  readonly secure: boolean;
  /** A request header (names are case-insensitive). */
  header(name: string): string | undefined;
  /** Sent with whatever the call is answered, a refusal included (e.g. the rate limit's). */
  setHeaders(headers: Record<string, string>): void;
}

export function exchangeOf(req: Request, res: Response): Exchange {
  return {
    callId: String(res.locals.callId),
    address: req.ip ?? 'unknown',
    method: req.method,
    get path() {
      return req.path;
    },
    get origin() {
      return `${req.protocol}://${req.get('host') ?? ''}`;
    },
    get secure() {
      return req.secure;
    },
    header: (name) => req.get(name),
    setHeaders: (headers) => {
      res.set(headers);
    },
  };
}
