import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../src/index.ts';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const envelope = {
  id: 'evt_01',
  type: 'request.created',
  timestamp: new Date().toISOString(),
  data: { request_id: 'req_01', sequence: 1, object: { object: 'request', id: 'req_01' } },
};

/** Headers as a Standard Webhooks sender (the dispatcher) writes them. */
function signed(body: string) {
  const timestamp = new Date();
  return {
    'webhook-id': envelope.id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(envelope.id, timestamp, body),
  };
}

describe('verifyWebhook', () => {
  it('returns the event of a delivery signed with the secret, from plain headers or Headers', () => {
    const body = JSON.stringify(envelope);
    const headers = signed(body);
    expect(verifyWebhook(secret, body, headers)).toEqual(envelope);
    expect(verifyWebhook(secret, Buffer.from(body), new Headers(headers))).toEqual(envelope);
  });

  it('refuses a changed body, another secret and a missing signature', () => {
    const body = JSON.stringify(envelope);
    const headers = signed(body);
    expect(() => verifyWebhook(secret, body.replace('req_01', 'req_02'), headers)).toThrow();
    expect(() =>
      verifyWebhook(`whsec_${randomBytes(32).toString('base64')}`, body, headers),
    ).toThrow();
    expect(() =>
      verifyWebhook(secret, body, { ...headers, 'webhook-signature': undefined }),
    ).toThrow();
  });
});
