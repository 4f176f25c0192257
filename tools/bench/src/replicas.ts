// BENCH_REPLICAS=N: every scenario that runs on a stack runs again, after the others, on stacks of
// N processes of every service (`<scenario>-xN`), so that a run shows what scaling out costs or
// gives against the 1-replica figure of the same run.
import type { Load, RatioSpec, Scenario, ScenarioContext, ScenarioReport } from './types.ts';

/** What a scenario's name gets on stacks of `replicas`: `-x2` for 2. */
export function replicaSuffix(replicas: number): string {
  return `-x${replicas}`;
}

/** Whether the scenario runs on a stack of the services (a fixture that has gateways). */
export function runsOnStack(scenario: Scenario): boolean {
  return scenario.uses?.some((fixture) => fixture.gateways !== undefined) ?? false;
}

/**
 * The variants of the stack scenarios among `scenarios` for stacks of `replicas` (their fixtures
 * started afresh by a pool of that many replicas): named `<scenario>-x<N>`, each seeing the
 * earlier reports of its own variant under their plain names (a latency scenario finds its
 * peak's), and an HTTP load aimed at the stack's first gateway spread over every gateway, each
 * connection bound to one of them in turn. A call load spreads itself when its scenario gives its
 * client every gateway (`GatewayStack.urls`).
 */
export function scaledOut(scenarios: readonly Scenario[], replicas: number): Scenario[] {
  const suffix = replicaSuffix(replicas);
  return scenarios.filter(runsOnStack).map((scenario) => ({
    ...scenario,
    name: `${scenario.name}${suffix}`,
    description: `${scenario.description}; on ${replicas} replicas of every service`,
    async setup(ctx: ScenarioContext): Promise<Load> {
      const load = await scenario.setup({ ...ctx, earlier: ownVariant(ctx.earlier, suffix) });
      return spreadOver(load, await gatewaysOf(scenario, ctx));
    },
  }));
}

/** The reports of one variant's scenarios, named as their plain scenarios. */
export function ownVariant(reports: readonly ScenarioReport[], suffix: string): ScenarioReport[] {
  return reports.flatMap((report) =>
    report.name.endsWith(suffix) ? [{ ...report, name: report.name.slice(0, -suffix.length) }] : [],
  );
}

async function gatewaysOf(scenario: Scenario, ctx: ScenarioContext): Promise<readonly string[]> {
  for (const fixture of scenario.uses ?? []) {
    if (fixture.gateways) return fixture.gateways(await ctx.use(fixture));
  }
  return [];
}

/** An HTTP load on one of `gateways`, spread over all of them; any other load as it is. */
export function spreadOver(load: Load, gateways: readonly string[]): Load {
  if (load.kind !== 'http' || gateways.length < 2 || load.origins !== undefined) return load;
  return gateways.includes(new URL(load.url).origin) ? { ...load, origins: gateways } : load;
}

/** Each variant's figures against its plain scenario's of the same run. */
export function replicaRatios(reports: readonly ScenarioReport[], replicas: number): RatioSpec[] {
  const suffix = replicaSuffix(replicas);
  return reports
    .filter((report) => report.name.endsWith(suffix))
    .map((report) => ({
      subject: report.name,
      baseline: report.name.slice(0, -suffix.length),
      note: `${replicas} replicas of every service against 1, the load spread over the gateways; issue 36's target for writes and deliveries: ≥ 0.9x`,
    }));
}
