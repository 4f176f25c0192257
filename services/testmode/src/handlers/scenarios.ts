// Which scenario each test request runs: its request events carry it; for the other events it is
// read from intake once and kept (a request's scenario never changes).
import { Request, requestOps, scenarioOf, type TestScenario } from '@handoff/contracts';
import { boundedCache } from '@handoff/runtime';
import type { Acting } from './acting.ts';

/** Test requests whose scenario this process remembers. */
const REMEMBERED = 10_000;

export interface Scenarios {
  /** Learns the scenario from a request event's object (`request.created`, `request.updated`). */
  learn(object: unknown): Request | undefined;
  of(requestId: string): Promise<TestScenario>;
}

export function scenarios(a: Acting): Scenarios {
  const known = boundedCache<string, TestScenario>({ max: REMEMBERED });
  const remember = (request: Request): TestScenario => {
    const scenario = scenarioOf({ test_scenario: request.test_scenario, message: request.message });
    known.set(request.id, scenario);
    return scenario;
  };
  return {
    learn(object) {
      const parsed = Request.safeParse(object);
      if (!parsed.success) return undefined;
      remember(parsed.data);
      return parsed.data;
    },
    async of(requestId) {
      const kept = known.get(requestId);
      if (kept !== undefined) return kept;
      return remember(await a.call(requestOps.getAsStaff, { id: requestId }));
    },
  };
}
