import type { Transport } from './client.ts';
import { problemOf, unwrap } from './errors.ts';
import type { FileObject } from './types.ts';

/**
 * A file's bytes for an upload: in memory (`Blob`, `File`, `Uint8Array`, `ArrayBuffer`), or a
 * `ReadableStream` sent as it is read. A stream is sent once and never retried (it cannot be
 * read twice); bytes in memory are retried like any other call.
 */
export type UploadBody = Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array>;

export interface UploadOptions {
  /** The file's name as the uploader's computer called it (the gateway makes it safe). */
  filename: string;
  /**
   * The declared type, which the bytes must agree with; `application/octet-stream` (the
   * default) lets the bytes decide.
   */
  contentType?: string;
  signal?: AbortSignal;
}

/** Where a download comes from: a file read from the API (its URL renewed when expired) or a URL. */
export type DownloadSource = string | Pick<FileObject, 'download_url'>;

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Sent as they are: `Range: bytes=0-99`, `If-None-Match: "<sha256>"`. */
  headers?: Record<string, string>;
}

type Post = (
  path: string,
  init: {
    params: { path: Record<string, string>; query: { filename: string }; header?: object };
    body: unknown;
    bodySerializer: (body: unknown) => unknown;
    headers: Record<string, string>;
    duplex?: 'half';
    fetch?: Transport['sendOnce'];
    signal?: AbortSignal;
  },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * The upload of a file to `path` (a request's or a milestone's `…/files`): the body is the file's
 * bytes exactly, no multipart and no base64, so nothing is held whole in memory on the way.
 */
export function uploader(transport: Pick<Transport, 'api' | 'sendOnce'>) {
  // openapi-fetch types a call by its literal path and a JSON body; an upload is neither.
  const post = transport.api.POST as unknown as Post;
  return async (
    path: string,
    ids: Record<string, string>,
    body: UploadBody,
    options: UploadOptions,
    header?: Record<string, string>,
  ): Promise<FileObject> => {
    const streamed = body instanceof ReadableStream;
    return (await unwrap(
      post(path, {
        params: {
          path: ids,
          query: { filename: options.filename },
          ...(header ? { header } : {}),
        },
        body,
        bodySerializer: (given) => given,
        headers: { 'Content-Type': options.contentType ?? 'application/octet-stream' },
        // A stream body needs `duplex: 'half'` (fetch's rule) and must not be retried.
        ...(streamed ? { duplex: 'half' as const, fetch: transport.sendOnce } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    )) as FileObject;
  };
}

/** Whether a download failed because its URL expired or was altered (read the file again). */
const isInvalidUrl = async (response: Response) => {
  if (response.status !== 403) return false;
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return body.code === 'download_url_invalid';
  } catch {
    return false;
  }
};

async function failed(response: Response): Promise<never> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not a problem body (a proxy's page): its text is the detail.
  }
  throw problemOf(response, body);
}

/**
 * Downloads by a signed URL, without credentials (the URL is the capability). Given the file
 * rather than a bare URL, a URL that has expired or been altered (403 `download_url_invalid`)
 * is renewed once with `reread`. `download` answers the `Response` with its body unread (200,
 * 206 for a range, 304 for a matching `If-None-Match`), `bytes` the body; a failure is a
 * `HandoffError`.
 */
export function downloads<O extends DownloadOptions>(
  plain: Transport['plain'],
  reread: (file: FileObject, opts: O | undefined) => Promise<Pick<FileObject, 'download_url'>>,
) {
  const get = (url: string, options: DownloadOptions = {}) =>
    plain(
      new Request(url, {
        headers: options.headers ?? {},
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    );
  const download = async (source: DownloadSource | FileObject, opts?: O): Promise<Response> => {
    let response = await get(typeof source === 'string' ? source : source.download_url, opts);
    if (typeof source === 'object' && 'request_id' in source && (await isInvalidUrl(response))) {
      await response.body?.cancel();
      response = await get((await reread(source, opts)).download_url, opts);
    }
    if (!response.ok && response.status !== 304) await failed(response);
    return response;
  };
  return {
    download,
    bytes: async (source: DownloadSource | FileObject, opts?: O): Promise<Uint8Array> =>
      new Uint8Array(await (await download(source, opts)).arrayBuffer()),
  };
}
