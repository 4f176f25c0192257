// `handoff_routing_offers_total` on intake's health port: each offer the rules make, and each
// answer to one or lapse of one, counted once by its outcome.
import { describe, expect, it } from '@jest/globals';
import { routingOps } from '@handoff/contracts';
import { parsePrometheusText, type PrometheusSample } from '@handoff/observability';
import { eventually } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import { OFFER_OUTCOMES } from '../src/routing/offer-metrics.ts';
import { createProvider, createRequest, staff, useIntake } from './support/stack.ts';

const intake = useIntake('routing_metrics');

const scrape = async (): Promise<PrometheusSample[]> => {
  const res = await fetch(`http://127.0.0.1:${intake.service.healthPort}/metrics`);
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
};

const offers = async (outcome: string): Promise<number> =>
  (await scrape()).find(
    (s) => s.name === 'handoff_routing_offers_total' && s.labels.outcome === outcome,
  )?.value ?? 0;

/** Waits until `outcome` counts `before + 1` or more (the count follows the write); answers it. */
const countedOnce = (outcome: string, before: number) =>
  eventually(
    async () => {
      const now = await offers(outcome);
      return now > before ? now : undefined;
    },
    { what: `an offer counted ${outcome}` },
  );

/** A category of this test's own with one provider in it, offered its next request. */
async function categoryWithProvider(settings: { response_seconds?: number } = {}) {
  const category = `metrics-${randomBytes(4).toString('hex')}`;
  await intake.call(routingOps.updateCategory, {
    category,
    ...staff,
    patch: { max_offers: 1, ...settings },
  });
  const provider = await createProvider(intake.nc, { categories: [category] });
  return { category, provider };
}

/** Waits until the request's automatic routing is in `state`. */
const routingState = (id: string, state: string) =>
  eventually(
    async () => {
      const request = await intake.call(routingOps.get, { id });
      return request.automatic_routing.state === state ? request : undefined;
    },
    { what: `request ${id} in routing state ${state}`, timeoutMs: 15_000 },
  );

/** A new request of `category`, offered by the rules to its provider. */
async function offered(category: string) {
  const request = await createRequest(intake.nc, { category });
  await routingState(request.id, 'offered');
  return request;
}

describe('handoff_routing_offers_total', () => {
  it('counts the rules’ offer, and the provider accepting it', async () => {
    const { category, provider } = await categoryWithProvider();
    const [offeredBefore, acceptedBefore] = [await offers('offered'), await offers('accepted')];
    const request = await offered(category);
    expect(await countedOnce('offered', offeredBefore)).toBe(offeredBefore + 1);
    await intake.call(routingOps.accept, { provider_id: provider.id, request_id: request.id });
    expect(await offers('accepted')).toBe(acceptedBefore + 1);
    // An answer that is refused (the offer is no longer pending) counts nothing.
    await expect(
      intake.call(routingOps.accept, { provider_id: provider.id, request_id: request.id }),
    ).rejects.toMatchObject({ code: 'offer_not_pending' });
    expect(await offers('accepted')).toBe(acceptedBefore + 1);
  });

  it('counts a declined offer', async () => {
    const { category, provider } = await categoryWithProvider();
    const declinedBefore = await offers('declined');
    const request = await offered(category);
    await intake.call(routingOps.decline, {
      provider_id: provider.id,
      request_id: request.id,
      input: { reason: 'Booked up this week.' },
    });
    expect(await offers('declined')).toBe(declinedBefore + 1);
    // With its one offer made, the request waits for staff: no further offer, no lapse.
    await routingState(request.id, 'queued');
  });

  it('counts an offer left unanswered past its window as lapsed, once', async () => {
    const { category } = await categoryWithProvider({ response_seconds: 1 });
    const lapsedBefore = await offers('lapsed');
    const request = await offered(category);
    await routingState(request.id, 'queued');
    expect(await countedOnce('lapsed', lapsedBefore)).toBe(lapsedBefore + 1);
  });

  it('labels only the outcomes declared in code, never an id', async () => {
    const samples = (await scrape()).filter((s) => s.name === 'handoff_routing_offers_total');
    expect(samples.map((s) => s.labels.outcome).sort()).toEqual([...OFFER_OUTCOMES].sort());
    for (const sample of samples) {
      expect(Object.keys(sample.labels).sort()).toEqual(['otel_scope_name', 'outcome']);
      for (const value of Object.values(sample.labels)) {
        expect(value).not.toMatch(/[a-z]+_[0-9a-z]{20,}/);
      }
    }
  });
});
