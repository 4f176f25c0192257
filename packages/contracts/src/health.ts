import { z } from 'zod';

export const DependencyStatus = z.enum(['up', 'down']);

/** What a backend service answers on `handoff.<service>.health`. */
export const HealthReply = z.object({
  service: z.string(),
  version: z.string(),
  instance: z.string(),
  uptime_s: z.number().nonnegative(),
  status: z.enum(['ok', 'degraded', 'draining']),
  checks: z.record(z.string(), DependencyStatus),
});
export type HealthReply = z.infer<typeof HealthReply>;

/** The gateway's `/readyz` body. */
export const ReadinessReport = z.object({
  status: z.enum(['ready', 'not_ready']),
  checked_at: z.string(),
  services: z.record(
    z.string(),
    z.object({
      status: DependencyStatus,
      latency_ms: z.number().nonnegative().optional(),
      instance: z.string().optional(),
      version: z.string().optional(),
      error: z.string().optional(),
    }),
  ),
});
export type ReadinessReport = z.infer<typeof ReadinessReport>;

/** `GET /v1/staff/health`: the readiness report, and what the answering gateway process holds. */
export const StaffHealthReport = ReadinessReport.extend({
  gateway: z
    .object({
      long_polls: z.object({
        /** Long-polls waiting on this gateway process now. */
        waiting: z.number().int().nonnegative(),
        max_per_process: z.number().int().positive(),
        max_per_key: z.number().int().positive(),
      }),
    })
    .optional(),
});
export type StaffHealthReport = z.infer<typeof StaffHealthReport>;
