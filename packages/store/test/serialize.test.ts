import { describe, expect, it } from '@jest/globals';
import { createSerializer } from '../src/index.ts';

describe('createSerializer', () => {
  it('runs tasks of one key one at a time, in order, and keys independently', async () => {
    const serialize = createSerializer();
    const log: string[] = [];
    const task = (key: string, label: string, ms: number) =>
      serialize(key, async () => {
        log.push(`start ${label}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`end ${label}`);
        return label;
      });
    const results = await Promise.all([
      task('a', 'a1', 30),
      task('a', 'a2', 1),
      task('b', 'b1', 5),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });

  it('goes on after a failed task', async () => {
    const serialize = createSerializer();
    await expect(serialize('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(serialize('k', async () => 'next')).resolves.toBe('next');
  });
});
