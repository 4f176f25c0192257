// Files of 1 MiB through the gateway against raw GridFS on the same database, at the same
// concurrency (docs/files.md):
//
// - file-upload-1mib: the agent's `POST /v1/request/{id}/files`; the gateway checks the key and the
//   request's token, asks conversation to begin the upload, cuts the body into 255 KiB chunks
//   (five for 1 MiB: four whole, one of 4 KiB), each a bus call that conversation stores as a
//   GridFS chunk document, then commits (the file's metadata) and answers the file with a signed
//   download URL;
// - file-download-1mib: `GET` of that URL; the gateway checks the signature, asks conversation
//   for the file's record, then for each chunk in turn (one read ahead), writing each as it comes;
// - gridfs-write-1mib / gridfs-read-1mib: the mongodb driver's GridFSBucket writing and reading
//   the same 1 MiB in 255 KiB chunks, in a bucket of its own in conversation's database on the
//   stack's server: what storing the bytes costs with no gateway, bus or service on the way.
//
// Each operation moves 1 MiB, so req/s is MiB/s.
import { FILE_LIMITS } from '@handoff/contracts';
import { serviceDatabase } from '@handoff/testkit';
import { GridFSBucket, MongoClient, type ObjectId } from 'mongodb';
import { createRequest, times, type CreatedRequest } from '../fixtures/agent-api.ts';
import { FileClient, MIB, pngBytes } from '../fixtures/file-api.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import { expectedCalls, FreshPool, interleave } from '../fresh-pool.ts';
import type { Fixture, Scenario, ScenarioContext } from '../types.ts';

/** Uploads or downloads under way at once, in the scenarios and their baselines alike. */
export const FILE_CONNECTIONS = 4;
/** The size of every file these scenarios move. */
export const FILE_BYTES = MIB;
/** The raw baselines' bucket, beside conversation's own (`attachments`). */
const RAW_BUCKET = 'bench_raw';
/**
 * A generous estimate of file-upload-1mib's rate (uploads per second), for how many requests
 * setup makes. Measured on 2 cores with FerretDB/PostgreSQL: 5-11 per second (the raw GridFS
 * writes 17-21).
 */
export const UPLOAD_RATE_ESTIMATE = 100;
/**
 * The files each request takes: a conversation with a few dozen files at most, as a real one
 * (each upload's begin and commit read the request's files for its limits), far under the 100 a
 * request may have.
 */
export const FILES_PER_REQUEST = 20;
/** The files the download scenarios read in turn. */
const READ_FILES = 8;
const SETUP_CONCURRENCY = 8;

/** `count` requests made through the agent API, a few at once. */
export function makeRequests(
  ctx: ScenarioContext,
  stack: GatewayStack,
  count: number,
): Promise<CreatedRequest[]> {
  ctx.progress(`creating ${count} requests`);
  return times(count, SETUP_CONCURRENCY, () => createRequest(stack, { signal: ctx.signal }));
}

/**
 * Requests for `uploads` uploads, each taking at most the files a request may have; handed out so
 * that concurrent uploads go to different requests.
 */
function uploadTargets(requests: readonly CreatedRequest[], perRequest: number) {
  const slots = interleave(
    requests.map((request) => Array.from({ length: perRequest }, () => request)),
  );
  return new FreshPool(
    slots,
    'upload slots (requests with room for a file)',
    `${UPLOAD_RATE_ESTIMATE} uploads/s`,
  );
}

/**
 * A GridFS bucket of the bench's own in conversation's database on the stack's server, empty at
 * the start; dropped and its client closed at teardown.
 */
async function rawBucket(ctx: ScenarioContext, mongoUrl: string): Promise<GridFSBucket> {
  const client = new MongoClient(mongoUrl, {
    appName: 'handoff-bench',
    maxPoolSize: Math.max(ctx.connections, 10),
    serverSelectionTimeoutMS: 10_000,
    retryWrites: false,
  });
  ctx.teardown(() => client.close());
  await client.connect();
  const db = client.db(serviceDatabase('conversation'));
  const drop = () =>
    Promise.all(
      ['files', 'chunks'].map((kind) =>
        db
          .collection(`${RAW_BUCKET}.${kind}`)
          .drop()
          .catch(() => false),
      ),
    );
  // Registered after the close above, so it runs before it.
  ctx.teardown(drop);
  await drop();
  return new GridFSBucket(db, { bucketName: RAW_BUCKET, chunkSizeBytes: FILE_LIMITS.chunkBytes });
}

/** Writes `bytes` as one GridFS file (its chunks, then its files document); its id. */
function writeRaw(bucket: GridFSBucket, bytes: Buffer): Promise<ObjectId> {
  return new Promise((resolve, reject) => {
    const upload = bucket.openUploadStream('bench.png', { metadata: { contentType: 'image/png' } });
    upload.once('error', reject);
    upload.once('finish', () => resolve(upload.id));
    upload.end(bytes);
  });
}

/** Reads GridFS file `id` to its end; throws unless it has `size` bytes. */
async function readRaw(bucket: GridFSBucket, id: ObjectId, size: number): Promise<void> {
  let received = 0;
  for await (const piece of bucket.openDownloadStream(id)) received += (piece as Buffer).length;
  if (received !== size) throw new Error(`read ${received} bytes of GridFS, not ${size}`);
}

/** Each call: the next of `items`, round and round. */
function roundRobin<T>(items: readonly T[]): () => T {
  let next = 0;
  return () => {
    const item = items[next % items.length];
    next += 1;
    if (item === undefined) throw new Error('nothing to take in turn');
    return item;
  };
}

const common = (stack: Fixture<GatewayStack>) => ({
  connections: FILE_CONNECTIONS,
  bytesPerOperation: FILE_BYTES,
  uses: [stack],
});

export function gridfsWrite1Mib(stack: Fixture<GatewayStack>): Scenario {
  return {
    name: 'gridfs-write-1mib',
    description: `GridFSBucket.openUploadStream of 1 MiB (255 KiB chunks) into a bucket of its own in conversation's database on the shared stack's server, ${FILE_CONNECTIONS} at once; closed loop`,
    ...common(stack),
    async setup(ctx) {
      const { mongoUrl } = await ctx.use(stack);
      const bucket = await rawBucket(ctx, mongoUrl);
      const bytes = pngBytes(FILE_BYTES);
      return { kind: 'call', call: () => writeRaw(bucket, bytes) };
    },
  };
}

export function gridfsRead1Mib(stack: Fixture<GatewayStack>): Scenario {
  return {
    name: 'gridfs-read-1mib',
    description: `GridFSBucket.openDownloadStream of 1 MiB (one of ${READ_FILES} files in turn) from a bucket of its own in conversation's database on the shared stack's server, ${FILE_CONNECTIONS} at once; closed loop`,
    ...common(stack),
    async setup(ctx) {
      const { mongoUrl } = await ctx.use(stack);
      const bucket = await rawBucket(ctx, mongoUrl);
      const bytes = pngBytes(FILE_BYTES);
      const ids = await times(READ_FILES, SETUP_CONCURRENCY, () => writeRaw(bucket, bytes));
      const nextId = roundRobin(ids);
      return { kind: 'call', call: () => readRaw(bucket, nextId(), FILE_BYTES) };
    },
  };
}

export function fileUpload1Mib(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'file-upload-1mib',
    description: `gateway POST /v1/request/{id}/files of 1 MiB (image/png) with an agent key (conversation begin, 5 chunk calls, commit over NATS; GridFS chunks), ${FILE_CONNECTIONS} at once, shared full stack, LOG_LEVEL=${logLevel}; closed loop`,
    ...common(stack),
    async setup(ctx) {
      const shared = await ctx.use(stack);
      const perRequest = Math.min(FILES_PER_REQUEST, FILE_LIMITS.maxFilesPerRequest);
      const uploads = expectedCalls(UPLOAD_RATE_ESTIMATE, ctx);
      const requests = await makeRequests(
        ctx,
        shared,
        Math.max(ctx.connections, Math.ceil(uploads / perRequest)),
      );
      const targets = uploadTargets(requests, perRequest);
      const client = new FileClient(shared, ctx.connections);
      ctx.teardown(() => client.close());
      const bytes = pngBytes(FILE_BYTES);
      return { kind: 'call', call: () => client.upload(targets.take(), bytes) };
    },
  };
}

export function fileDownload1Mib(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'file-download-1mib',
    description: `gateway GET of a file's signed download_url (1 MiB, one of ${READ_FILES} in turn; conversation's record, then 5 chunk reads over NATS), ${FILE_CONNECTIONS} at once, shared full stack, LOG_LEVEL=${logLevel}; closed loop`,
    ...common(stack),
    async setup(ctx) {
      const shared = await ctx.use(stack);
      const [request] = await makeRequests(ctx, shared, 1);
      if (request === undefined) throw new Error('no request was made');
      const client = new FileClient(shared, ctx.connections);
      ctx.teardown(() => client.close());
      const bytes = pngBytes(FILE_BYTES);
      const files = await times(READ_FILES, 1, () => client.upload(request, bytes));
      const nextPath = roundRobin(files.map((file) => file.downloadPath));
      return { kind: 'call', call: () => client.download(nextPath(), FILE_BYTES) };
    },
  };
}
