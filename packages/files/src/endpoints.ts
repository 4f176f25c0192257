// The bus operations of files in a service that owns them (file-ops.ts): an upload's claim, its
// chunks and commit, reads, and the sweep of uploads cut short. The gateway streams the bytes
// through, computes the digest and checks the type; the service keeps the bytes and the limits.
import { BusError, implement, implementBytes, type Endpoint } from '@handoff/bus';
import {
  FILE_LIMITS,
  newId,
  type FileOpsOf,
  type UploadStart,
  type UploadStarted,
} from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { isDuplicateKey, type Store } from '@handoff/store';
import type { z } from 'zod';
import { catalogOf, recordOf, type Catalog, type FileDoc, type FileOwner } from './catalog.ts';
import type { FileStore } from './store.ts';

export interface FileLimits {
  maxFileBytes: number;
  maxRequestBytes: number;
  maxPerRequest: number;
}

export interface FileServiceDeps {
  catalog: Catalog;
  store: FileStore;
  /**
   * The service database's per-document serializer (@handoff/store): a request's usage is counted
   * by a conditional update, which FerretDB does not apply atomically (serialize.ts).
   */
  serialize: Store['serialize'];
  limits: FileLimits;
  logger: Logger;
}

export interface FileEndpointOptions<B extends z.ZodType> {
  ops: FileOpsOf<B>;
  /**
   * Whose the upload is: the service checks the parent is the caller's (a provider's milestone)
   * and names its request; a refusal is thrown as the parent's own not-found or conflict.
   */
  ownerOf(input: z.output<B>): Promise<FileOwner>;
}

const chunkBytes = FILE_LIMITS.chunkBytes;

export function fileEndpoints<B extends z.ZodType>(
  deps: FileServiceDeps,
  options: FileEndpointOptions<B>,
): Record<string, Endpoint> {
  const { catalog, store, limits } = deps;
  const { ops } = options;
  const notFound = (id: string) => new BusError('file_not_found', `no file ${id}`);

  return {
    ...implement(ops.begin, async (input): Promise<z.input<typeof UploadStarted>> => {
      const begin = input as z.output<B> & z.output<typeof UploadStart>;
      const owner = await options.ownerOf(begin);
      const used = (await catalog.usage.findOne({ _id: owner.request_id })) ?? NONE_USED;
      if (used.count >= limits.maxPerRequest) {
        throw new BusError('limit_reached', 'the request has the most files it may have', {
          details: { limit: limits.maxPerRequest },
        });
      }
      const maxBytes = Math.max(
        0,
        Math.min(limits.maxFileBytes, limits.maxRequestBytes - used.bytes),
      );
      if (begin.declared_length !== undefined && begin.declared_length > maxBytes) {
        throw tooLarge(maxBytes);
      }
      const id = newId('file');
      await catalog.uploads.insertOne({
        _id: id,
        ...owner,
        filename: begin.filename,
        max_bytes: maxBytes,
        started_at: new Date(),
      });
      return {
        file_id: id,
        request_id: owner.request_id,
        chunk_bytes: chunkBytes,
        max_bytes: maxBytes,
      };
    }),

    ...implementBytes(ops.chunk, async ({ file_id, n }, data) => {
      if (data.length > chunkBytes) {
        throw new BusError('validation_failed', `a chunk is at most ${chunkBytes} bytes`);
      }
      // A copy: the message's buffer is the bus client's, and the write outlives this call.
      await store.putChunk(file_id, n, Buffer.from(data));
      return new Uint8Array(0);
    }),

    ...implement(ops.commit, async (input) => {
      const upload = await catalog.uploads.findOne({ _id: input.file_id });
      if (!upload) throw notFound(input.file_id);
      // The gateway commits once every chunk's call was answered (each one stored): the last one
      // being there is the check, one lookup rather than a count that reads them all back.
      const expected = Math.ceil(input.size / chunkBytes);
      const whole =
        input.chunks === expected &&
        input.size <= upload.max_bytes &&
        (expected === 0 || (await store.hasChunk(input.file_id, expected - 1)));
      if (!whole) {
        await discard(deps, input.file_id);
        throw new BusError('validation_failed', `the upload is not the ${expected} chunks it says`);
      }
      // Counted before the file exists, in one conditional write: two uploads of the same request
      // committing at once cannot both pass the limits (a crash right after counts a file that
      // never was: the request is short of its total by it, never over).
      const refusal = await count(deps, upload.request_id, input.size);
      if (refusal) {
        await discard(deps, input.file_id);
        throw refusal;
      }
      const { _id, filename } = upload;
      const doc: FileDoc = {
        _id,
        length: input.size,
        chunkSize: chunkBytes,
        uploadDate: new Date(),
        filename,
        metadata: {
          ...ownerOf(upload),
          content_type: input.content_type,
          sha256: input.sha256,
        },
      };
      await catalog.files.insertOne(doc);
      // Left behind by a crash here, the upload's record is only removed by the sweep, which
      // keeps the chunks of a file that was committed.
      await catalog.uploads.deleteOne({ _id });
      return recordOf(doc);
    }),

    ...implement(ops.abort, async ({ file_id }) => {
      // Only an upload under way: a committed file is never removed this way.
      if (await catalog.uploads.findOne({ _id: file_id })) await discard(deps, file_id);
      return {};
    }),

    ...implement(ops.get, async ({ file_id }) => {
      const doc = await catalog.files.findOne({ _id: file_id });
      if (!doc) throw notFound(file_id);
      return recordOf(doc);
    }),

    ...implement(ops.list, async ({ request_id }) => {
      const docs = await catalog.files
        .find({ 'metadata.request_id': request_id })
        .sort({ uploadDate: -1 })
        .limit(limits.maxPerRequest)
        .toArray();
      return { data: docs.map(recordOf) };
    }),

    ...implementBytes(ops.read, async ({ file_id, n }) => {
      const data = await store.readChunk(file_id, n);
      if (data === undefined) throw notFound(file_id);
      return data;
    }),

    ...implement(ops.sweep, async ({ older_than_ms }) => ({
      removed: await sweepUploads(deps, older_than_ms),
    })),
  };
}

/** Whose an upload is, as its file keeps it. */
function ownerOf(upload: FileOwner): FileOwner {
  return {
    request_id: upload.request_id,
    purpose: upload.purpose,
    uploaded_by: upload.uploaded_by,
    ...(upload.integration_id === undefined ? {} : { integration_id: upload.integration_id }),
    ...(upload.milestone_id === undefined ? {} : { milestone_id: upload.milestone_id }),
    ...(upload.provider_id === undefined ? {} : { provider_id: upload.provider_id }),
  };
}

function tooLarge(limit: number): BusError {
  return new BusError('file_too_large', `the file may have at most ${limit} bytes`, {
    details: { limit },
  });
}

const NONE_USED = { count: 0, bytes: 0 };

/**
 * Counts a file of `size` bytes to its request if the request's limits allow it; the refusal
 * otherwise. The conditional update matches only a request with room; one without any file yet
 * is inserted by the upsert, and one without room makes the upsert's insert collide with it.
 */
async function count(
  deps: FileServiceDeps,
  requestId: string,
  size: number,
): Promise<BusError | undefined> {
  const { catalog, limits } = deps;
  try {
    await deps.serialize(catalog.usage, requestId, () =>
      catalog.usage.updateOne(
        {
          _id: requestId,
          count: { $lt: limits.maxPerRequest },
          bytes: { $lte: limits.maxRequestBytes - size },
        },
        { $inc: { count: 1, bytes: size } },
        { upsert: true },
      ),
    );
    return undefined;
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  const used = (await catalog.usage.findOne({ _id: requestId })) ?? NONE_USED;
  if (used.count >= limits.maxPerRequest) {
    return new BusError('limit_reached', 'the request has the most files it may have', {
      details: { limit: limits.maxPerRequest },
    });
  }
  return tooLarge(Math.max(0, limits.maxRequestBytes - used.bytes));
}

/** Removes an upload's chunks, then its record: a sweep cut short finds the record again. */
async function discard(deps: FileServiceDeps, id: string): Promise<void> {
  await deps.store.remove(id);
  await deps.catalog.uploads.deleteOne({ _id: id });
}

/**
 * Removes the uploads started longer than `olderThanMs` ago and never committed, with their
 * chunks. One committed but whose record a crash left keeps its chunks: only the record goes.
 */
export async function sweepUploads(deps: FileServiceDeps, olderThanMs: number): Promise<number> {
  const cutoff = new Date(Date.now() - olderThanMs);
  const stale = await deps.catalog.uploads
    .find({ started_at: { $lte: cutoff } }, { projection: { _id: 1 } })
    .limit(1_000)
    .toArray();
  let removed = 0;
  for (const { _id } of stale) {
    if (await deps.catalog.files.findOne({ _id }, { projection: { _id: 1 } })) {
      await deps.catalog.uploads.deleteOne({ _id });
      continue;
    }
    await discard(deps, _id);
    removed += 1;
  }
  if (removed > 0) deps.logger.info({ removed }, 'unfinished uploads removed');
  return removed;
}

/** Deletes every file of the given requests, bytes first (a purge of a request's data). */
export async function removeRequestFiles(
  deps: Pick<FileServiceDeps, 'catalog' | 'store'>,
  requestIds: readonly string[],
): Promise<number> {
  let removed = 0;
  for (const requestId of requestIds) {
    const filter = { 'metadata.request_id': requestId };
    const docs = await deps.catalog.files.find(filter, { projection: { _id: 1 } }).toArray();
    for (const { _id } of docs) await deps.store.remove(_id);
    await deps.catalog.files.deleteMany(filter);
    const uploads = await deps.catalog.uploads
      .find({ request_id: requestId }, { projection: { _id: 1 } })
      .toArray();
    for (const { _id } of uploads) await deps.store.remove(_id);
    await deps.catalog.uploads.deleteMany({ request_id: requestId });
    await deps.catalog.usage.deleteOne({ _id: requestId });
    removed += docs.length;
  }
  return removed;
}

export { catalogOf };
