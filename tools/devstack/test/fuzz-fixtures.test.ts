import { describe, expect, it } from '@jest/globals';
import { bodiesJson, operationsToml } from '../src/fuzz-fixtures.ts';

describe('the fixtures of the Schemathesis passes', () => {
  it('fix path parameters and the request token per operation, as TOML', () => {
    const toml = operationsToml([
      {
        operationId: 'openDispute',
        path: { id: 'req_1' },
        requestToken: 'tok"en',
        body: { milestone_id: 'ms_1', amount: 100 },
      },
      { operationId: 'getProvider', path: { id: 'prv_1' } },
    ]);
    expect(toml).toBe(
      [
        '[[operations]]',
        'include-operation-id = "openDispute"',
        'parameters = { "path.id" = "req_1", "header.X-Service-Request-Token" = "tok\\"en" }',
        '',
        '[[operations]]',
        'include-operation-id = "getProvider"',
        'parameters = { "path.id" = "prv_1" }',
        '',
      ].join('\n'),
    );
  });

  it('fix body members per operation for the hooks, as JSON', () => {
    const bodies = bodiesJson({
      agent: [{ operationId: 'openDispute', path: { id: 'req_1' }, body: { amount: 100 } }],
      staff: [{ operationId: 'getProvider', path: { id: 'prv_1' } }],
      provider: [
        { operationId: 'createMilestone', path: { id: 'job_1' }, body: { currency: 'USD' } },
      ],
      test: [{ operationId: 'getRequest', path: { id: 'req_2' }, requestToken: 'hrt_2' }],
    });
    expect(JSON.parse(bodies)).toEqual({
      openDispute: { amount: 100 },
      createMilestone: { currency: 'USD' },
    });
  });
});
