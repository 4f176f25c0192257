import { describe, expect, it } from '@jest/globals';
import { fileSize, fileTypeName } from '../src/file-words.ts';

describe('fileSize', () => {
  it('says bytes below a kilobyte, then one decimal below ten of a unit', () => {
    expect(fileSize(0)).toBe('0 B');
    expect(fileSize(1)).toBe('1 B');
    expect(fileSize(1023)).toBe('1023 B');
    expect(fileSize(1024)).toBe('1 KB');
    expect(fileSize(1536)).toBe('1.5 KB');
    expect(fileSize(12 * 1024 + 300)).toBe('12 KB');
    expect(fileSize(1024 * 1024 - 1)).toBe('1 MB');
    expect(fileSize(100 * 1024 * 1024)).toBe('100 MB');
    expect(fileSize(1.25 * 1024 ** 3)).toBe('1.3 GB');
  });
});

describe('fileTypeName', () => {
  it('names the types files may have, and shows any other as it is', () => {
    expect(fileTypeName('application/pdf')).toBe('PDF');
    expect(fileTypeName('text/plain')).toBe('Text');
    expect(fileTypeName('application/x-unknown')).toBe('application/x-unknown');
  });
});
