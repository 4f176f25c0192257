import type { RunningServer, ServerOptions } from '@handoff/testkit';
import type { ScenarioContext } from '../types.ts';

/**
 * A server of the scenario's own (`startNats`, `startMongo`) in its data dir: stopped with the
 * scenario, and named in its progress.
 */
export async function ownServer<S extends RunningServer>(
  ctx: ScenarioContext,
  start: (options: ServerOptions) => Promise<S>,
): Promise<S> {
  const server = await start({ dataDir: ctx.dataDir, env: ctx.env });
  ctx.teardown(() => server.stop());
  ctx.progress(server.description);
  return server;
}
