import { declaredType } from '@handoff/files/checks';
import type { Request, Response } from 'express';
import { HttpError } from '../errors.ts';
import type { UploadSource } from '../route.ts';

/**
 * An upload's body as a route reads it, from its stream and headers: the HTTP pipeline's and the
 * in-process fetch's (the gateway's /mcp) alike. A coding is refused: the bytes are the file, and
 * a coding would make the digest and the type another file's.
 */
export function uploadSource(
  stream: AsyncIterable<Uint8Array>,
  header: (name: string) => string | undefined,
): UploadSource {
  if ((header('content-encoding') ?? 'identity').trim().toLowerCase() !== 'identity') {
    throw new HttpError(
      'unsupported_media_type',
      'Send the file as it is, without a Content-Encoding.',
    );
  }
  const declared = header('content-length');
  const length =
    declared !== undefined && /^[0-9]{1,15}$/.test(declared) ? Number(declared) : undefined;
  return { stream, length, type: declaredType(header('content-type')) };
}

/**
 * An upload route's body as its handler reads it: the request itself is the stream, pulled as
 * the handler stores it. `Expect: 100-continue` is answered only when the handler starts reading,
 * after every check before the body (credentials, the declared length against the limit).
 */
export function uploadSourceOf(req: Request, res: Response): UploadSource {
  const stream: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      if (/^\s*100-continue\s*$/i.test(req.get('expect') ?? '') && !res.headersSent) {
        res.writeContinue();
      }
      // A refusal half-way (413, 415) stops reading but keeps the socket: the answer goes out,
      // the rest of the body is drained within bounds (http/drain.ts), then the connection ends.
      return req.iterator({ destroyOnReturn: false }) as AsyncIterator<Uint8Array>;
    },
  };
  return uploadSource(stream, (name) => req.get(name));
}

/**
 * What makes a retried upload the same call without reading its bytes twice: its query (the
 * file's name), the declared type and length.
 */
export function uploadFingerprint(query: unknown, upload: UploadSource): unknown {
  return { query, type: upload.type, length: upload.length ?? null };
}
