import { callSubject } from '@handoff/bus';
import { BACKEND_SERVICES, HealthReply, subjects, type ReadinessReport } from '@handoff/contracts';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';

/**
 * What anyone may learn from `GET /readyz`: ready or not. Instance names, versions and latencies
 * map the deployment for an attacker (OWASP API9), so they are in `GET /v1/staff/health` only.
 */
export const PublicReadiness = z.object({ status: z.enum(['ready', 'not_ready']) });

/** The full report of this replica: every service over the bus, and whether it still accepts. */
export type ReadinessCheck = (callId: string) => Promise<ReadinessReport>;

export function createReadinessCheck(
  nc: NatsConnection,
  timeoutMs: number,
  isAccepting: () => boolean,
): ReadinessCheck {
  return async (callId) => {
    const report = await checkReadiness(nc, timeoutMs, callId);
    if (!isAccepting() || nc.isClosed()) report.status = 'not_ready';
    return report;
  };
}

/**
 * Asks every backend service for its health over the bus, all at once. A service that does not
 * answer within `timeoutMs`, has no responders, or reports a dependency down is named as down.
 */
export async function checkReadiness(
  nc: NatsConnection,
  timeoutMs: number,
  callId: string,
): Promise<ReadinessReport> {
  const entries = await Promise.all(
    BACKEND_SERVICES.map(async (service) => {
      const started = performance.now();
      try {
        const reply = await callSubject(nc, subjects.health(service), null, {
          timeoutMs,
          callId,
          reply: HealthReply,
        });
        const latency = Math.round((performance.now() - started) * 10) / 10;
        const up = reply.status === 'ok';
        return [
          service,
          {
            status: up ? 'up' : 'down',
            latency_ms: latency,
            instance: reply.instance,
            version: reply.version,
            ...(up ? {} : { error: `${reply.status}: ${JSON.stringify(reply.checks)}` }),
          },
        ] as const;
      } catch (error) {
        return [service, { status: 'down', error: (error as Error).message }] as const;
      }
    }),
  );
  const services = Object.fromEntries(entries);
  const ready = entries.every(([, entry]) => entry.status === 'up');
  return { status: ready ? 'ready' : 'not_ready', checked_at: new Date().toISOString(), services };
}
