import { describe, expect, it } from '@jest/globals';
import { candidatesOf, evaluate } from '../src/domain/routing-rules.ts';
import { routingScore, strideOf, withOutcome, type Outcome } from '../src/domain/routing-score.ts';
import type { ProviderDoc } from '../src/store/providers.ts';

const at = new Date('2026-12-01T10:00:00Z');

function provider(id: string, fields: Partial<ProviderDoc> = {}): ProviderDoc {
  return {
    _id: id,
    name: `Provider ${id}`,
    email: `${id}@example.com`,
    categories: ['travel'],
    status: 'active',
    created_at: at,
    updated_at: at,
    ...fields,
  };
}

const outcome = (
  kind: Outcome['kind'],
  response_ms: number | null = null,
  key: string = kind,
): Outcome => ({
  key,
  kind,
  response_ms,
  at,
});

describe('the routing score', () => {
  it('is neutral without history, and counts acceptance, speed and completed jobs', () => {
    expect(routingScore([]).score).toBe(0.5);
    const good = routingScore([
      outcome('accepted', 0, 'a'),
      outcome('accepted', 0, 'b'),
      outcome('completed', null, 'c'),
    ]);
    expect(good).toMatchObject({ score: 1, offers_accepted: 2, jobs_completed: 1 });
    const poor = routingScore([outcome('lapsed', null, 'a'), outcome('cancelled', null, 'b')]);
    // Acceptance and completion 0; speed neutral (no answer timed).
    expect(poor.score).toBe(0.1);
    // Declined (0 accepted), answered in a median 30 minutes (half speed), no jobs (neutral).
    expect(routingScore([outcome('declined', 30 * 60_000)]).score).toBe(0.25);
  });

  it('makes a better score take its turn more often', () => {
    expect(strideOf(0.5)).toBe(1);
    expect(strideOf(1)).toBeCloseTo(2 / 3);
    expect(strideOf(0)).toBe(2);
  });

  it('keeps the 20 most recent outcomes', () => {
    let kept: Outcome[] = [];
    for (let i = 0; i < 25; i += 1) kept = withOutcome(kept, outcome('accepted', 1, `o${i}`));
    expect(kept).toHaveLength(20);
    expect(kept[0]?.key).toBe('o5');
  });
});

describe('the rules', () => {
  const request = { category: 'travel', language: 'en', tried: ['tried'] };

  it('exclude whom they may not offer, with the reason, and order the rest by turn', () => {
    const evaluation = evaluate(
      [
        provider('late', { turn: 5 }),
        provider('early', { turn: 1, languages: ['en'] }),
        provider('suspended', { status: 'suspended' }),
        provider('away', { availability: 'away' }),
        provider('full', { capacity: 1, held: ['req_other'] }),
        provider('german', { languages: ['de'] }),
        provider('tried'),
      ],
      request,
    );
    expect(evaluation.eligible.map((w) => w.provider._id)).toEqual(['early', 'late']);
    expect(evaluation.excludedCounts).toEqual({
      suspended: 1,
      away: 1,
      at_capacity: 1,
      language: 1,
      already_offered: 1,
    });
    const candidates = candidatesOf(evaluation, 'early');
    expect(candidates[0]).toMatchObject({ provider_id: 'early', outcome: 'chosen' });
    expect(candidates[0]?.reasons).toEqual(
      expect.arrayContaining([
        'In category travel.',
        'Works in en.',
        'Holds 0 of 3.',
        'First in the rotation of those able to take it now.',
      ]),
    );
    expect(candidates.find((c) => c.provider_id === 'full')).toMatchObject({
      outcome: 'excluded',
      reasons: ['At capacity: holds 1 of 1.'],
    });
  });

  it('take a provider naming no languages for any language, and ties by id', () => {
    const evaluation = evaluate([provider('b'), provider('a')], request);
    expect(evaluation.eligible.map((w) => w.provider._id)).toEqual(['a', 'b']);
    expect(evaluation.eligible[0]?.reasons).toContain(
      'Names no languages, so any (the request is in en).',
    );
  });
});
