// Scenario reports made up for the tests of what is computed and printed from them (ratios,
// growth, the summary), without running a scenario.
import type { ScenarioReport, Stats } from '../../src/types.ts';

/** A measurement with the given rate and latencies, one answered call, no errors. */
export const stats = (requests_per_s: number, p50_ms: number, p99_ms: number): Stats => ({
  requests_per_s,
  p50_ms,
  p99_ms,
  mean_ms: p50_ms,
  max_ms: p99_ms,
  count: 1,
  errors: 0,
  non2xx: 0,
  elapsed_s: 1,
  status_codes: { '200': 1 },
});

/** The report of scenario `name`: measured with `s`, or, with null, one that could not start. */
export const report = (name: string, s: Stats | null): ScenarioReport => ({
  name,
  description: name,
  stats: s,
  failure: s ? null : 'could not start',
  problems: [],
});
