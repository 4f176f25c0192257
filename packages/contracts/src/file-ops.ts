// The bus operations of files (docs/files.md), the same in each service that owns files:
// conversation (message attachments) and milestones (deliverables). The bytes cross the bus one
// chunk per message (`files.chunk`, `files.read`: the input in a header, the bytes as the body).
import { z } from 'zod';
import { FILE_TYPES } from './file-types.ts';
import { FileRecord } from './files.ts';
import { operation, type Operation } from './operation.ts';
import type { BackendService } from './services.ts';

/** What every upload says of itself before its first byte. */
export const UploadStart = z.object({
  /** Already made safe by the gateway (docs/files.md); the service stores it as it is. */
  filename: z.string().min(1).max(255),
  /** The `Content-Type` the uploader declared, without parameters; checked against the bytes. */
  declared_type: z.string().max(255),
  /** The `Content-Length`, when the upload declared one: refused at once when over the limit. */
  declared_length: z.int().min(0).optional(),
});

/** Where the upload's bytes go: the chunks' size, and how many bytes the file may have. */
export const UploadStarted = z.object({
  file_id: z.string(),
  request_id: z.string(),
  chunk_bytes: z.int().min(1),
  /** The most bytes this file may have: the per-file limit, or what the request has left. */
  max_bytes: z.int().min(0),
});

/** What the gateway learned while the bytes went through it. */
export const UploadCommit = z.object({
  file_id: z.string(),
  size: z.int().min(0),
  chunks: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  content_type: z.enum(FILE_TYPES),
});

/** A file and whose it is, for the gateway's access checks only (never answered as it is). */
export const FileAccessRecord = FileRecord.extend({
  /** The request's integration, where the owning service keeps it (conversation). */
  integration_id: z.string().optional(),
  provider_id: z.string().optional(),
});
export type FileAccessRecord = z.infer<typeof FileAccessRecord>;

export const FileChunkRef = z.object({ file_id: z.string(), n: z.int().min(0) });

/** Operations whose input travels in a header and whose body (or reply) is bytes. */
export type ByteOperation<I extends z.ZodType> = Operation<I, z.ZodType<Uint8Array>> & {
  bytes: true;
};

const bytesOf = <I extends z.ZodType>(
  service: BackendService,
  name: string,
  input: I,
): ByteOperation<I> => ({
  ...operation(service, name, input, z.instanceof(Uint8Array)),
  bytes: true,
});

function fileOpsOf<B extends z.ZodType>(service: BackendService, beginInput: B) {
  return {
    /** Claims a file id for an upload: refused when the parent is not the caller's or is full. */
    begin: operation(service, 'files.begin', beginInput, UploadStarted),
    /** Stores chunk `n` of an upload (every chunk but the last is `chunk_bytes` long). */
    chunk: bytesOf(service, 'files.chunk', FileChunkRef),
    /** Makes the upload a file, once every chunk is stored; the request's total is checked again. */
    commit: operation(service, 'files.commit', UploadCommit, FileRecord),
    /** Gives an upload up: its chunks go at once. */
    abort: operation(service, 'files.abort', z.object({ file_id: z.string() }), z.object({})),
    get: operation(service, 'files.get', z.object({ file_id: z.string() }), FileAccessRecord),
    /** A request's files, newest first (at most `FILES_MAX_PER_REQUEST`, so one page). */
    list: operation(
      service,
      'files.list',
      z.object({ request_id: z.string() }),
      z.object({ data: z.array(FileAccessRecord) }),
    ),
    /** The bytes of chunk `n` of a file. */
    read: bytesOf(service, 'files.read', FileChunkRef),
    /** Removes uploads left unfinished for longer than `older_than_ms` (also on a timer). */
    sweep: operation(
      service,
      'files.sweep',
      z.object({ older_than_ms: z.int().min(0) }),
      z.object({ removed: z.int().min(0) }),
    ),
  };
}

/** Files of a request's conversation: the agent's or the engaged provider's uploads. */
export const conversationFileOps = fileOpsOf(
  'conversation',
  UploadStart.extend({
    request_id: z.string(),
    integration_id: z.string(),
    uploaded_by: z.enum(['agent', 'provider']),
    provider_id: z.string().max(64).optional(),
  }),
);

/** Files of a milestone's deliverables: the provider's uploads, for its own milestone. */
export const deliverableFileOps = fileOpsOf(
  'milestones',
  UploadStart.extend({ milestone_id: z.string(), provider_id: z.string().max(64) }),
);

/** The file operations of a service whose uploads begin with `B`. */
export type FileOpsOf<B extends z.ZodType> = ReturnType<typeof fileOpsOf<B>>;
