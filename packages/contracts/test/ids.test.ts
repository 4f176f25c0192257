import { describe, expect, it } from '@jest/globals';
import { idPattern, newId } from '../src/index.ts';

describe('newId', () => {
  it('is prefixed and matches its pattern', () => {
    const id = newId('req');
    expect(id).toMatch(idPattern('req'));
    expect(id).not.toMatch(idPattern('msg'));
  });

  it('sorts by creation time', () => {
    const ids = [3, 1_700_000_000_000, 1_700_000_000_001, 4_000_000_000_000].map((t) =>
      newId('evt', t),
    );
    expect([...ids].sort()).toEqual(ids);
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('msg', 1)));
    expect(ids.size).toBe(10_000);
  });
});
