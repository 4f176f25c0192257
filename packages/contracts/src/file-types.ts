// The types and limits of files (docs/files.md), apart from the schemas (no zod here), so that a
// web app that checks a file before sending it bundles only these.

/**
 * The types a file may be, as its bytes show them (the declared `Content-Type` only has to agree).
 * Nothing a browser would run: no HTML, SVG or script, whatever the file's name says.
 */
export const FILE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/gzip',
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
  // Bytes of no known type that are not text either (a drawing, a video): only ever served as an
  // attachment, with nosniff and a sandboxing CSP. Executables, HTML, SVG and scripts are
  // recognised and refused, whatever is declared.
  'application/octet-stream',
] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** The defaults of the owning services' limits (`FILES_*`); capabilities publish the ones in force. */
export const FILE_LIMITS = {
  /** The largest file, in bytes (FILES_MAX_FILE_BYTES). */
  maxFileBytes: 100 * 1024 * 1024,
  /** All files of one request together, per owning service (FILES_MAX_REQUEST_BYTES). */
  maxRequestBytes: 1024 * 1024 * 1024,
  /** Files of one request, per owning service (FILES_MAX_PER_REQUEST). */
  maxFilesPerRequest: 100,
  /** Attachments of one message or deliverable. */
  maxAttachments: 10,
  /** How long a download URL works, in seconds (the gateway's FILE_URL_TTL_SECONDS). */
  downloadUrlTtlSeconds: 900,
  /**
   * The bytes of one stored chunk: GridFS's default (255 KiB), under NATS's 1 MiB message limit,
   * so that one chunk crosses the bus as one message.
   */
  chunkBytes: 255 * 1024,
} as const;
