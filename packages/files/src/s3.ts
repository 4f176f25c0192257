// The store for an S3-compatible object store (AWS S3, or any server that speaks its API): one
// object per chunk, `<prefix><id>/<n, six digits>`, so a chunk arriving twice from any replica
// simply overwrites itself, and a file's chunks are listed and deleted by their common prefix.
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
  type BucketLocationConstraint,
} from '@aws-sdk/client-s3';
import type { FileStore } from './store.ts';

export interface S3StoreOptions {
  /** An S3-compatible server's URL; unset: AWS's own endpoint for `region`. */
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  /** Prepended to every key: several services or stacks can share one bucket. */
  prefix: string;
  /** Both or neither; neither: the SDK's default chain (IAM role, web identity, AWS_*). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** `endpoint/bucket/key` addressing, which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** The largest chunk accepted, when given: a guard against a caller's wrong chunking. */
  chunkBytes?: number | undefined;
}

/** A {@link FileStore} on S3, with the client's sockets to close when its owner stops. */
export interface S3FileStore extends FileStore {
  readonly kind: 's3';
  /** Closes the client's pooled connections; the store is unusable after. */
  close(): void;
}

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1_000;
/** Wide enough to keep keys in chunk order for any file under the contracts' size limit. */
const CHUNK_DIGITS = 6;

export function createS3FileStore(options: S3StoreOptions): S3FileStore {
  const { bucket, prefix } = options;
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    ...credentialsOf(options),
    // Chunks come one bus message at a time, many at once across uploads: a pool of kept-alive
    // connections rather than a handshake per chunk.
    requestHandler: {
      httpAgent: { keepAlive: true, maxSockets: 50 },
      httpsAgent: { keepAlive: true, maxSockets: 50 },
      connectionTimeout: 5_000,
      requestTimeout: 30_000,
      throwOnRequestTimeout: true,
    },
    // The SDK's default adds CRC checksums (in trailers for streams) that many S3-compatible
    // servers reject; only where the API requires one (DeleteObjects).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const folder = (id: string) => {
    // A `/` in an id would put one file's chunks inside another's folder.
    if (id.length === 0 || id.includes('/')) throw new RangeError(`not a file id: ${id}`);
    return `${prefix}${id}/`;
  };
  const keyOf = (id: string, n: number) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a chunk number: ${n}`);
    return `${folder(id)}${String(n).padStart(CHUNK_DIGITS, '0')}`;
  };
  const keysOf = async (id: string): Promise<string[]> => {
    const keys: string[] = [];
    const pages = paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: folder(id) });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    }
    return keys;
  };

  return {
    kind: 's3',
    async prepare() {
      if (await bucketExists(client, bucket)) return;
      try {
        await client.send(
          new CreateBucketCommand({
            Bucket: bucket,
            // us-east-1 is the one region that takes no location (and rejects its own name).
            ...(options.region === 'us-east-1'
              ? {}
              : {
                  CreateBucketConfiguration: {
                    LocationConstraint: options.region as BucketLocationConstraint,
                  },
                }),
          }),
        );
      } catch (error) {
        // Another replica created it between our look and our create.
        if (!isS3Error(error, 'BucketAlreadyOwnedByYou')) throw error;
      }
    },
    async putChunk(id, n, data) {
      if (options.chunkBytes !== undefined && data.byteLength > options.chunkBytes) {
        throw new RangeError(
          `chunk ${n} of ${id} has ${data.byteLength} bytes, over ${options.chunkBytes}`,
        );
      }
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: keyOf(id, n),
          Body: data,
          ContentLength: data.byteLength,
          ContentType: 'application/octet-stream',
        }),
      );
    },
    async readChunk(id, n) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: keyOf(id, n) }),
        );
        if (!object.Body) return new Uint8Array(0);
        return await object.Body.transformToByteArray();
      } catch (error) {
        if (isS3Error(error, 'NoSuchKey')) return undefined;
        throw error;
      }
    },
    countChunks: async (id) => (await keysOf(id)).length,
    async hasChunk(id, n) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(id, n) }));
        return true;
      } catch (error) {
        if (isS3Error(error, 'NotFound') || isS3Error(error, 'NoSuchKey')) return false;
        throw error;
      }
    },
    async remove(id) {
      const keys = await keysOf(id);
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const batch = keys.slice(start, start + DELETE_BATCH);
        const result = await client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        // DeleteObjects answers 200 with the keys it could not delete listed inside.
        const failed = result.Errors ?? [];
        if (failed.length > 0) {
          const first = failed[0];
          throw new Error(
            `could not delete ${failed.length} chunk(s) of ${id}: ${first?.Code ?? 'error'} ${first?.Message ?? ''}`.trim(),
          );
        }
      }
    },
    close: () => client.destroy(),
  };
}

function credentialsOf(
  options: S3StoreOptions,
): { credentials: { accessKeyId: string; secretAccessKey: string } } | Record<string, never> {
  const { accessKeyId, secretAccessKey } = options;
  if (accessKeyId && secretAccessKey) return { credentials: { accessKeyId, secretAccessKey } };
  if (accessKeyId || secretAccessKey) {
    throw new Error('FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY go together');
  }
  return {};
}

async function bucketExists(client: S3Client, bucket: string): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (error) {
    // A HEAD answer has no body: a missing bucket is a bare 404.
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
    throw error;
  }
}

function isS3Error(error: unknown, name: string): boolean {
  return error instanceof S3ServiceException && error.name === name;
}
