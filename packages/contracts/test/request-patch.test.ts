import { describe, expect, it } from '@jest/globals';
import { RequestPatch } from '../src/requests.ts';

describe('RequestPatch', () => {
  it('takes a routing with its two members', () => {
    const routing = { mode: 'direct', provider_ids: ['prv_1'] };
    expect(RequestPatch.parse({ routing })).toEqual({ routing });
  });

  it('refuses an unknown member of routing instead of dropping it', () => {
    // Schemathesis found an open routing object: a member the API would drop was refused for a
    // NUL in its value, which the document did not forbid.
    const parsed = RequestPatch.safeParse({
      routing: { mode: 'direct', provider_ids: [], extra: 'x\u0000' },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['extra'], path: ['routing'] }),
    ]);
  });
});
