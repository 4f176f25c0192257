import { describe, expect, it } from '@jest/globals';
import { checkType, declaredType, type TypeVerdict } from '../src/sniff.ts';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(
    parts.map((part) =>
      typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
    ),
  );
const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');

/** Bytes after a magic number, the way real files go on (NULs and high bytes). */
const BODY = [0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x80, 0x01, 0x00, 0x10, 0x20];

const SAMPLES = {
  'image/png': bytes([0x89], 'PNG\r\n\x1a\n', BODY),
  'image/jpeg': bytes([0xff, 0xd8, 0xff, 0xe0], BODY),
  gif87: bytes('GIF87a', BODY),
  'image/gif': bytes('GIF89a', BODY),
  'image/webp': bytes('RIFF', [0x24, 0x10, 0, 0], 'WEBPVP8 ', BODY),
  'application/pdf': bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', BODY),
  'application/zip': bytes('PK\x03\x04', [0x14, 0, 0, 0, 8, 0], BODY),
  emptyZip: bytes('PK\x05\x06', new Array<number>(18).fill(0)),
  'application/gzip': bytes([0x1f, 0x8b, 0x08, 0x00], BODY),
};

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

/** Feeds the chunks in order: the first refusal `update` answers, and what `finish` answers. */
function run(declared: string, ...chunks: Uint8Array[]) {
  const check = checkType(declared);
  let early: TypeVerdict | undefined;
  let updates = 0;
  for (const chunk of chunks) {
    updates += 1;
    early = check.update(chunk);
    if (early !== undefined) break;
  }
  return { early, updates, final: check.finish() };
}

/** Splits bytes into chunks of `size`. */
function split(data: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) out.push(data.subarray(at, at + size));
  return out;
}

const OCTETS = { ok: true, type: 'application/octet-stream' };
const notAllowed = (detected: string | undefined) => ({
  ok: false,
  code: 'file_type_not_allowed',
  detected,
});
const mismatch = (detected: string | undefined) => ({
  ok: false,
  code: 'file_type_mismatch',
  detected,
});

describe('declaredType', () => {
  it('drops parameters and case, and answers an empty string when absent', () => {
    expect(declaredType('Text/Plain; charset=UTF-8')).toBe('text/plain');
    expect(declaredType('  image/PNG ')).toBe('image/png');
    expect(declaredType('')).toBe('');
    expect(declaredType(undefined)).toBe('');
  });
});

describe('checkType: magic numbers', () => {
  it.each([
    ['image/png', SAMPLES['image/png']],
    ['image/jpeg', SAMPLES['image/jpeg']],
    ['image/gif', SAMPLES.gif87],
    ['image/gif', SAMPLES['image/gif']],
    ['image/webp', SAMPLES['image/webp']],
    ['application/pdf', SAMPLES['application/pdf']],
    ['application/zip', SAMPLES['application/zip']],
    ['application/zip', SAMPLES.emptyZip],
    ['application/gzip', SAMPLES['application/gzip']],
  ])('accepts %s declared as itself, as application/octet-stream and undeclared', (type, data) => {
    for (const declared of [type, 'application/octet-stream', '']) {
      const { early, final } = run(declared, data);
      expect(early).toBeUndefined();
      expect(final).toEqual({ ok: true, type });
    }
  });

  it.each([DOCX, XLSX, PPTX])('accepts %s when the bytes are a ZIP', (office) => {
    expect(run(office, SAMPLES['application/zip']).final).toEqual({ ok: true, type: office });
    expect(run(office, SAMPLES['application/pdf'], new Uint8Array(100)).early).toEqual(
      mismatch('application/pdf'),
    );
  });

  it('accepts a declared type with parameters and other case through declaredType', () => {
    const { final } = run(declaredType('IMAGE/PNG; foo=bar'), SAMPLES['image/png']);
    expect(final).toEqual({ ok: true, type: 'image/png' });
  });

  it('takes the common other names of an allowed type as that type', () => {
    expect(run('application/x-zip-compressed', SAMPLES['application/zip']).final).toEqual({
      ok: true,
      type: 'application/zip',
    });
    expect(run('image/jpg', SAMPLES['image/jpeg']).final).toEqual({ ok: true, type: 'image/jpeg' });
  });

  it('does not look at the chunks after a binary type is decided', () => {
    const check = checkType('image/png');
    expect(check.update(SAMPLES['image/png'])).toBeUndefined();
    // Neither text nor anything else: it is the inside of a PNG, not read.
    expect(check.update(new Uint8Array([0, 0xff, 0xfe, 0x3c]))).toBeUndefined();
    expect(check.finish()).toEqual({ ok: true, type: 'image/png' });
  });
});

describe('checkType: lying declared types', () => {
  it('refuses a PDF declared image/png on the first update', () => {
    const { early, updates, final } = run('image/png', SAMPLES['application/pdf'], utf8('more'));
    expect(updates).toBe(1);
    expect(early).toEqual(mismatch('application/pdf'));
    expect(final).toEqual(mismatch('application/pdf'));
  });

  it.each(['text/plain', 'text/csv', 'text/markdown', 'application/json'])(
    'refuses binary bytes declared %s with the type they are',
    (declared) => {
      expect(run(declared, SAMPLES['image/png']).early).toEqual(mismatch('image/png'));
      expect(run(declared, SAMPLES['application/gzip']).early).toEqual(
        mismatch('application/gzip'),
      );
    },
  );

  it('refuses text declared a binary type as text/plain, at once', () => {
    const text = utf8('just some words, long enough to decide\n'.repeat(10));
    const { early, updates, final } = run('image/png', text, utf8('and more'));
    expect(updates).toBe(1);
    expect(early).toEqual(mismatch('text/plain'));
    expect(final).toEqual(mismatch('text/plain'));
    expect(run(DOCX, text).early).toEqual(mismatch('text/plain'));
  });

  it('refuses a short text declared a binary type at the end', () => {
    const { early, final } = run('application/pdf', utf8('hi'));
    expect(early).toBeUndefined();
    expect(final).toEqual(mismatch('text/plain'));
  });

  it('refuses bytes of another allowed binary type as a mismatch', () => {
    expect(run('image/jpeg', SAMPLES['image/png']).early).toEqual(mismatch('image/png'));
    expect(run('application/zip', SAMPLES['application/gzip']).early).toEqual(
      mismatch('application/gzip'),
    );
    expect(run('image/gif', SAMPLES['image/webp']).early).toEqual(mismatch('image/webp'));
  });

  it('refuses unknown binary bytes declared a binary type as a mismatch', () => {
    const unknown = bytes([0x00, 0x01, 0x02, 0x03], BODY);
    expect(run('image/png', unknown).early).toEqual(mismatch('application/octet-stream'));
  });

  it.each(['text/html', 'image/svg+xml', 'application/x-msdownload', 'application/javascript'])(
    'refuses a declared %s at once, whatever the bytes',
    (declared) => {
      const check = checkType(declared);
      expect(check.update(utf8('hello'))).toEqual(notAllowed(undefined));
      expect(check.finish()).toEqual(notAllowed(undefined));
      expect(checkType(declared).finish()).toEqual(notAllowed(undefined));
    },
  );
});

describe('checkType: text', () => {
  it.each(['text/plain', 'text/csv', 'text/markdown', 'application/json'])(
    'accepts UTF-8 text declared %s as that type',
    (declared) => {
      const { early, final } = run(declared, utf8('a,b\n1,"ünïcødé"\r\n\tdone\f'));
      expect(early).toBeUndefined();
      expect(final).toEqual({ ok: true, type: declared });
    },
  );

  it('accepts text declared application/octet-stream or nothing as text/plain', () => {
    expect(run('application/octet-stream', utf8('{"a": 1}')).final).toEqual({
      ok: true,
      type: 'text/plain',
    });
    expect(run('', utf8('hello')).final).toEqual({ ok: true, type: 'text/plain' });
  });

  it('accepts a byte order mark', () => {
    expect(run('text/csv', bytes([0xef, 0xbb, 0xbf]), utf8('a;b\n')).final).toEqual({
      ok: true,
      type: 'text/csv',
    });
  });

  it('accepts a character split across chunks', () => {
    const euro = utf8('price: €5\n');
    const at = euro.indexOf(0xe2) + 1;
    expect(run('text/plain', euro.subarray(0, at), euro.subarray(at)).final).toEqual({
      ok: true,
      type: 'text/plain',
    });
    expect(run('text/plain', ...split(utf8('€€€ ünïcødé 😀 '.repeat(20)), 1)).final).toEqual({
      ok: true,
      type: 'text/plain',
    });
  });

  it('refuses invalid UTF-8 declared as text as soon as it comes; undeclared, it is binary', () => {
    const good = utf8('fine text\n'.repeat(10));
    const { early, updates } = run('text/plain', good, bytes([0xc3, 0x28]), good);
    expect(updates).toBe(2);
    expect(early).toEqual(mismatch('application/octet-stream'));
    // A lone continuation byte, and an overlong encoding of '/'.
    expect(run('', bytes('abc', [0x80])).final).toEqual(OCTETS);
    expect(run('text/plain', bytes('abc', [0xc0, 0xaf])).final).toEqual(
      mismatch('application/octet-stream'),
    );
  });

  it('refuses a character cut off at the end of a declared text', () => {
    expect(run('text/plain', bytes('abc', [0xe2, 0x82])).final).toEqual(
      mismatch('application/octet-stream'),
    );
  });

  it('refuses a NUL or a control character in a declared text, even far into the file', () => {
    const good = utf8('x'.repeat(100_000));
    expect(run('text/plain', good, bytes('a\x00b')).early).toEqual(
      mismatch('application/octet-stream'),
    );
    expect(run('application/json', good, bytes('a\x1bb')).early).toEqual(
      mismatch('application/octet-stream'),
    );
    expect(run('', bytes('a\x0bb')).final).toEqual(OCTETS);
    expect(run('text/plain', bytes('delete\x7f')).final).toEqual({ ok: true, type: 'text/plain' });
  });
});

describe('checkType: what a browser or system would run', () => {
  it.each([
    ['an HTML page', '<!DOCTYPE html><html><body>hi</body></html>', 'text/html'],
    ['HTML after a BOM and blanks', '\ufeff  \n<HTML lang="en">', 'text/html'],
    ['a bare <html>', '<html>', 'text/html'],
    ['a script', '<script>alert(1)</script>', 'text/html'],
    ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>', 'image/svg+xml'],
    [
      'an SVG after an XML prolog and a comment',
      `<?xml version="1.0"?>\n<!-- ${'a comment '.repeat(50)} -->\n<svg width="1"/>`,
      'image/svg+xml',
    ],
    [
      'XHTML',
      '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN">\n<html>',
      'text/html',
    ],
  ])('refuses %s', (_name, text, detected) => {
    for (const declared of ['text/plain', 'text/markdown', 'application/octet-stream', '']) {
      expect(run(declared, utf8(text)).final).toEqual(notAllowed(detected));
    }
    expect(run('image/png', utf8(text)).final).toEqual(notAllowed(detected));
  });

  it('refuses HTML as soon as its first KiB is in, before the end', () => {
    const page = utf8(`<!doctype html><p>${'x'.repeat(2000)}</p>`);
    const { early, updates } = run('text/plain', ...split(page, 300));
    expect(early).toEqual(notAllowed('text/html'));
    expect(updates).toBe(4);
  });

  it('accepts text that mentions markup later or is other XML', () => {
    expect(run('text/markdown', utf8('# Title\n\n<html> is a tag\n')).final).toEqual({
      ok: true,
      type: 'text/markdown',
    });
    expect(run('', utf8('<?xml version="1.0"?><note>hi</note>')).final).toEqual({
      ok: true,
      type: 'text/plain',
    });
  });

  it.each([
    ['ELF', bytes('\x7fELF', [2, 1, 1, 0], BODY), 'application/x-executable'],
    ['PE', bytes('MZ', [0x90, 0, 3, 0, 0, 0, 4, 0], BODY), 'application/x-msdownload'],
    ['Mach-O', bytes([0xcf, 0xfa, 0xed, 0xfe], BODY), 'application/x-mach-binary'],
    ['WebAssembly', bytes('\0asm', [1, 0, 0, 0], BODY), 'application/wasm'],
    [
      'OLE (old Office)',
      bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], BODY),
      'application/x-ole-storage',
    ],
    ['RAR', bytes('Rar!\x1a\x07\x01\x00', BODY), 'application/vnd.rar'],
  ])('refuses %s bytes, a type off the list', (_name, data, detected) => {
    for (const declared of ['application/octet-stream', '', 'text/plain', 'image/png']) {
      expect(run(declared, data).early).toEqual(notAllowed(detected));
    }
  });

  it('takes a text that starts with MZ for text', () => {
    expect(run('text/plain', utf8('MZ is a postcode area\n')).final).toEqual({
      ok: true,
      type: 'text/plain',
    });
  });

  it('takes unknown binary bytes, undeclared, as application/octet-stream', () => {
    expect(run('', bytes([0x00, 0x01, 0x02], BODY)).final).toEqual(OCTETS);
    expect(run('application/octet-stream', bytes([0xff, 0xfe, 0x41, 0x00])).final).toEqual(OCTETS);
    // Executables are still recognised and refused, whatever is declared.
    expect(run('application/octet-stream', bytes([0x7f, 0x45, 0x4c, 0x46], BODY)).early).toEqual(
      notAllowed('application/x-executable'),
    );
  });
});

describe('checkType: chunk boundaries and empty files', () => {
  it('decides a PNG fed one byte at a time', () => {
    const check = checkType('image/png');
    for (const byte of SAMPLES['image/png']) {
      expect(check.update(new Uint8Array([byte]))).toBeUndefined();
    }
    expect(check.finish()).toEqual({ ok: true, type: 'image/png' });
    expect(run('text/plain', ...split(SAMPLES['image/png'], 1)).early).toEqual(
      mismatch('image/png'),
    );
  });

  it('decides a WebP whose magic number straddles chunks', () => {
    expect(run('', ...split(SAMPLES['image/webp'], 5)).final).toEqual({
      ok: true,
      type: 'image/webp',
    });
  });

  it('decides files shorter than the head at the end', () => {
    expect(run('image/jpeg', bytes([0xff, 0xd8, 0xff])).final).toEqual({
      ok: true,
      type: 'image/jpeg',
    });
    expect(run('application/gzip', bytes([0x1f, 0x8b])).final).toEqual({
      ok: true,
      type: 'application/gzip',
    });
  });

  it('holds its own copy of a short first chunk, whose buffer the caller may reuse', () => {
    const check = checkType('');
    const buffer = Uint8Array.from(SAMPLES['application/pdf'].subarray(0, 4));
    expect(check.update(buffer)).toBeUndefined();
    buffer.set([0x89, 0x50, 0x4e, 0x47]);
    expect(check.update(SAMPLES['application/pdf'].subarray(4))).toBeUndefined();
    expect(check.finish()).toEqual({ ok: true, type: 'application/pdf' });
  });

  it('ignores empty chunks', () => {
    const empty = new Uint8Array(0);
    expect(run('image/png', empty, SAMPLES['image/png'], empty).final).toEqual({
      ok: true,
      type: 'image/png',
    });
  });

  it('takes an empty file as the declared text type, text/plain undeclared', () => {
    expect(run('text/csv').final).toEqual({ ok: true, type: 'text/csv' });
    expect(run('application/json', new Uint8Array(0)).final).toEqual({
      ok: true,
      type: 'application/json',
    });
    expect(run('application/octet-stream').final).toEqual({ ok: true, type: 'text/plain' });
    expect(run('').final).toEqual({ ok: true, type: 'text/plain' });
  });

  it('refuses an empty file declared a binary type', () => {
    expect(run('image/png').final).toEqual(mismatch(undefined));
    expect(run(DOCX, new Uint8Array(0)).final).toEqual(mismatch(undefined));
  });
});

describe('checkType: cost', () => {
  it('scans 50 MiB of text in native code (time printed, not asserted)', () => {
    const line = utf8('id,name,amount,note\n42,Ünïcødé Ltd,1234.56,"a quoted, note €"\n');
    const lines = (bytes: number) => Buffer.alloc(bytes - (bytes % line.length), line);
    const chunk = lines(255 * 1024);
    const whole = lines(50 * 1024 * 1024);

    let started = performance.now();
    const chunked = checkType('text/csv');
    let fed = 0;
    for (; fed < whole.length; fed += chunk.length) expect(chunked.update(chunk)).toBeUndefined();
    expect(chunked.finish()).toEqual({ ok: true, type: 'text/csv' });
    const chunkedMs = performance.now() - started;

    started = performance.now();
    const single = checkType('');
    expect(single.update(whole)).toBeUndefined();
    expect(single.finish()).toEqual({ ok: true, type: 'text/plain' });
    console.log(
      `text check: ${(fed / 2 ** 20).toFixed(0)} MiB in 255 KiB chunks ${chunkedMs.toFixed(0)} ms; ` +
        `50 MiB in one buffer ${(performance.now() - started).toFixed(0)} ms`,
    );
  });
});
