// Where a service keeps its files' bytes: one small interface, GridFS on the service's own
// database by default, an S3-compatible object store by configuration (FILES_STORE). The files'
// metadata always stays in the service's collections (files.ts); a store holds chunks only.

/**
 * The bytes of files, as numbered chunks of `chunkBytes` each (the last one shorter). Chunks
 * arrive one bus message at a time, from any replica, in any order, and may arrive twice (a
 * retried call): storing a chunk again replaces it.
 */
export interface FileStore {
  readonly kind: 'gridfs' | 's3';
  /** Stores chunk `n` of file `id`, replacing any stored before under the same number. */
  putChunk(id: string, n: number, data: Uint8Array): Promise<void>;
  /** Chunk `n` of file `id`, or `undefined` when none is stored. */
  readChunk(id: string, n: number): Promise<Uint8Array | undefined>;
  /** How many chunks of `id` are stored (reads them all on some servers: not on a hot path). */
  countChunks(id: string): Promise<number>;
  /** Whether chunk `n` of `id` is stored: one indexed lookup, without its bytes. */
  hasChunk(id: string, n: number): Promise<boolean>;
  /** Deletes every chunk of `id`; nothing stored is no error. */
  remove(id: string): Promise<void>;
  /** Creates what the store needs (indexes, a bucket) once at start; safe on every replica. */
  prepare(): Promise<void>;
}
