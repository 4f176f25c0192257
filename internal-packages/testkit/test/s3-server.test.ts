import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  S3ServerUnavailableError,
  startS3Server,
  uniqueBucket,
  type S3Server,
} from '../src/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-s3-server-'));
const started: S3Server[] = [];

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the S3-compatible test server (versitygw)', () => {
  it('starts on a free loopback port and refuses an unsigned request as S3 does', async () => {
    const server = await startS3Server({ dataDir, env: {} });
    started.push(server);
    expect(server).toMatchObject({ source: 'binary', region: 'us-east-1' });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('runs two at once, each on its own port, and stops', async () => {
    const [a, b] = await Promise.all([
      startS3Server({ dataDir: join(dataDir, 'a'), env: {} }),
      startS3Server({ dataDir: join(dataDir, 'b'), env: {} }),
    ]);
    expect(a.url).not.toBe(b.url);
    await Promise.all([a.stop(), b.stop()]);
    await expect(fetch(`${a.url}/`)).rejects.toThrow();
  });

  it('uses the S3 server the caller names, with its credentials', async () => {
    const server = await startS3Server({
      dataDir,
      env: {
        S3_TEST_URL: 'http://127.0.0.1:9000/',
        S3_TEST_ACCESS_KEY_ID: 'mine',
        S3_TEST_SECRET_ACCESS_KEY: 'my-secret',
      },
    });
    expect(server).toMatchObject({
      url: 'http://127.0.0.1:9000',
      accessKeyId: 'mine',
      secretAccessKey: 'my-secret',
      source: 'env',
    });
  });

  it('fails with instructions, never skips, when the binary is missing (also under CI)', async () => {
    const none = { dataDir, env: { CI: 'true' }, binDirs: [] };
    await expect(startS3Server(none)).rejects.toThrow(S3ServerUnavailableError);
    await expect(startS3Server(none)).rejects.toThrow(
      /no versitygw binary[\s\S]*\(CI\)[\s\S]*npm run setup[\s\S]*go install github\.com\/versity\/versitygw\/cmd\/versitygw@v/,
    );
  });

  it('names buckets as S3 allows: 3-63 lowercase letters, digits and hyphens, each new', () => {
    const names = [
      uniqueBucket('Files Store_Test'),
      uniqueBucket(''),
      uniqueBucket('x'.repeat(80)),
    ];
    for (const name of names) expect(name).toMatch(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/);
    expect(new Set(names).size).toBe(3);
  });
});
