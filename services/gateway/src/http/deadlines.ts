import type { NextFunction, Request, Response } from 'express';
import type { RouteDefinition } from './route.ts';

/**
 * How long a request may take to arrive. Node's own `requestTimeout` is one deadline for every
 * request on the server, which either cuts off a 100 MiB upload over a slow line or lets a
 * trickling JSON body hold a connection for as long. So the server's deadline is the uploads'
 * (`uploadMs`, the longest any request may take) and this middleware keeps the others to
 * `requestMs` as before; an upload is instead cut off when no byte of it has arrived for
 * `requestMs` (a client that stalled), whatever its size.
 */
export function requestDeadlines(
  routes: readonly RouteDefinition[],
  { requestMs }: { requestMs: number },
) {
  const uploads = routes
    .filter((route) => route.upload)
    .map((route) => new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}$`));
  const isUpload = (req: Request) =>
    req.method === 'POST' && uploads.some((re) => re.test(req.path));

  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.complete) return next();
    const socket = req.socket;
    let seen = socket.bytesRead;
    const check = () => {
      if (req.complete || socket.destroyed) return stop();
      if (isUpload(req) && socket.bytesRead > seen) {
        seen = socket.bytesRead;
        return arm();
      }
      stop();
      // As Node answers its own request timeout: the request is not whole, so neither is the
      // connection's framing; say 408 if nothing was said yet, and close.
      if (!res.headersSent) {
        socket.end(
          'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
        );
      } else {
        socket.destroy();
      }
    };
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      timer = setTimeout(check, requestMs);
      timer.unref();
    };
    const stop = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      req.off('end', stop);
      res.off('close', stop);
    };
    req.once('end', stop);
    res.once('close', stop);
    arm();
    next();
  };
}
