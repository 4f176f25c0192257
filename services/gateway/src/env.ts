import { durationMs, loadEnv, logLevel, natsUrl, port } from '@handoff/config';
import { z } from 'zod';

export const envSchema = z
  .object({
    PORT: port.default(8080),
    NATS_URL: natsUrl,
    LOG_LEVEL: logLevel.default('info'),
    /** How long `/readyz` waits for each service's health reply. */
    READINESS_TIMEOUT_MS: durationMs.default(1_000),
    SHUTDOWN_TIMEOUT_MS: durationMs.default(10_000),
    /** HS256 secret for staff JWTs (staff routes arrive with the access work). */
    STAFF_JWT_SECRET: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.STAFF_JWT_SECRET !== undefined && Buffer.byteLength(env.STAFF_JWT_SECRET) < 32) {
      ctx.addIssue({
        code: 'custom',
        path: ['STAFF_JWT_SECRET'],
        message: 'must be at least 32 bytes (256 bits) for HS256',
      });
    }
    if (env.READINESS_TIMEOUT_MS >= env.SHUTDOWN_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['READINESS_TIMEOUT_MS'],
        message: 'must be shorter than SHUTDOWN_TIMEOUT_MS',
      });
    }
  });
export type Env = z.output<typeof envSchema>;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('gateway', envSchema, source);
