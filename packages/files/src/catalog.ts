// The metadata of one service's files: `<bucket>.files` in GridFS's layout (so a GridFS reader
// finds the bytes of a committed file), `<bucket>.uploads` for uploads still under way, and
// `<bucket>.usage`, each request's count and bytes of files, which its limits are checked on. A
// file is visible only once its `.files` document exists: an upload cut short never is.
import { BusError } from '@handoff/bus';
import type { FileAccessRecord, FileMeta, FilePurpose, FileType } from '@handoff/contracts';
import type { CollectionPlan } from '@handoff/store';
import type { Collection, Db } from 'mongodb';

/** Whose a file is and what it is for; the same on an upload and on the file it becomes. */
export interface FileOwner {
  request_id: string;
  integration_id?: string;
  purpose: FilePurpose;
  milestone_id?: string;
  uploaded_by: 'agent' | 'provider';
  provider_id?: string;
}

export interface FileDoc {
  _id: string;
  length: number;
  chunkSize: number;
  uploadDate: Date;
  filename: string;
  metadata: FileOwner & { content_type: FileType; sha256: string };
}

export interface UploadDoc extends FileOwner {
  _id: string;
  filename: string;
  max_bytes: number;
  started_at: Date;
}

export function fileCollectionPlan(bucket: string): CollectionPlan {
  return {
    [`${bucket}.files`]: [
      {
        key: { 'metadata.request_id': 1, uploadDate: -1 },
        options: { name: 'request_files' },
      },
    ],
    [`${bucket}.uploads`]: [{ key: { started_at: 1 }, options: { name: 'started' } }],
    [`${bucket}.usage`]: [],
  };
}

/** What a request's committed files add up to, kept as they are committed (one lookup). */
export interface UsageDoc {
  /** The request's id. */
  _id: string;
  count: number;
  bytes: number;
}

export interface Catalog {
  files: Collection<FileDoc>;
  uploads: Collection<UploadDoc>;
  usage: Collection<UsageDoc>;
}

export function catalogOf(db: Db, bucket: string): Catalog {
  return {
    files: db.collection<FileDoc>(`${bucket}.files`),
    uploads: db.collection<UploadDoc>(`${bucket}.uploads`),
    usage: db.collection<UsageDoc>(`${bucket}.usage`),
  };
}

export function metaOf(doc: FileDoc): FileMeta {
  return {
    id: doc._id,
    filename: doc.filename,
    size: doc.length,
    content_type: doc.metadata.content_type,
    sha256: doc.metadata.sha256,
  };
}

export function recordOf(doc: FileDoc): FileAccessRecord {
  const { metadata: m } = doc;
  return {
    object: 'file',
    ...metaOf(doc),
    request_id: m.request_id,
    purpose: m.purpose,
    ...(m.milestone_id === undefined ? {} : { milestone_id: m.milestone_id }),
    uploaded_by: m.uploaded_by,
    created_at: doc.uploadDate.toISOString(),
    ...(m.integration_id === undefined ? {} : { integration_id: m.integration_id }),
    ...(m.provider_id === undefined ? {} : { provider_id: m.provider_id }),
  };
}

/** Who may attach a file: the party that uploaded it, to its request (and milestone). */
export interface Attacher {
  request_id: string;
  uploaded_by: 'agent' | 'provider';
  provider_id?: string;
  milestone_id?: string;
}

/**
 * The metadata of the files a message or deliverable attaches, in the order given: each must be
 * a committed file of the same request, uploaded by the same party (and for the same milestone);
 * any other is `file_not_found`, as a file that does not exist.
 */
export async function attachable(
  catalog: Catalog,
  ids: readonly string[],
  who: Attacher,
): Promise<FileMeta[]> {
  // One lookup by `_id` each: FerretDB answers an `$in` by reading more than it returns.
  const docs = await Promise.all(ids.map((id) => catalog.files.findOne({ _id: id })));
  return docs.map((doc, index) => {
    const m = doc?.metadata;
    const mine =
      m !== undefined &&
      m.request_id === who.request_id &&
      m.uploaded_by === who.uploaded_by &&
      m.provider_id === who.provider_id &&
      (who.milestone_id === undefined || m.milestone_id === who.milestone_id);
    if (!doc || !mine) {
      throw new BusError('file_not_found', `no file ${ids[index] ?? ''} of this request to attach`);
    }
    return metaOf(doc);
  });
}
