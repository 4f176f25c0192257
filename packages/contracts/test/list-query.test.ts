import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ApplicationListQuery, EventListQuery, ListQuery, listQueryWith } from '../src/index.ts';

describe('list queries', () => {
  const withStatus = listQueryWith({ status: z.enum(['open', 'closed']).optional() });

  it('take the paging of conventions §1 and their filters', () => {
    expect(withStatus.parse({ limit: '13', status: 'open' })).toEqual({
      limit: 13,
      status: 'open',
    });
    expect(ListQuery.parse({})).toEqual({ limit: 20 });
  });

  it('refuse a parameter they do not name, with or without filters', () => {
    // An intersection of the strict paging with a stripping filter object let these through.
    for (const schema of [withStatus, ListQuery, ApplicationListQuery, EventListQuery]) {
      expect(schema.safeParse({ limit: '13', bogus: 'x' }).success).toBe(false);
      expect(schema.safeParse({ '.|F\u{4F65A}': '100736', '\x06\u0084-)': 'T' }).success).toBe(
        false,
      );
    }
  });

  it('refuse both cursors at once', () => {
    const both = withStatus.safeParse({ starting_after: 'a', ending_before: 'b' });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.path).toEqual(['ending_before']);
  });
});
