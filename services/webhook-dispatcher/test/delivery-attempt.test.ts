import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import {
  attemptDelivery,
  liveEndpoint,
  signingSecrets,
  verdictOf,
} from '../src/delivery/attempt.ts';
import { secretBox } from '../src/domain/secrets.ts';
import { generateWebhookSecret } from '../src/domain/signer.ts';
import type { EndpointDoc } from '../src/store/endpoints.ts';
import { deliveryStack, jobFor } from './support/delivery-resources.ts';

describe('the verdict on an answer', () => {
  const schedule = [1, 10];

  it('is delivered on a success, and gives up on 410 whatever is left of the schedule', () => {
    expect(verdictOf({ outcome: 'success', retryAfterSeconds: null }, 1, schedule)).toEqual({
      kind: 'delivered',
    });
    expect(verdictOf({ outcome: 'gone', retryAfterSeconds: null }, 1, schedule)).toEqual({
      kind: 'give-up',
      why: 'gone',
    });
  });

  it('retries a failure or a refused target on schedule, then gives up as exhausted', () => {
    const now = 1_700_000_000_000;
    for (const outcome of ['retry', 'refused'] as const) {
      const verdict = verdictOf({ outcome, retryAfterSeconds: null }, 2, schedule, now);
      expect(verdict.kind).toBe('retry');
      // The second step, 10 s, jittered by up to a tenth either way.
      const at = verdict.kind === 'retry' ? verdict.at : 0;
      expect(at - now).toBeGreaterThanOrEqual(9_000);
      expect(at - now).toBeLessThanOrEqual(11_000);
      expect(verdictOf({ outcome, retryAfterSeconds: null }, 3, schedule, now)).toEqual({
        kind: 'give-up',
        why: 'exhausted',
      });
    }
  });

  it('honours Retry-After up to the longest step', () => {
    const now = 1_700_000_000_000;
    expect(verdictOf({ outcome: 'retry', retryAfterSeconds: 5 }, 1, schedule, now)).toEqual({
      kind: 'retry',
      at: now + 5_000,
    });
  });
});

describe('the endpoint an attempt goes to', () => {
  const endpoint = { enabled: true } as EndpointDoc;

  it('is none when it is deleted or disabled', () => {
    expect(liveEndpoint({ made_at: 0 }, null)).toBeNull();
    expect(liveEndpoint({ made_at: 0 }, { ...endpoint, enabled: false })).toBeNull();
  });

  it('is none for a delivery made before it was last disabled, even when it is enabled again', () => {
    const disabled_at = new Date(1_000);
    expect(liveEndpoint({ made_at: 999 }, { ...endpoint, disabled_at })).toBeNull();
    expect(liveEndpoint({ made_at: 1_000 }, { ...endpoint, disabled_at })).toEqual({
      ...endpoint,
      disabled_at,
    });
  });

  it('signs with the previous secret too while its grace period lasts', () => {
    const box = secretBox(Buffer.alloc(32, 7).toString('base64'));
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const doc = {
      secret_enc: box.seal(current),
      previous_secret_enc: box.seal(previous),
      previous_secret_expires_at: new Date(2_000),
    } as EndpointDoc;
    expect(signingSecrets(doc, box, new Date(1_999))).toEqual([current, previous]);
    expect(signingSecrets(doc, box, new Date(2_000))).toEqual([current]);
  });
});

describe('an attempt, on real servers', () => {
  let stack: Awaited<ReturnType<typeof deliveryStack>>;
  beforeAll(async () => {
    stack = await deliveryStack('attempt');
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('sends the signed event and classifies a 2xx as delivered, writing nothing', async () => {
    const hook = await stack.receiver(204);
    const { doc, secret } = await stack.endpoint(hook.url);
    const job = jobFor(doc._id);
    const result = await attemptDelivery(stack.resources, job);
    expect(result).toMatchObject({
      kind: 'sent',
      endpoint: { _id: doc._id },
      send: { outcome: 'success', statusCode: 204 },
      verdict: { kind: 'delivered' },
    });
    expect(hook.receipts.map((r) => r.id)).toEqual([job.event.id]);
    const [receipt] = hook.receipts;
    expect(
      new Webhook(secret).verify(receipt?.body ?? '', receipt?.headers as Record<string, string>),
    ).toEqual(JSON.parse(job.event.body));
    expect(await stack.c.attempts.countDocuments({ event_id: job.event.id })).toBe(0);
  });

  it('classifies a 503 as a retry on schedule, and a 410 as giving up', async () => {
    const failing = await stack.endpoint((await stack.receiver(503)).url);
    const before = Date.now();
    const retry = await attemptDelivery(stack.resources, jobFor(failing.doc._id));
    expect(retry).toMatchObject({ kind: 'sent', send: { outcome: 'retry', statusCode: 503 } });
    const at = retry.kind === 'sent' && retry.verdict.kind === 'retry' ? retry.verdict.at : 0;
    expect(at - before).toBeGreaterThanOrEqual(900);
    const gone = await stack.endpoint((await stack.receiver(410)).url);
    expect(await attemptDelivery(stack.resources, jobFor(gone.doc._id))).toMatchObject({
      kind: 'sent',
      verdict: { kind: 'give-up', why: 'gone' },
    });
  });

  it('sends nothing to an endpoint disabled since the delivery was made, or deleted', async () => {
    const hook = await stack.receiver(204);
    const disabled = await stack.endpoint(hook.url, {
      enabled: false,
      disabled_reason: 'manual',
      disabled_at: new Date(),
    });
    const made_at = Date.now() - 60_000;
    expect(await attemptDelivery(stack.resources, jobFor(disabled.doc._id, { made_at }))).toEqual({
      kind: 'cancelled',
    });
    expect(await attemptDelivery(stack.resources, jobFor('whe_none'))).toEqual({
      kind: 'cancelled',
    });
    expect(hook.receipts).toEqual([]);
  });
});
