import { describe, expect, it } from '@jest/globals';
import { WEBHOOK_DEFAULTS } from '@handoff/contracts';
import { parseRetrySchedule, webhookDispatcherEnv } from '../src/services/webhook-dispatcher.ts';

describe('parseRetrySchedule', () => {
  it('gives the default schedule when unset or blank', () => {
    expect(parseRetrySchedule(undefined)).toEqual(WEBHOOK_DEFAULTS.retryScheduleSeconds);
    expect(parseRetrySchedule('')).toEqual(WEBHOOK_DEFAULTS.retryScheduleSeconds);
    expect(parseRetrySchedule('   ')).toEqual(WEBHOOK_DEFAULTS.retryScheduleSeconds);
    // A copy, not the frozen default itself.
    expect(parseRetrySchedule(undefined)).not.toBe(WEBHOOK_DEFAULTS.retryScheduleSeconds);
  });

  it('reads comma-separated positive seconds, decimals and spaces allowed', () => {
    expect(parseRetrySchedule('5,300,1800')).toEqual([5, 300, 1_800]);
    expect(parseRetrySchedule(' 1 , 2,3 ')).toEqual([1, 2, 3]);
    expect(parseRetrySchedule('0.5,1.5,.25')).toEqual([0.5, 1.5, 0.25]);
    expect(parseRetrySchedule('7')).toEqual([7]);
  });

  it.each([
    'abc',
    '5,,10',
    '5,',
    ',5',
    '0',
    '5,0',
    '-5',
    '5,-1',
    '1e3',
    'Infinity',
    '0x10',
    '5;10',
  ])('throws a clear error for %j', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow(/comma-separated positive numbers/);
  });

  it('turns a bad schedule into an issue of the variable', () => {
    const env = {
      NATS_URL: 'nats://127.0.0.1:4222',
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      WEBHOOK_SECRETS_KEY: Buffer.alloc(32).toString('base64'),
    };
    const good = webhookDispatcherEnv.parse({ ...env, WEBHOOK_RETRY_SCHEDULE: '1,2' });
    expect(good.WEBHOOK_RETRY_SCHEDULE).toEqual([1, 2]);
    const bad = webhookDispatcherEnv.safeParse({ ...env, WEBHOOK_RETRY_SCHEDULE: '1,x' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['WEBHOOK_RETRY_SCHEDULE']);
    expect(bad.error?.issues[0]?.message).toMatch(/item 2 is "x"/);
  });
});
