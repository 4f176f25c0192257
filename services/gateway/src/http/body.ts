import type { NextFunction, Request, Response } from 'express';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { drainThenClose } from './drain.ts';
import { HttpError } from './errors.ts';

/** Whether the request says it has a body (a non-zero length, or a transfer coding). */
export function declaresBody(req: Request): boolean {
  const length = req.get('content-length');
  return (length !== undefined && length !== '0') || req.get('transfer-encoding') !== undefined;
}

const tooLarge = (limitBytes: number) =>
  new HttpError('payload_too_large', `The body is over ${limitBytes} bytes.`, {
    // The rest of the body is only drained, within bounds (drain.ts): the connection then ends.
    headers: { Connection: 'close' },
  });

const unsupportedEncoding = () =>
  new HttpError(
    'unsupported_media_type',
    'Send the body in UTF-8, without a Content-Encoding other than gzip, deflate or br.',
  );

function decoded(req: Request): Readable | Transform {
  const coding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  switch (coding) {
    case 'identity':
      return req;
    case 'gzip':
    case 'x-gzip':
      return req.pipe(createGunzip());
    case 'deflate':
      return req.pipe(createInflate());
    case 'br':
      return req.pipe(createBrotliDecompress());
    default:
      throw unsupportedEncoding();
  }
}

/**
 * Reads the body, at most `limitBytes` of it after decoding. A declared `Content-Length` over the
 * limit is refused before a byte is read; a body that grows past it (chunked, or compressed) is
 * refused the moment it does, and nothing more is read for the route. Each refusal asks for the
 * connection to be closed: otherwise Node (and body-parser before it) reads the rest, however
 * long, to keep the connection alive, which is what a slow or endless body wants; instead the
 * rest is drained within bounds before the connection closes (drain.ts).
 */
export function readBodyBytes(req: Request, res: Response, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limitBytes) {
    return Promise.reject(tooLarge(limitBytes));
  }
  // The server answers `Expect: 100-continue` itself (see bootstrap), only now that every check
  // before the body has passed, so a client never sends a body that would be refused anyway.
  if (/^\s*100-continue\s*$/i.test(req.get('expect') ?? '') && !res.headersSent) {
    res.writeContinue();
  }
  let stream: Readable | Transform;
  try {
    stream = decoded(req);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      req.off('close', onClose);
      req.off('error', onError);
    };
    const fail = (error: HttpError) => {
      cleanup();
      if (stream !== req) {
        req.unpipe();
        stream.destroy();
      }
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) return fail(tooLarge(limitBytes));
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, received));
    };
    // A body cut short, or a compressed body that does not decompress.
    const onError = () =>
      fail(
        new HttpError('invalid_json', 'The body could not be read as sent.', {
          headers: { Connection: 'close' },
        }),
      );
    // The client went away before the end.
    const onClose = () => {
      if (!req.complete) onError();
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    req.on('close', onClose);
    if (stream !== req) req.on('error', onError);
  });
}

/**
 * `req.body` as JSON, for a handler outside the route table that takes it so (the A2A binding):
 * read with {@link readBodyBytes}, within the API's bounds, not by body-parser, which reads a
 * body over its limit to the end, however long, before it refuses it. Text that does not parse
 * is passed on as body-parser passes it, a `SyntaxError`.
 */
export function jsonBodyWithin(limitBytes: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!declaresBody(req) || !req.is('application/json')) return next();
    if (!charsetIsUtf8(req)) return next(unsupportedEncoding());
    readBodyBytes(req, res, limitBytes).then((bytes) => {
      const text = bytes.toString('utf8');
      try {
        req.body = text === '' ? {} : (JSON.parse(text) as unknown);
      } catch (error) {
        return next(error);
      }
      next();
    }, next);
  };
}

/** The body as JSON text in UTF-8; any other charset is refused, as the API documents. */
export function charsetIsUtf8(req: Request): boolean {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(req.get('content-type') ?? '');
  const charset = match?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/** Unread bodies up to this size are read off to keep the connection; larger ones are not. */
const DRAINABLE_BYTES = 64 * 1024;

/**
 * An answer written while a large or unbounded (chunked) body is still unread (a 401 before the
 * body, a 413 that stopped reading) closes the connection, so that Node does not read the rest
 * of the body to keep the connection for another request; the rest is read off within bounds
 * first ({@link drainThenClose}), so that the client reads the answer rather than a reset. A
 * small declared body is read off by Node, and the connection kept.
 */
export function closeWhenBodyUnread(req: Request, res: Response, next: NextFunction): void {
  if (req.complete) return next();
  drainThenClose(req, res);
  const declared = Number(req.get('content-length') ?? '0');
  const unbounded = req.get('transfer-encoding') !== undefined || !(declared <= DRAINABLE_BYTES);
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (!req.complete && unbounded && !this.headersSent) {
      this.setHeader('Connection', 'close');
    }
    return Reflect.apply(writeHead, this, args) as Response;
  } as Response['writeHead'];
  next();
}
