import type { Request, Response } from 'express';
import { HttpError } from '../errors.ts';
import type { UploadSource } from '../route.ts';

/** The declared media type of a `Content-Type`: lower-cased, without parameters, '' if none. */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/**
 * An upload route's body as its handler reads it: the request itself is the stream, pulled as
 * the handler stores it. `Expect: 100-continue` is answered only when the handler starts reading,
 * after every check before the body (credentials, the declared length against the limit).
 */
export function uploadSourceOf(req: Request, res: Response): UploadSource {
  const coding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (coding !== 'identity') {
    // The bytes are the file: a coding would make the digest and the type another file's.
    throw new HttpError(
      'unsupported_media_type',
      'Send the file as it is, without a Content-Encoding.',
    );
  }
  const declared = req.get('content-length');
  const length =
    declared !== undefined && /^[0-9]{1,15}$/.test(declared) ? Number(declared) : undefined;
  const stream: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      if (/^\s*100-continue\s*$/i.test(req.get('expect') ?? '') && !res.headersSent) {
        res.writeContinue();
      }
      // A refusal half-way (413, 415) stops reading but keeps the socket, so that the client
      // reads the answer; the pipeline's `Connection: close` ends the connection after it.
      return req.iterator({ destroyOnReturn: false }) as AsyncIterator<Uint8Array>;
    },
  };
  return { stream, length, type: mediaTypeOf(req.get('content-type')) };
}

/**
 * What makes a retried upload the same call without reading its bytes twice: its query (the
 * file's name), the declared type and length.
 */
export function uploadFingerprint(query: unknown, upload: UploadSource): unknown {
  return { query, type: upload.type, length: upload.length ?? null };
}
