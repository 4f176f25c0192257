// A file's bytes answered to its download URL: from the owning service one chunk per bus call,
// written as the client takes them (a chunk read ahead, no more), one byte range at most, with
// the headers that keep a browser from running or sniffing what it receives.
import { FILE_LIMITS, type FileAccessRecord } from '@handoff/contracts';
import { contentDisposition } from '@handoff/files/checks';
import type { Request, Response } from 'express';
import { HttpError } from '../http/errors.ts';

const TEXT = /^text\/|^application\/json$/;

/** The headers of every answer with a file's bytes (and of its 304). */
export const DOWNLOAD_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'",
  'Accept-Ranges': 'bytes',
} as const;

type Range = { start: number; end: number } | 'unsatisfiable' | undefined;

/**
 * The one byte range `header` asks of `size` bytes (RFC 9110 §14.1.2): undefined for the whole
 * file (no header, a malformed one, several ranges, or an `If-Range` that no longer matches).
 */
export function rangeOf(header: string | undefined, size: number, ifRangeMatches: boolean): Range {
  if (header === undefined || !ifRangeMatches) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

export interface FileToSend {
  record: FileAccessRecord;
  /** Chunk `n` of the file, from the service that keeps it. */
  read(n: number): Promise<Uint8Array>;
  /** When the URL that asked stops working: no cache keeps the file longer. */
  expiresAt: Date;
}

export async function sendFile(req: Request, res: Response, file: FileToSend): Promise<void> {
  const { record } = file;
  const etag = `"${record.sha256}"`;
  const maxAge = Math.max(0, Math.floor((file.expiresAt.getTime() - Date.now()) / 1_000));
  res.set({
    ...DOWNLOAD_HEADERS,
    ETag: etag,
    'Cache-Control': `private, max-age=${maxAge}`,
  });
  if (
    req
      .get('if-none-match')
      ?.split(',')
      .some((tag) => tag.trim() === etag)
  ) {
    res.status(304).end();
    return;
  }
  const ifRange = req.get('if-range');
  const range = rangeOf(req.get('range'), record.size, ifRange === undefined || ifRange === etag);
  if (range === 'unsatisfiable') {
    throw new HttpError('range_not_satisfiable', `The file has ${record.size} bytes.`, {
      headers: { 'Content-Range': `bytes */${record.size}` },
    });
  }
  const { start, end } = range ?? { start: 0, end: record.size - 1 };
  res.set({
    'Content-Type': TEXT.test(record.content_type)
      ? `${record.content_type}; charset=utf-8`
      : record.content_type,
    'Content-Disposition': contentDisposition(record.filename),
    'Content-Length': String(Math.max(0, end - start + 1)),
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${record.size}` } : {}),
  });
  res.status(range ? 206 : 200);
  if (req.method === 'HEAD' || record.size === 0) {
    res.end();
    return;
  }
  await writeRange(res, file.read, { start, end });
}

async function writeRange(
  res: Response,
  read: (n: number) => Promise<Uint8Array>,
  { start, end }: { start: number; end: number },
): Promise<void> {
  const chunkBytes = FILE_LIMITS.chunkBytes;
  const first = Math.floor(start / chunkBytes);
  const last = Math.floor(end / chunkBytes);
  let next = read(first);
  try {
    for (let n = first; n <= last; n += 1) {
      const bytes = await next;
      if (n < last) next = read(n + 1);
      const from = n === first ? start - n * chunkBytes : 0;
      const to = n === last ? end - n * chunkBytes + 1 : bytes.length;
      if (!res.write(bytes.subarray(from, to))) await drained(res);
      if (res.destroyed) return;
    }
    res.end();
  } catch (error) {
    // The headers are gone: a cut connection is the only way left to say the bytes are not whole.
    next.catch(() => undefined);
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
