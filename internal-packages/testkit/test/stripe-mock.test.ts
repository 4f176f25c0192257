import { afterAll, describe, expect, it } from '@jest/globals';
import { startStripeMock, StripeMockUnavailableError, type StripeMock } from '../src/index.ts';

const started: StripeMock[] = [];

afterAll(async () => {
  await Promise.all(started.map((mock) => mock.stop()));
});

describe('stripe-mock', () => {
  it('starts on a free loopback port and answers the Stripe API', async () => {
    const mock = await startStripeMock({ env: {} });
    started.push(mock);
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${mock.url}/v1/payment_intents`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer sk_test_testkit',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'amount=1999&currency=usd',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      object: 'payment_intent',
      id: expect.stringMatching(/^pi_/),
      amount: 1999,
      currency: 'usd',
    });
  });

  it('runs two at once, each on its own port, and stops', async () => {
    const [a, b] = await Promise.all([startStripeMock({ env: {} }), startStripeMock({ env: {} })]);
    expect(a.url).not.toBe(b.url);
    await Promise.all([a.stop(), b.stop()]);
    await expect(fetch(`${a.url}/v1/balance`)).rejects.toThrow();
  });

  it('uses the STRIPE_MOCK_URL the caller set', async () => {
    const mock = await startStripeMock({ env: { STRIPE_MOCK_URL: 'http://127.0.0.1:12111' } });
    expect(mock.url).toBe('http://127.0.0.1:12111');
  });

  it('fails with instructions, never skips, when the binary is missing (also under CI)', async () => {
    const none = { env: { CI: 'true' }, binDirs: [] };
    await expect(startStripeMock(none)).rejects.toThrow(StripeMockUnavailableError);
    await expect(startStripeMock(none)).rejects.toThrow(
      /stripe-mock is not available[\s\S]*npm run setup[\s\S]*go install github\.com\/stripe\/stripe-mock@v/,
    );
  });
});
