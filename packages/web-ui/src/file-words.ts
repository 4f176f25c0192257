// How both apps speak of a file: its size and its type in words people read, not bytes and
// media types.

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/**
 * A size in bytes as people read it: `0 B`, `512 B`, `12 KB`, `1.4 MB` (powers of 1024, as file
 * managers count), one decimal below ten of a unit, none above.
 */
export function fileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  // 1023.6 KB rounds up to the next unit's 1.
  if (shown >= 1024 && unit < UNITS.length - 1) return `1 ${UNITS[unit + 1]}`;
  return `${shown} ${UNITS[unit]}`;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'image/webp': 'WebP image',
  'application/pdf': 'PDF',
  'application/zip': 'ZIP archive',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel spreadsheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation':
    'PowerPoint presentation',
  'application/gzip': 'gzip archive',
  'text/plain': 'Text',
  'text/csv': 'CSV table',
  'text/markdown': 'Markdown text',
  'application/json': 'JSON',
};

/** A file's type in words (`PDF`, `PNG image`); the media type itself when it has no name. */
export const fileTypeName = (contentType: string): string => TYPE_NAMES[contentType] ?? contentType;
