// One conformance suite for every FileStore: GridFS on the worker's real MongoDB-wire server, and
// the S3 store on the worker's real S3-compatible server (versitygw, objects as files on disk).
import { FILE_LIMITS, newId } from '@handoff/contracts';
import { freshDatabase, s3Env } from '@handoff/testkit';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MongoClient } from 'mongodb';
import { createHash, randomBytes } from 'node:crypto';
import { createGridFsStore } from '../src/gridfs.ts';
import { createS3FileStore, type S3StoreOptions } from '../src/s3.ts';
import type { FileStore } from '../src/store.ts';

interface Opened {
  store: FileStore;
  close(): Promise<void>;
}

async function openGridFs(): Promise<Opened> {
  const { url, database } = freshDatabase('files-store');
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5_000 });
  const store = createGridFsStore({ db: client.db(database), bucket: 'attachments' });
  return {
    store,
    close: async () => {
      await client.db(database).dropDatabase();
      await client.close();
    },
  };
}

/** The S3 store's options for this worker's server, in a bucket of its own. */
function s3Options(overrides: Partial<S3StoreOptions> = {}): S3StoreOptions {
  const env = s3Env('files-store');
  return {
    endpoint: env.FILES_S3_ENDPOINT,
    region: env.FILES_S3_REGION ?? 'us-east-1',
    bucket: env.FILES_S3_BUCKET ?? '',
    prefix: 'stack-a/attachments/',
    accessKeyId: env.FILES_S3_ACCESS_KEY_ID,
    secretAccessKey: env.FILES_S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
    ...overrides,
  };
}

async function openS3(): Promise<Opened> {
  const store = createS3FileStore(s3Options());
  return { store, close: async () => store.close() };
}

const fileId = () => newId('file');
const hex = (bytes: Uint8Array | undefined) =>
  bytes === undefined
    ? undefined
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
const digest = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : createHash('sha256').update(bytes).digest('hex');

/** Runs `task` on each of `items`, at most `width` at a time. */
async function inBatches<T>(items: T[], width: number, task: (item: T) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += width) {
    await Promise.all(items.slice(start, start + width).map(task));
  }
}

describe.each([
  { name: 'GridFS (the service database)', open: openGridFs },
  { name: 'an S3-compatible store (versitygw)', open: openS3 },
])('the file store on $name', ({ open }) => {
  let opened: Opened;
  let store: FileStore;

  beforeAll(async () => {
    opened = await open();
    store = opened.store;
    await store.prepare();
  });

  afterAll(async () => {
    await opened?.close();
  });

  it('prepare is safe to run again, from several replicas at once', async () => {
    await Promise.all([store.prepare(), store.prepare(), store.prepare()]);
    const id = fileId();
    await store.putChunk(id, 0, Buffer.from('still works'));
    expect(hex(await store.readChunk(id, 0))).toBe(Buffer.from('still works').toString('hex'));
  });

  it('reads back a stored chunk byte for byte', async () => {
    const id = fileId();
    const data = new Uint8Array([0, 1, 2, 253, 254, 255, 10, 13, 0]);
    await store.putChunk(id, 0, data);
    const read = await store.readChunk(id, 0);
    expect(read).toBeInstanceOf(Uint8Array);
    expect(hex(read)).toBe(hex(data));
    expect(await store.countChunks(id)).toBe(1);
  });

  it('storing a chunk again replaces it, as a retried call does', async () => {
    const id = fileId();
    await store.putChunk(id, 0, Buffer.from('the first, longer version of chunk zero'));
    await store.putChunk(id, 0, Buffer.from('second'));
    expect(Buffer.from((await store.readChunk(id, 0)) ?? []).toString()).toBe('second');
    expect(await store.countChunks(id)).toBe(1);
  });

  it('counts and reads chunks that arrived out of order and at once', async () => {
    const id = fileId();
    const order = [4, 0, 7, 2, 1, 6, 3, 5, 9, 8];
    await Promise.all(order.map((n) => store.putChunk(id, n, Buffer.from(`chunk ${n}`))));
    expect(await store.countChunks(id)).toBe(10);
    for (let n = 0; n < 10; n += 1) {
      expect(Buffer.from((await store.readChunk(id, n)) ?? []).toString()).toBe(`chunk ${n}`);
    }
  });

  it('keeps an empty chunk (0 bytes) as a chunk, not as a missing one', async () => {
    const id = fileId();
    await store.putChunk(id, 0, new Uint8Array(0));
    const read = await store.readChunk(id, 0);
    expect(read).toBeInstanceOf(Uint8Array);
    expect(read?.byteLength).toBe(0);
    expect(await store.countChunks(id)).toBe(1);
  });

  it('keeps a whole 255 KiB chunk intact', async () => {
    const id = fileId();
    const data = randomBytes(FILE_LIMITS.chunkBytes);
    expect(data.byteLength).toBe(255 * 1024);
    await store.putChunk(id, 0, data);
    await store.putChunk(id, 1, data.subarray(0, 1_000));
    const read = await store.readChunk(id, 0);
    expect(read?.byteLength).toBe(255 * 1024);
    expect(digest(read)).toBe(digest(data));
    expect(digest(await store.readChunk(id, 1))).toBe(digest(data.subarray(0, 1_000)));
  });

  it('reads a chunk never stored as undefined, of a known file or an unknown one', async () => {
    const id = fileId();
    await store.putChunk(id, 0, Buffer.from('zero'));
    expect(await store.readChunk(id, 1)).toBeUndefined();
    expect(await store.readChunk(fileId(), 0)).toBeUndefined();
    expect(await store.countChunks(fileId())).toBe(0);
  });

  it('remove deletes every chunk of a file', async () => {
    const id = fileId();
    await Promise.all([0, 1, 2].map((n) => store.putChunk(id, n, Buffer.from(`chunk ${n}`))));
    expect(await store.countChunks(id)).toBe(3);
    await store.remove(id);
    expect(await store.countChunks(id)).toBe(0);
    for (const n of [0, 1, 2]) expect(await store.readChunk(id, n)).toBeUndefined();
  });

  it('removing a file that has no chunks (or was removed already) is no error', async () => {
    const id = fileId();
    await expect(store.remove(id)).resolves.toBeUndefined();
    await store.putChunk(id, 0, Buffer.from('once'));
    await store.remove(id);
    await expect(store.remove(id)).resolves.toBeUndefined();
    expect(await store.countChunks(id)).toBe(0);
  });

  it("two files never see each other's chunks, even when one id begins with the other", async () => {
    const first = fileId();
    const second = `${first}0`;
    await store.putChunk(first, 0, Buffer.from('first 0'));
    await store.putChunk(first, 1, Buffer.from('first 1'));
    await store.putChunk(second, 0, Buffer.from('second 0'));
    expect(await store.countChunks(first)).toBe(2);
    expect(await store.countChunks(second)).toBe(1);
    expect(Buffer.from((await store.readChunk(second, 0)) ?? []).toString()).toBe('second 0');
    expect(await store.readChunk(second, 1)).toBeUndefined();
    await store.remove(first);
    expect(await store.countChunks(first)).toBe(0);
    expect(await store.countChunks(second)).toBe(1);
    expect(Buffer.from((await store.readChunk(second, 0)) ?? []).toString()).toBe('second 0');
  });

  it('counts and removes a file of more chunks than one listing page holds (1,001)', async () => {
    const id = fileId();
    const numbers = Array.from({ length: 1_001 }, (_, n) => n);
    await inBatches(numbers, 25, (n) => store.putChunk(id, n, Buffer.from([n % 256])));
    expect(await store.countChunks(id)).toBe(1_001);
    expect(hex(await store.readChunk(id, 1_000))).toBe(hex(Buffer.from([1_000 % 256])));
    await store.remove(id);
    expect(await store.countChunks(id)).toBe(0);
  });
});

describe('the S3 store against a real S3-compatible server', () => {
  it('prepare creates its bucket when it does not exist yet', async () => {
    const store = createS3FileStore(s3Options());
    try {
      const id = fileId();
      // Before prepare, the bucket is not there: the write fails rather than vanishing.
      await expect(store.putChunk(id, 0, Buffer.from('early'))).rejects.toThrow(/bucket/i);
      await store.prepare();
      await store.putChunk(id, 0, Buffer.from('after'));
      expect(Buffer.from((await store.readChunk(id, 0)) ?? []).toString()).toBe('after');
    } finally {
      store.close();
    }
  });

  it('keeps each prefix to itself: two stacks may share one bucket', async () => {
    const options = s3Options();
    const a = createS3FileStore(options);
    const b = createS3FileStore({ ...options, prefix: 'stack-b/attachments/' });
    try {
      await a.prepare();
      await b.prepare();
      const id = fileId();
      await a.putChunk(id, 0, Buffer.from('a'));
      expect(await b.countChunks(id)).toBe(0);
      expect(await b.readChunk(id, 0)).toBeUndefined();
      await b.remove(id);
      expect(await a.countChunks(id)).toBe(1);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a wrong secret is refused by the server, never read as a missing chunk', async () => {
    const options = s3Options();
    const good = createS3FileStore(options);
    const wrong = createS3FileStore({ ...options, secretAccessKey: 'not-the-secret' });
    try {
      await good.prepare();
      const id = fileId();
      await good.putChunk(id, 0, Buffer.from('secret'));
      await expect(wrong.readChunk(id, 0)).rejects.toThrow(/signature/i);
      await expect(wrong.countChunks(id)).rejects.toThrow(/signature/i);
      await expect(wrong.putChunk(id, 0, Buffer.from('overwritten'))).rejects.toThrow(/signature/i);
      expect(Buffer.from((await good.readChunk(id, 0)) ?? []).toString()).toBe('secret');
    } finally {
      good.close();
      wrong.close();
    }
  });

  it('refuses chunk numbers and ids that would break the key layout', async () => {
    const store = createS3FileStore(s3Options());
    try {
      await expect(store.putChunk('file_a/b', 0, Buffer.from('x'))).rejects.toThrow(RangeError);
      await expect(store.putChunk(fileId(), -1, Buffer.from('x'))).rejects.toThrow(RangeError);
      await expect(store.readChunk('', 0)).rejects.toThrow(RangeError);
    } finally {
      store.close();
    }
  });
});
