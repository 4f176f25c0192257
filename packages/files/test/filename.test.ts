import { describe, expect, it } from '@jest/globals';
import { contentDisposition, safeFilename } from '../src/filename.ts';

const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8');
/** Whether `text` survives a round trip through UTF-8 unchanged (no half character). */
const wellFormedUtf8 = (text: string): boolean =>
  new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text, 'utf8')) === text &&
  text.isWellFormed();

describe('safeFilename', () => {
  it('keeps ordinary names as they are', () => {
    expect(safeFilename('floor-plan.pdf')).toBe('floor-plan.pdf');
    expect(safeFilename('Résumé 2026 (final).docx')).toBe('Résumé 2026 (final).docx');
    expect(safeFilename('数据.csv')).toBe('数据.csv');
  });

  it('keeps only the last path segment', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('..\\..\\win.ini')).toBe('win.ini');
    expect(safeFilename('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(safeFilename('/abs/path/a.txt')).toBe('a.txt');
    expect(safeFilename('dir/')).toBe('file');
  });

  it('replaces NUL, control characters and the characters Windows forbids', () => {
    expect(safeFilename('a\u0000b.txt')).toBe('a_b.txt');
    expect(safeFilename('tab\there\nnew\rline.txt')).toBe('tab_here_new_line.txt');
    expect(safeFilename('esc\u001b[31m.txt')).toBe('esc_[31m.txt');
    expect(safeFilename('c1\u0085\u009f.txt')).toBe('c1__.txt');
    expect(safeFilename('del\u007f.txt')).toBe('del_.txt');
    expect(safeFilename('a<b>c:d"e|f?g*h.txt')).toBe('a_b_c_d_e_f_g_h.txt');
  });

  it('replaces the bidirectional controls that disguise an extension', () => {
    expect(safeFilename('invoice\u202Efdp.exe')).toBe('invoice_fdp.exe');
  });

  it('drops leading dots and whitespace, and trailing dots and spaces', () => {
    expect(safeFilename('.htaccess')).toBe('htaccess');
    expect(safeFilename('  ..hidden.txt')).toBe('hidden.txt');
    expect(safeFilename('name.txt. . ')).toBe('name.txt');
    expect(safeFilename('report.')).toBe('report');
  });

  it('answers file when nothing is left', () => {
    expect(safeFilename('')).toBe('file');
    expect(safeFilename('...')).toBe('file');
    expect(safeFilename('..')).toBe('file');
    expect(safeFilename('   ')).toBe('file');
    expect(safeFilename('../')).toBe('file');
  });

  it('prefixes Windows device names, with or without an extension, in any case', () => {
    expect(safeFilename('CON')).toBe('_CON');
    expect(safeFilename('con.txt')).toBe('_con.txt');
    expect(safeFilename('Nul.tar.gz')).toBe('_Nul.tar.gz');
    expect(safeFilename('prn')).toBe('_prn');
    expect(safeFilename('AUX.pdf')).toBe('_AUX.pdf');
    expect(safeFilename('com1')).toBe('_com1');
    expect(safeFilename('LPT9.doc')).toBe('_LPT9.doc');
    expect(safeFilename('COM¹')).toBe('_COM¹');
    expect(safeFilename('console.txt')).toBe('console.txt');
    expect(safeFilename('com10.txt')).toBe('com10.txt');
    expect(safeFilename('com0')).toBe('com0');
    expect(safeFilename('my-con.txt')).toBe('my-con.txt');
  });

  it('normalises to NFC', () => {
    const decomposed = 'Cafe\u0301.txt';
    expect(safeFilename(decomposed)).toBe('Caf\u00e9.txt');
  });

  it('replaces a lone surrogate instead of writing broken UTF-8', () => {
    const name = safeFilename('bad\ud800.txt');
    expect(wellFormedUtf8(name)).toBe(true);
    expect(name).toBe('bad\ufffd.txt');
  });

  it.each([
    ['ASCII', 'a'.repeat(300)],
    ['two-byte characters', 'é'.repeat(300)],
    ['three-byte characters', '€'.repeat(100)],
    ['four-byte characters', '😀'.repeat(80)],
    ['mixed widths', 'a€😀é'.repeat(40)],
  ])('cuts a long name of %s to 255 bytes, keeping the extension', (_kind, stem) => {
    const name = safeFilename(`${stem}.pdf`);
    expect(bytesOf(`${stem}.pdf`)).toBeGreaterThan(255);
    expect(bytesOf(name)).toBeLessThanOrEqual(255);
    expect(bytesOf(name)).toBeGreaterThan(250);
    expect(wellFormedUtf8(name)).toBe(true);
    expect(name.endsWith('.pdf')).toBe(true);
    expect(stem.startsWith(name.slice(0, -'.pdf'.length))).toBe(true);
  });

  it('keeps a character as a reader sees it whole when cutting', () => {
    const family = '👨‍👩‍👧'; // 18 bytes: three people joined by zero-width joiners
    const name = safeFilename(`${family.repeat(20)}.txt`);
    expect(bytesOf(name)).toBeLessThanOrEqual(255);
    expect(name).toBe(`${family.repeat(13)}.txt`);
  });

  it('cuts a name without an extension, or with an absurd one, from the end', () => {
    const plain = safeFilename('ü'.repeat(200));
    expect(plain).toBe('ü'.repeat(127));
    const absurd = safeFilename(`x.${'y'.repeat(300)}`);
    expect(bytesOf(absurd)).toBe(255);
    expect(absurd.startsWith('x.yyy')).toBe(true);
  });

  it('does not leave a trailing dot or space where the stem was cut', () => {
    expect(safeFilename(`${'a'.repeat(250)} . ${'b'.repeat(40)}.gz`)).toBe(`${'a'.repeat(250)}.gz`);
  });
});

/** The filename* value of a Content-Disposition, decoded. */
function extendedName(header: string): string {
  const match = /filename\*=UTF-8''([^;\s]*)$/.exec(header);
  if (match?.[1] === undefined) throw new Error(`no filename* in ${header}`);
  return decodeURIComponent(match[1]);
}

describe('contentDisposition', () => {
  it('answers an attachment with an ASCII name and the exact UTF-8 name', () => {
    expect(contentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
  });

  it('replaces quotes, backslashes and non-ASCII in the fallback, keeps spaces', () => {
    const name = 'the "final" Résumé\\v2 😀.pdf';
    const header = contentDisposition(name);
    expect(header).toContain('attachment; filename="the _final_ R_sum__v2 _.pdf";');
    expect(extendedName(header)).toBe(name);
  });

  it('percent-encodes everything outside attr-char in filename*', () => {
    const name = `a b'c(d)e*f%g;h,i=j"k/l€.txt`;
    const header = contentDisposition(name);
    const value = header.slice(header.indexOf("UTF-8''") + "UTF-8''".length);
    expect(value).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+$/);
    expect(value).toBe('a%20b%27c%28d%29e%2Af%25g%3Bh%2Ci%3Dj%22k%2Fl%E2%82%AC.txt');
    expect(extendedName(header)).toBe(name);
  });

  it('leaves attr-char as it is', () => {
    const name = '!#$&+-.^_`|~AZaz09';
    expect(contentDisposition(name)).toBe(
      `attachment; filename="${name}"; filename*=UTF-8''${name}`,
    );
  });

  it('round-trips every safe name', () => {
    for (const raw of ['数据 表.csv', 'C:\\x\\naïve "quote".txt', '😀'.repeat(100) + '.png']) {
      const name = safeFilename(raw);
      expect(extendedName(contentDisposition(name))).toBe(name);
      expect(contentDisposition(name)).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});
