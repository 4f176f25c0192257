import type { Transport } from './client.ts';
import {
  downloads,
  uploader,
  type DownloadOptions,
  type UploadBody,
  type UploadOptions,
} from './files.ts';
import type { HeadersOf, ListOption, Operations } from './operations.ts';

/**
 * The agent's files of a request (`client.requests.files`): each call sends the request's token,
 * as every call under `/v1/request/{id}` does (`O` is the agent client's `TokenOption`).
 */
export function agentFiles<O extends ListOption & { token?: string }>(
  transport: Transport,
  onRequest: Operations<[opts?: O], O>,
  tokenHeader: HeadersOf<O>,
) {
  const upload = uploader(transport);
  const get = onRequest.get('/v1/request/{id}/files/{file_id}');
  const { download, bytes } = downloads<DownloadOptions & O>(transport.plain, (file, opts) =>
    get(file.request_id, file.id, opts),
  );
  return {
    /**
     * Uploads a file into the request's conversation (the body is its bytes, streamed as it is
     * read); attach it next: `sendMessage(id, { message, attachments: [file.id] })`.
     */
    upload: (id: string, body: UploadBody, opts: UploadOptions & O) =>
      upload('/v1/request/{id}/files', { id }, body, opts, tokenHeader(id, opts)),
    /** The request's files (its conversation's and its deliverables'), each with a fresh URL. */
    list: onRequest.pages('/v1/request/{id}/files'),
    /** One file with a fresh `download_url` (it works for 15 minutes). */
    get,
    /**
     * Downloads a file: the `Response`, its body unread. Given the file (not a bare URL), an
     * expired URL (403 `download_url_invalid`) is renewed by reading the file again.
     */
    download,
    /** A file's bytes, as `download` gets them. */
    bytes,
  };
}
