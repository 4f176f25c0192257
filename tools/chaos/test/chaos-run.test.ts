// The 2-minute chaos run of `npm test`: two replicas of every service under load while replicas
// are killed, FerretDB and PostgreSQL restart, NATS pauses and an endpoint stops answering.
// Nothing acknowledged may be lost, duplicates stay within the bound, every check passes.
import { describe, expect, it } from '@jest/globals';
import { FAULT_KINDS } from '../src/faults.ts';
import { runChaos } from '../src/run.ts';

const MINUTES = Number(process.env.CHAOS_TEST_MINUTES ?? 2);
const SEED = Number(process.env.CHAOS_TEST_SEED ?? 20261206);

describe('npm run chaos, 2 minutes', () => {
  it('loses nothing acknowledged while replicas die, the database restarts and NATS pauses', async () => {
    const lines: string[] = [];
    const result = await runChaos(
      { minutes: MINUTES, seed: SEED, replicas: 2, faults: FAULT_KINDS, soak: false },
      (line) => lines.push(line),
    );
    process.stdout.write(`${[...lines, ...result.lines].join('\n')}\n`);
    expect(result.findings).toEqual([]);
    expect(result.lost).toBe(0);
    expect(result.acknowledged).toBeGreaterThan(100);
    expect(result.duplicates).toBeLessThanOrEqual(result.bound);
    // Every kind of fault comes once first (a seeded order), then by weight.
    expect(new Set(result.faults.map((fault) => fault.kind))).toEqual(new Set(FAULT_KINDS));
    expect(result.lines.at(-1)).toMatch(
      /^chaos: \d+ acknowledged writes, 0 lost, \d+ duplicate deliveries \(bound \d+\), \d+ faults, seed \d+$/,
    );
  }, 900_000);
});
