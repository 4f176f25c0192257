// The default store: GridFS's chunk layout in the service's own database (`<bucket>.chunks`,
// `{ files_id, n, data }` under a unique `{ files_id, n }` index), so any GridFS reader can read
// the bytes back. The chunks arrive one bus message at a time from any replica, so they are
// written one document each rather than through the driver's upload stream, which expects all
// of a file's bytes in one process.
import { isDuplicateKey } from '@handoff/store';
import { Binary, type Collection, type Db } from 'mongodb';
import type { FileStore } from './store.ts';

interface ChunkDoc {
  files_id: string;
  n: number;
  data: Binary;
}

export interface GridFsStoreOptions {
  db: Db;
  /** The bucket's name: its chunks are in `<bucket>.chunks`. */
  bucket: string;
}

export function createGridFsStore({ db, bucket }: GridFsStoreOptions): FileStore {
  const chunks: Collection<ChunkDoc> = db.collection<ChunkDoc>(`${bucket}.chunks`);
  return {
    kind: 'gridfs',
    async prepare() {
      await chunks.createIndex({ files_id: 1, n: 1 }, { unique: true });
    },
    async putChunk(id, n, data) {
      const doc = { files_id: id, n, data: new Binary(data) };
      try {
        await chunks.insertOne(doc);
      } catch (error) {
        // A retried bus call: the chunk is stored again, whole, in place of the first.
        if (!isDuplicateKey(error)) throw error;
        // Not `doc` itself: insertOne gave it an `_id`, which a replacement may not change.
        await chunks.replaceOne({ files_id: id, n }, { files_id: id, n, data: doc.data });
      }
    },
    async readChunk(id, n) {
      const doc = await chunks.findOne({ files_id: id, n }, { projection: { _id: 0, data: 1 } });
      return doc ? doc.data.buffer : undefined;
    },
    countChunks: (id) => chunks.countDocuments({ files_id: id }),
    async hasChunk(id, n) {
      return (await chunks.findOne({ files_id: id, n }, { projection: { _id: 1 } })) !== null;
    },
    async remove(id) {
      await chunks.deleteMany({ files_id: id });
    },
  };
}
