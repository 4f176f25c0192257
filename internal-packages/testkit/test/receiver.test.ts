import { describe, expect, it } from '@jest/globals';
import { startReceiver, type Received } from '../src/index.ts';

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('startReceiver', () => {
  it('hands over each POST, path, headers and body, and answers 204', async () => {
    const seen: Received[] = [];
    const receiver = await startReceiver((received) => seen.push(received));
    try {
      const before = process.hrtime.bigint();
      const res = await post(`${receiver.url}/hook/3`, '{"a":1}', { 'webhook-id': 'evt_1' });
      expect(res.status).toBe(204);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.path).toBe('/hook/3');
      expect(seen[0]?.body).toBe('{"a":1}');
      expect(seen[0]?.headers['webhook-id']).toBe('evt_1');
      expect(seen[0]?.receivedAt).toBeGreaterThanOrEqual(before);
      expect(receiver.failures).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('answers 204 even when the callback throws, and keeps what it threw', async () => {
    const receiver = await startReceiver(() => {
      throw new Error('cannot read it');
    });
    try {
      expect((await post(`${receiver.url}/x`, 'x')).status).toBe(204);
      expect(receiver.failures).toEqual(['cannot read it']);
    } finally {
      await receiver.close();
    }
  });

  it('answers the statuses it is told, one for a POST taken and one for a POST refused', async () => {
    const receiver = await startReceiver(
      (received) => {
        if (received.body !== 'good') throw new Error(`refused ${received.body}`);
      },
      { status: 200, failedStatus: 400 },
    );
    try {
      expect((await post(receiver.url, 'good')).status).toBe(200);
      expect((await post(receiver.url, 'bad')).status).toBe(400);
      expect(receiver.failures).toEqual(['refused bad']);
    } finally {
      await receiver.close();
    }
  });
});
