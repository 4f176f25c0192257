// Files: attachments of a request's conversation and a milestone's deliverables (docs/files.md).
// The bytes stay with the service that owns the file's parent (conversation, milestones); these
// are the shapes the gateway, those services and the API share.
import { z } from 'zod';
import { Timestamp } from './common.ts';
import { livemodeField } from './test-mode.ts';
import { FILE_LIMITS, FILE_TYPES } from './file-types.ts';

export * from './file-types.ts';

/** What a file is for: a message's attachment (conversation) or a deliverable's (milestones). */
export const FilePurpose = z.enum(['message_attachment', 'deliverable']);
export type FilePurpose = z.infer<typeof FilePurpose>;

export const FileUploader = z.enum(['agent', 'provider']);

/** What events, messages and deliverables carry of a file: never its bytes or a URL. */
export const FileMeta = z.object({
  id: z.string(),
  filename: z.string(),
  size: z.int().min(0),
  content_type: z.enum(FILE_TYPES),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type FileMeta = z.infer<typeof FileMeta>;

/** A stored file as its owning service keeps it (the bus's shape; the API adds the URL). */
export const FileRecord = FileMeta.extend({
  object: z.literal('file'),
  request_id: z.string(),
  purpose: FilePurpose,
  /** The milestone a deliverable's file was uploaded for. */
  milestone_id: z.string().optional(),
  uploaded_by: FileUploader,
  created_at: Timestamp,
});
export type FileRecord = z.infer<typeof FileRecord>;

/** A file as the API answers it: its record and a short-lived signed download URL. */
export const FileObject = FileRecord.extend({
  ...livemodeField,
  download_url: z.url(),
  download_url_expires_at: Timestamp,
});
export type FileObject = z.infer<typeof FileObject>;

/** The ids of files to attach to a message or a deliverable, uploaded first. */
export const FileIds = z
  .array(z.string().regex(/^file_[A-Za-z0-9]{1,64}$/, 'must be a file id (`file_…`)'))
  .max(FILE_LIMITS.maxAttachments)
  .refine((ids) => new Set(ids).size === ids.length, 'must not name a file twice')
  .meta({ uniqueItems: true });

/** The query of an upload: the file's name, as the uploader's computer called it. */
export const UploadQuery = z.strictObject({
  filename: z.string().min(1).max(1_000),
});
