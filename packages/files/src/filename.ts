// A file's name made safe to store and to hand back in a download (docs/files.md, "The name").

/** The most bytes of UTF-8 a name may take: what common file systems allow. */
const MAX_NAME_BYTES = 255;
/** A longer "extension" is part of the name, not an extension worth keeping whole. */
const MAX_EXTENSION_BYTES = 32;

/**
 * Characters no name keeps: C0 and C1 controls (and DEL), those Windows forbids in a name, and the
 * bidirectional controls that make "evil\u202Etxt.exe" read as "evilexe.txt".
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LEADING = /^[.\s]+/;
const TRAILING = /[.\s]+$/;
/** Device names Windows opens instead of a file, with any extension (superscript digits too). */
const RESERVED = /^(?:con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(?:\s*\..*)?$/i;

const encoder = new TextEncoder();
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

const byteLength = (text: string): number => encoder.encode(text).length;

/** The longest start of `text` within `budget` bytes, cut between characters as a reader sees them. */
function cutToBytes(text: string, budget: number): string {
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = byteLength(segment);
    if (used + size > budget) break;
    kept += segment;
    used += size;
  }
  return kept;
}

/** Cuts the stem, not the extension, of a name longer than a file system takes. */
function shorten(name: string): string {
  if (byteLength(name) <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot) : '';
  const keepExtension = extension !== '' && byteLength(extension) <= MAX_EXTENSION_BYTES;
  if (!keepExtension) return cutToBytes(name, MAX_NAME_BYTES).replace(TRAILING, '');
  const stem = cutToBytes(name.slice(0, dot), MAX_NAME_BYTES - byteLength(extension));
  return stem.replace(TRAILING, '') + extension;
}

/**
 * A name safe to store and to offer for saving: its last path segment only, no control or
 * reserved characters, no leading dots or trailing dots and spaces, at most 255 bytes of UTF-8,
 * never a Windows device name, never empty.
 */
export function safeFilename(raw: string): string {
  const segments = raw.toWellFormed().normalize('NFC').split(/[/\\]/);
  const last = segments[segments.length - 1] ?? '';
  const cleaned = last.replace(UNSAFE, '_').replace(LEADING, '').replace(TRAILING, '');
  const name = shorten(cleaned);
  if (name === '') return 'file';
  return RESERVED.test(name) ? `_${name}` : name;
}

/** Bytes that RFC 5987's attr-char leaves as they are. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

/** RFC 5987 value-chars: every UTF-8 byte outside attr-char percent-encoded. */
function encodeExtValue(text: string): string {
  let out = '';
  for (const byte of encoder.encode(text)) {
    const char = String.fromCharCode(byte);
    out += ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The Content-Disposition of a download: an ASCII `filename` for old clients (anything else, and
 * quotes and backslashes, as '_') and the exact name as UTF-8 in `filename*` (RFC 6266).
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}
