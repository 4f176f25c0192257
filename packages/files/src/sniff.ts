// The type of a file from its bytes (docs/files.md, "The type, from the bytes"), decided while
// they stream: the declared Content-Type only has to agree with what the bytes show.

import { FILE_TYPES, type FileType } from '@handoff/contracts';

export type TypeVerdict =
  | { ok: true; type: FileType }
  | {
      ok: false;
      code: 'file_type_not_allowed' | 'file_type_mismatch';
      detected: string | undefined;
    };

export interface TypeCheck {
  /** Feeds the next bytes in order; answers a refusal as soon as the bytes decide one, else undefined. */
  update(chunk: Uint8Array): TypeVerdict | undefined;
  /** After the last byte: the verdict on the whole file. */
  finish(): TypeVerdict;
}

/** Enough bytes for every magic number below (WebP's is the longest: 12). */
const HEAD_BYTES = 16;
/** How much of a text file's start is searched for HTML or SVG. */
const MARKUP_WINDOW = 1024;

const TEXT_TYPES: ReadonlySet<string> = new Set<FileType>([
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
]);
const OFFICE_TYPES: ReadonlySet<string> = new Set<FileType>([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
]);
const ALLOWED: ReadonlySet<string> = new Set<string>(FILE_TYPES);

/**
 * Names browsers and systems send for an allowed type (Windows browsers declare a .zip as
 * application/x-zip-compressed): refusing them would refuse ordinary uploads for a spelling.
 */
const ALIASES: Readonly<Record<string, FileType>> = {
  'application/x-zip-compressed': 'application/zip',
  'application/x-gzip': 'application/gzip',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'text/x-markdown': 'text/markdown',
};

/** A declared type that lets the bytes decide. */
function isUndeclared(declared: string): boolean {
  return declared === '' || declared === 'application/octet-stream';
}

/** The declared media type of a Content-Type header: lower-cased, without parameters, '' when absent. */
export function declaredType(header: string | undefined): string {
  if (header === undefined) return '';
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

interface Magic {
  type: string;
  allowed: boolean;
  /** The bytes at `offset`; `undefined` in the pattern matches any byte. */
  bytes: readonly (number | undefined)[];
  offset?: number;
  /** A further condition, for a signature short enough to open an ordinary text. */
  also?: (head: Uint8Array) => boolean;
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));
const ANY = undefined;

const MAGICS: readonly Magic[] = [
  { type: 'image/png', allowed: true, bytes: [0x89, ...ascii('PNG\r\n\x1a\n')] },
  { type: 'image/jpeg', allowed: true, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', allowed: true, bytes: ascii('GIF87a') },
  { type: 'image/gif', allowed: true, bytes: ascii('GIF89a') },
  {
    type: 'image/webp',
    allowed: true,
    bytes: [...ascii('RIFF'), ANY, ANY, ANY, ANY, ...ascii('WEBP')],
  },
  { type: 'application/pdf', allowed: true, bytes: ascii('%PDF-') },
  { type: 'application/zip', allowed: true, bytes: ascii('PK\x03\x04') },
  { type: 'application/zip', allowed: true, bytes: ascii('PK\x05\x06') },
  { type: 'application/gzip', allowed: true, bytes: [0x1f, 0x8b] },
  { type: 'application/x-executable', allowed: false, bytes: ascii('\x7fELF') },
  // "MZ" may open a text; a DOS header has NUL bytes in its first fields, a text none.
  {
    type: 'application/x-msdownload',
    allowed: false,
    bytes: ascii('MZ'),
    also: (head) => head.subarray(0, HEAD_BYTES).includes(0),
  },
  { type: 'application/x-mach-binary', allowed: false, bytes: [0xfe, 0xed, 0xfa, 0xce] },
  { type: 'application/x-mach-binary', allowed: false, bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { type: 'application/x-mach-binary', allowed: false, bytes: [0xce, 0xfa, 0xed, 0xfe] },
  { type: 'application/x-mach-binary', allowed: false, bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { type: 'application/wasm', allowed: false, bytes: ascii('\0asm') },
  {
    type: 'application/x-ole-storage',
    allowed: false,
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
  },
  {
    type: 'application/x-7z-compressed',
    allowed: false,
    bytes: [...ascii('7z'), 0xbc, 0xaf, 0x27, 0x1c],
  },
  { type: 'application/vnd.rar', allowed: false, bytes: ascii('Rar!\x1a\x07') },
  { type: 'application/x-xz', allowed: false, bytes: [0xfd, ...ascii('7zXZ\0')] },
  { type: 'application/zstd', allowed: false, bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { type: 'image/tiff', allowed: false, bytes: ascii('II*\0') },
  { type: 'image/tiff', allowed: false, bytes: ascii('MM\0*') },
];

function matches(head: Uint8Array, magic: Magic): boolean {
  const offset = magic.offset ?? 0;
  if (head.length < offset + magic.bytes.length) return false;
  const same = magic.bytes.every((byte, i) => byte === undefined || head[offset + i] === byte);
  return same && (magic.also === undefined || magic.also(head));
}

/** The type a magic number at the start shows, if any. */
function detectMagic(head: Uint8Array): Magic | undefined {
  return MAGICS.find((magic) => matches(head, magic));
}

const HTML_START = /^<(?:!doctype\s+html|html|head|body|script)(?=[\s>/]|$)/;
const XML_START = /^<(?:\?xml|!--|!doctype\s+svg|svg)/;
const SVG_TAG = /<svg(?=[\s>/]|$)/;
const HTML_TAG = /<html(?=[\s>/]|$)/;

/** HTML or SVG at the start of a text, which a browser would run: the type it is, if either. */
function detectMarkup(start: string): string | undefined {
  const text = start.trimStart().toLowerCase();
  if (HTML_START.test(text)) return 'text/html';
  if (!XML_START.test(text)) return undefined;
  if (SVG_TAG.test(text)) return 'image/svg+xml';
  if (HTML_TAG.test(text)) return 'text/html';
  return undefined;
}

/** Control characters that no text has (a tab, line feed, form feed and carriage return do). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f]/;

/**
 * Whether bytes fed in order are UTF-8 text; keeps the decoded start for `detectMarkup`.
 * Decoding and one regex per chunk keep the per-byte work in native code.
 */
class TextScan {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private start = '';
  private markupRead = false;
  ok = true;

  feed(bytes: Uint8Array): boolean {
    if (this.ok) this.ok = this.accept(() => this.decoder.decode(bytes, { stream: true }));
    return this.ok;
  }

  end(): boolean {
    if (this.ok) this.ok = this.accept(() => this.decoder.decode());
    return this.ok;
  }

  /** The markup type, read once: when the window is full or the text has ended. */
  markup(ended: boolean): string | undefined {
    if (this.markupRead || (!ended && this.start.length < MARKUP_WINDOW)) return undefined;
    this.markupRead = true;
    return detectMarkup(this.start);
  }

  private accept(decode: () => string): boolean {
    let text: string;
    try {
      text = decode();
    } catch {
      return false;
    }
    if (this.start.length < MARKUP_WINDOW) this.start += text.slice(0, MARKUP_WINDOW);
    return !CONTROL.test(text);
  }
}

const accepted = (type: FileType): TypeVerdict => ({ ok: true, type });
const notAllowed = (detected: string | undefined): TypeVerdict => ({
  ok: false,
  code: 'file_type_not_allowed',
  detected,
});
const mismatch = (detected: string | undefined): TypeVerdict => ({
  ok: false,
  code: 'file_type_mismatch',
  detected,
});

/** The verdict on bytes of a known binary type. */
function judgeMagic(declared: string, magic: Magic): TypeVerdict {
  if (!magic.allowed) return notAllowed(magic.type);
  const type = magic.type as FileType;
  if (isUndeclared(declared) || declared === type) return accepted(type);
  // The Office formats are ZIPs: the declared one is taken for the ZIP it is.
  const office = type === 'application/zip' && OFFICE_TYPES.has(declared);
  return office ? accepted(declared as FileType) : mismatch(type);
}

/** The verdict on text that is not HTML or SVG. */
function judgeText(declared: string): TypeVerdict {
  if (isUndeclared(declared)) return accepted('text/plain');
  if (TEXT_TYPES.has(declared)) return accepted(declared as FileType);
  return mismatch('text/plain');
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * The check, in three stages: the first bytes are held until a magic number can be read; then
 * either the type is decided (a binary type: later chunks are not looked at) or the bytes are
 * scanned as text to the end. A declared binary type whose magic number is absent is refused on
 * the bytes seen so far, so that a client lying about a large file learns it before sending it.
 */
class TypeChecker implements TypeCheck {
  private head: Uint8Array[] = [];
  private headLength = 0;
  private verdict: TypeVerdict | undefined;
  private text: TextScan | undefined;

  private readonly declared: string;

  constructor(declared: string) {
    this.declared = declared;
    if (!isUndeclared(declared) && !ALLOWED.has(declared)) this.verdict = notAllowed(undefined);
  }

  update(chunk: Uint8Array): TypeVerdict | undefined {
    if (this.verdict === undefined && chunk.length > 0) this.take(chunk);
    return this.verdict?.ok === false ? this.verdict : undefined;
  }

  finish(): TypeVerdict {
    if (this.verdict !== undefined) return this.verdict;
    if (this.text === undefined) {
      if (this.headLength === 0) return this.emptyFile();
      this.readHead(true);
      if (this.verdict !== undefined) return this.verdict;
    }
    return this.endText(true);
  }

  private take(chunk: Uint8Array): void {
    if (this.text !== undefined) {
      this.scanText(chunk);
      return;
    }
    this.headLength += chunk.length;
    // A held chunk is copied: the caller may reuse its buffer once update returns.
    this.head.push(this.headLength < HEAD_BYTES ? chunk.slice() : chunk);
    if (this.headLength >= HEAD_BYTES) this.readHead(false);
  }

  /** Decides a binary type from the held bytes, or starts scanning them as text. */
  private readHead(ended: boolean): void {
    const bytes = concat(this.head, this.headLength);
    this.head = [];
    const magic = detectMagic(bytes);
    if (magic !== undefined) {
      this.verdict = judgeMagic(this.declared, magic);
      return;
    }
    this.text = new TextScan();
    this.scanText(bytes);
    if (this.verdict === undefined && !ended && !this.textMayFollow()) this.endText(false);
  }

  private scanText(bytes: Uint8Array): void {
    const scan = this.text;
    if (scan === undefined) return;
    if (!scan.feed(bytes)) this.verdict = this.binary();
    else this.refuseMarkup(scan.markup(false));
  }

  /** Whether the type still waits on the rest of the bytes: only a declared text type does. */
  private textMayFollow(): boolean {
    return isUndeclared(this.declared) || TEXT_TYPES.has(this.declared);
  }

  /** The verdict on the text read: at the end, or early for a declared binary type. */
  private endText(ended: boolean): TypeVerdict {
    const scan = this.text;
    if (scan === undefined || (ended && !scan.end())) return (this.verdict = this.binary());
    this.refuseMarkup(scan.markup(true));
    this.verdict ??= judgeText(this.declared);
    return this.verdict;
  }

  /**
   * Bytes of no known type that are not text either (a CAD drawing, a video, a database dump):
   * taken as `application/octet-stream` when nothing else was declared, since they are served
   * only as an attachment that no browser runs or sniffs; a declared type they contradict.
   */
  private binary(): TypeVerdict {
    if (isUndeclared(this.declared)) return accepted('application/octet-stream');
    return mismatch('application/octet-stream');
  }

  private refuseMarkup(markup: string | undefined): void {
    if (markup !== undefined) this.verdict = notAllowed(markup);
  }

  private emptyFile(): TypeVerdict {
    if (isUndeclared(this.declared)) return accepted('text/plain');
    if (TEXT_TYPES.has(this.declared)) return accepted(this.declared as FileType);
    return mismatch(undefined);
  }
}

/**
 * Whether bytes could make a file of the declared type acceptable: an allowed type (or another
 * name of one), or none that says anything (`application/octet-stream`, ''). Asked before the
 * body is read, so that a type that is never taken costs no byte of it.
 */
export function declaredTypeAcceptable(declared: string): boolean {
  const normal = declared.trim().toLowerCase();
  return isUndeclared(normal) || ALLOWED.has(ALIASES[normal] ?? normal);
}

/**
 * `declared`: the Content-Type without parameters, lower-cased ('' when none). A few common
 * other names of an allowed type count as that type.
 */
export function checkType(declared: string): TypeCheck {
  const normal = declared.trim().toLowerCase();
  return new TypeChecker(ALIASES[normal] ?? normal);
}
