import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { baseServiceEnv, EnvError, envBoolean, loadEnv } from '../src/index.ts';

const good = { NATS_URL: 'nats://127.0.0.1:4222', MONGO_URL: 'mongodb://127.0.0.1:27017' };

describe('loadEnv', () => {
  it('applies defaults', () => {
    const env = loadEnv('test', baseServiceEnv, good);
    expect(env).toEqual({
      ...good,
      MONGO_DB: 'handoff',
      HEALTH_PORT: 9090,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10_000,
      NATS_STREAM_REPLICAS: 1,
      STORE_LOCKS: false,
      DB_LOST_EXIT_MS: 60_000,
    });
  });

  it('takes NATS_STREAM_REPLICAS of 1, 3 or 5 only (a RAFT group needs an odd size)', () => {
    expect(loadEnv('test', baseServiceEnv, { ...good, NATS_STREAM_REPLICAS: '3' })).toMatchObject({
      NATS_STREAM_REPLICAS: 3,
    });
    expect(() => loadEnv('test', baseServiceEnv, { ...good, NATS_STREAM_REPLICAS: '2' })).toThrow(
      /NATS_STREAM_REPLICAS: must be 1, 3 or 5/,
    );
  });

  it('treats empty strings as unset', () => {
    expect(loadEnv('test', baseServiceEnv, { ...good, LOG_LEVEL: '' }).LOG_LEVEL).toBe('info');
  });

  it('names every bad variable in one error', () => {
    const run = () =>
      loadEnv('intake', baseServiceEnv, { NATS_URL: 'http://x', HEALTH_PORT: '70000' });
    expect(run).toThrow(EnvError);
    try {
      run();
    } catch (error) {
      const message = (error as EnvError).message;
      expect(message).toMatch(/^intake: invalid environment/);
      expect(message).toContain('NATS_URL: must be a nats://');
      expect(message).toContain('MONGO_URL: is required');
      expect(message).toContain('HEALTH_PORT:');
      expect((error as EnvError).issues).toHaveLength(3);
    }
  });

  it('parses booleans the way operators write them', () => {
    const schema = z.object({ FLAG: envBoolean.default(false) });
    expect(loadEnv('t', schema, { FLAG: 'yes' }).FLAG).toBe(true);
    expect(loadEnv('t', schema, { FLAG: '0' }).FLAG).toBe(false);
    expect(loadEnv('t', schema, {}).FLAG).toBe(false);
    expect(() => loadEnv('t', schema, { FLAG: 'maybe' })).toThrow(/FLAG/);
  });
});
