import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger } from '../src/index.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('carries service and version and never prints secrets', () => {
    const { lines, destination } = capture();
    const logger = createLogger({
      service: 'intake',
      version: '1.2.3',
      level: 'info',
      destination,
    });
    const secret = 'hk_live_abcdefghijklmnopqrstuvwxyz0123456789';
    logger.info(
      {
        headers: { authorization: `Bearer ${secret}`, 'x-service-request-token': 'hrt_zzz' },
        body: { api_key: secret, request_token: 'hrt_yyy', application_secret: 'has_xxx' },
        request_token: 'hrt_top',
      },
      'call',
    );
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      service: 'intake',
      version: '1.2.3',
      level: 'info',
      msg: 'call',
    });
    for (const value of [secret, 'hrt_zzz', 'hrt_yyy', 'has_xxx', 'hrt_top']) {
      expect(line).not.toContain(value);
    }
    expect(line).toContain('[redacted]');
  });
});
