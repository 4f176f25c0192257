import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  REQUEST_TOKEN_HEADER,
  requestHeaders,
  requestPath,
  retryUnavailable,
  times,
} from '../src/fixtures/agent-api.ts';
import type { GatewayStack } from '../src/fixtures/gateway-stack.ts';
import { UnexpectedStatusError } from '@handoff/devstack/gateway-client';

describe('times', () => {
  it('runs every task, at most `limit` at once, and keeps the results in order', async () => {
    let running = 0;
    let most = 0;
    const results = await times(10, 3, async (index) => {
      running += 1;
      most = Math.max(most, running);
      await sleep(10 - index);
      running -= 1;
      return index * 2;
    });
    expect(results).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(most).toBe(3);
  });

  it('handles fewer tasks than the limit, and none', async () => {
    await expect(times(2, 8, async (index) => index)).resolves.toEqual([0, 1]);
    await expect(times(0, 8, async (index) => index)).resolves.toEqual([]);
  });

  it('rejects with the first failure and starts no further task', async () => {
    const started: number[] = [];
    await expect(
      times(10, 2, async (index) => {
        started.push(index);
        await sleep(5);
        if (index === 1) throw new Error('no');
        return index;
      }),
    ).rejects.toThrow('no');
    await sleep(30);
    expect(started).toEqual([0, 1, 2]);
  });
});

describe('request calls', () => {
  it('encode the id into the path and send the key and the request token', () => {
    expect(requestPath('req_1/x')).toBe('/v1/request/req_1%2Fx');
    const stack = { agent: { api_key: 'hk_key' } } as unknown as GatewayStack;
    expect(requestHeaders(stack, { id: 'req_1', token: 'hrt_token' })).toEqual({
      Authorization: 'Bearer hk_key',
      [REQUEST_TOKEN_HEADER]: 'hrt_token',
    });
  });
});

describe('retryUnavailable', () => {
  const unavailable = () => new UnexpectedStatusError('create a request: POST / answered 503', 503);

  it('tries again after a 503, telling why, until the call succeeds', async () => {
    const retries: string[] = [];
    let calls = 0;
    const result = await retryUnavailable(
      async () => {
        calls += 1;
        if (calls < 3) throw unavailable();
        return 'ok';
      },
      { delayMs: 1, onRetry: (reason) => retries.push(reason) },
    );
    expect(result).toBe('ok');
    expect(retries).toEqual([
      'create a request answered 503; retrying',
      'create a request answered 503; retrying',
    ]);
  });

  it('throws other failures at once, and the last 503 after the last attempt', async () => {
    let calls = 0;
    const other = new UnexpectedStatusError('read: GET / answered 404', 404);
    await expect(
      retryUnavailable(
        async () => {
          calls += 1;
          throw other;
        },
        { delayMs: 1 },
      ),
    ).rejects.toBe(other);
    expect(calls).toBe(1);

    calls = 0;
    await expect(
      retryUnavailable(
        async () => {
          calls += 1;
          throw unavailable();
        },
        { delayMs: 1, attempts: 3 },
      ),
    ).rejects.toThrow('answered 503');
    expect(calls).toBe(3);
  });

  it('stops waiting when aborted', async () => {
    const abort = new AbortController();
    const pending = retryUnavailable(
      async () => {
        throw unavailable();
      },
      { delayMs: 60_000, signal: abort.signal },
    );
    abort.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });
});
