import { startHealthServer, type HealthServer } from '@handoff/runtime';
import { randomUUID } from 'node:crypto';
import { countFromZero } from './http/limit-metrics.ts';
import type { ReadinessCheck } from './readiness.ts';

/**
 * The gateway's internal port (`HEALTH_PORT`), the same health server as every backend
 * service's: `/healthz` with the process's memory, and whatever else must never answer on the
 * public port. Its `/readyz` is the public one's readiness and says as little: ready or not.
 */
export async function startHealthPort(
  port: number | undefined,
  readiness: ReadinessCheck,
): Promise<HealthServer | undefined> {
  if (port === undefined) return undefined;
  // Its /metrics shows the limits' counters from the start, at 0 until they count.
  countFromZero();
  return startHealthServer(port, async () => {
    const { status } = await readiness(randomUUID());
    return { ok: status === 'ready', body: { status } };
  });
}
