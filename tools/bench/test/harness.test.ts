import { beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { runScenario, runScenarios } from '../src/harness.ts';
import type { Fixture, Scenario } from '../src/types.ts';
import { runOptions, tempDirPerTest } from './support/run.ts';

const tempDir = tempDirPerTest('bench-harness-test-');
let events: string[];

beforeEach(() => {
  events = [];
});

const options = () => runOptions(tempDir());

/** A fixture that records its setup and teardown, and its data dir while it is up. */
function fixture(name: string, fail = false): Fixture<{ dir: string }> {
  return {
    name,
    async setup(ctx) {
      events.push(`${name} up`);
      ctx.teardown(() => events.push(`${name} down`));
      if (fail) throw new Error('cannot start');
      return { dir: ctx.dataDir };
    },
  };
}

function scenario(name: string, uses: Fixture<{ dir: string }>[] = []): Scenario {
  return {
    name,
    description: name,
    uses,
    async setup(ctx) {
      const dirs: string[] = [];
      for (const shared of uses) dirs.push((await ctx.use(shared)).dir);
      events.push(`${name} measured`);
      for (const dir of dirs) expect(existsSync(dir)).toBe(true);
      return { kind: 'call', call: () => Promise.resolve() };
    },
  };
}

describe('runScenarios with a shared fixture', () => {
  it('starts it once, for the first scenario that uses it, and stops it after the last', async () => {
    const stack = fixture('stack');
    const reports = await runScenarios(
      [
        scenario('floor'),
        scenario('first', [stack]),
        scenario('second', [stack]),
        scenario('after'),
      ],
      options(),
    );
    expect(events).toEqual([
      'floor measured',
      'stack up',
      'first measured',
      'second measured',
      'stack down',
      'after measured',
    ]);
    expect(reports.map((report) => [report.name, report.failure, report.problems])).toEqual([
      ['floor', null, []],
      ['first', null, []],
      ['second', null, []],
      ['after', null, []],
    ]);
    expect(reports.every((report) => (report.stats?.count ?? 0) > 0)).toBe(true);
  });

  it('lets it settle after each user’s setup and before its load starts', async () => {
    const stack: Fixture<{ dir: string }> = {
      ...fixture('stack'),
      settle: () => {
        events.push('stack settled');
        return Promise.resolve();
      },
    };
    const measured = (name: string): Scenario => ({
      ...scenario(name, [stack]),
      warmupMs: 0,
      async setup(ctx) {
        await ctx.use(stack);
        events.push(`${name} set up`);
        return {
          kind: 'call',
          call: () => {
            if (events.at(-1) !== `${name} load`) events.push(`${name} load`);
            return Promise.resolve();
          },
        };
      },
    });
    await runScenarios([scenario('floor'), measured('first'), measured('second')], options());
    expect(events).toEqual([
      'floor measured',
      'stack up',
      'first set up',
      'stack settled',
      'first load',
      'second set up',
      'stack settled',
      'second load',
      'stack down',
    ]);
  });

  it('gives every scenario the same value, and removes its directory afterwards', async () => {
    const stack = fixture('stack');
    const seen: string[] = [];
    const user = (name: string): Scenario => ({
      name,
      description: name,
      uses: [stack],
      async setup(ctx) {
        seen.push((await ctx.use(stack)).dir);
        return { kind: 'call', call: () => Promise.resolve() };
      },
    });
    await runScenarios([user('a'), user('b')], options());
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(existsSync(seen[0] ?? '')).toBe(false);
  });

  it('fails every user of a fixture whose setup failed, without retrying it', async () => {
    const broken = fixture('broken', true);
    const reports = await runScenarios(
      [scenario('a', [broken]), scenario('b', [broken]), scenario('c')],
      options(),
    );
    expect(events).toEqual(['broken up', 'broken down', 'c measured']);
    expect(reports[0]?.failure).toContain('fixture broken');
    expect(reports[0]?.failure).toContain('cannot start');
    expect(reports[1]?.failure).toBe(reports[0]?.failure);
    expect(reports[2]?.failure).toBeNull();
  });

  it('reports a fixture teardown failure with the last scenario that used it', async () => {
    const leaky: Fixture<number> = {
      name: 'leaky',
      async setup(ctx) {
        ctx.teardown(() => {
          throw new Error('still running');
        });
        return 1;
      },
    };
    const user = (name: string): Scenario => ({
      name,
      description: name,
      uses: [leaky],
      async setup(ctx) {
        await ctx.use(leaky);
        return { kind: 'call', call: () => Promise.resolve() };
      },
    });
    const reports = await runScenarios([user('a'), user('b'), scenario('c')], options());
    expect(reports.map((report) => report.problems)).toEqual([
      [],
      ['leaky: teardown: Error: still running'],
      [],
    ]);
  });

  it('refuses a fixture the scenario does not list in `uses`', async () => {
    const stack = fixture('stack');
    const sneaky: Scenario = {
      name: 'sneaky',
      description: 'sneaky',
      async setup(ctx) {
        await ctx.use(stack);
        return { kind: 'call', call: () => Promise.resolve() };
      },
    };
    const [report] = await runScenarios([sneaky], options());
    expect(report?.failure).toContain('without listing it in `uses`');
    expect(events).toEqual([]);
  });

  it('runs nothing more once interrupted, and still stops what was started', async () => {
    const stack = fixture('stack');
    const abort = new AbortController();
    const interrupting: Scenario = {
      name: 'interrupting',
      description: 'interrupting',
      uses: [stack],
      async setup(ctx) {
        await ctx.use(stack);
        abort.abort();
        return { kind: 'call', call: () => Promise.resolve() };
      },
    };
    const reports = await runScenarios([interrupting, scenario('next', [stack])], {
      ...options(),
      signal: abort.signal,
    });
    expect(reports.map((report) => report.name)).toEqual(['interrupting']);
    expect(reports[0]?.failure).toBe('Error: interrupted');
    expect(events).toEqual(['stack up', 'stack down']);
  });
});

describe('runScenario on its own', () => {
  it('starts the fixtures it uses and stops them with it', async () => {
    const stack = fixture('stack');
    const report = await runScenario(scenario('alone', [stack]), options());
    expect(report.failure).toBeNull();
    expect(events).toEqual(['stack up', 'alone measured', 'stack down']);
  });
});

describe('the scenario context', () => {
  it('tells setup the run’s length: the measurement and the scenario’s own warm-up', async () => {
    const told: [number, number, number][] = [];
    const sized = (name: string, warmupMs?: number): Scenario => ({
      name,
      description: name,
      connections: 3,
      ...(warmupMs === undefined ? {} : { warmupMs }),
      async setup(ctx) {
        told.push([ctx.connections, ctx.durationMs, ctx.warmupMs]);
        return { kind: 'call', call: () => Promise.resolve() };
      },
    });
    await runScenarios([sized('run'), sized('own', 0)], { ...options(), warmupMs: 10 });
    expect(told).toEqual([
      [3, 20, 10],
      [3, 20, 0],
    ]);
  });

  it('gives setup the reports of the scenarios run before it, failed ones included', async () => {
    const seen: string[][] = [];
    const looking = (name: string, fail = false): Scenario => ({
      name,
      description: name,
      async setup(ctx) {
        seen.push(
          ctx.earlier.map((report) =>
            report.stats
              ? `${report.name} ${report.stats.count > 0 ? 'measured' : 'idle'}`
              : `${report.name} failed`,
          ),
        );
        if (fail) throw new Error('no');
        return { kind: 'call', call: () => Promise.resolve() };
      },
    });
    await runScenarios([looking('a'), looking('b', true), looking('c')], options());
    expect(seen).toEqual([[], ['a measured'], ['a measured', 'b failed']]);
    // On its own, a scenario has no earlier ones.
    await runScenario(looking('alone'), options());
    expect(seen.at(-1)).toEqual([]);
  });

  it('reads a scenario’s figures of the measured window around the measurement alone', async () => {
    const seen: string[] = [];
    let calls = 0;
    const watched: Scenario = {
      name: 'watched',
      description: 'watched',
      async setup(ctx) {
        seen.push('setup');
        ctx.teardown(() => seen.push('teardown'));
        return {
          kind: 'call',
          call: () => {
            calls += 1;
            return Promise.resolve();
          },
        };
      },
      measuring(ctx) {
        const warmup = calls;
        seen.push(`measuring after ${warmup} calls`);
        return Promise.resolve((measurement) => {
          ctx.figure({ name: 'calls since', value: measurement.ok, unit: 'calls' });
          // Called once the measurement ended: it counted every call since, and only those.
          seen.push(
            measurement.ok > 0 && measurement.ok === calls - warmup
              ? 'measured the calls since'
              : `measured ${measurement.ok} of ${calls - warmup} calls since`,
          );
          return Promise.resolve();
        });
      },
    };
    const report = await runScenario(watched, { ...options(), warmupMs: 10 });
    expect(report.failure).toBeNull();
    expect(seen[0]).toBe('setup');
    // After the warm-up's calls, which the measurement does not count.
    expect(seen[1]).toMatch(/^measuring after [1-9]\d* calls$/);
    expect(seen.slice(2)).toEqual(['measured the calls since', 'teardown']);
    // With the context setup had: its figures are the scenario's.
    expect(report.figures).toEqual([
      { name: 'calls since', value: report.stats?.count, unit: 'calls' },
    ]);
  });
});
