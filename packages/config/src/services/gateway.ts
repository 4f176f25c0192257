// The variables of services/gateway. The schema lives in this package rather than in the service so
// that the dev stack (which checks a stack's settings before it starts anything) and the deploy
// checks read the same schema without importing a service. The service reads it in src/env.ts.
import { FILE_LIMITS, UPDATES_LIMITS } from '@handoff/contracts';
import { z } from 'zod';
import { durationMs, logLevel, natsClientEnv, natsUrl, port } from '../index.ts';

const perMinute = z.coerce
  .number({ error: 'must be a whole number of requests per minute' })
  .int('must be a whole number of requests per minute')
  .min(1, 'must be at least 1')
  .max(1_000_000, 'must be at most 1000000');

/**
 * `TRUST_PROXY` as Express's `trust proxy`. `true` (or `yes`, `1`) trusts one hop: the client is
 * the address the load balancer saw, the last `X-Forwarded-For` entry. Trusting every hop would
 * take the first entry, which the client writes itself, so anyone could pick a new address per
 * call and slip past every per-address limit. A number trusts that many hops; anything else is
 * a comma-separated list of proxy addresses, CIDRs or Express's names (`loopback`, `uniquelocal`).
 */
const trustProxy = z
  .string()
  .trim()
  .min(1)
  .transform((value): false | number | string[] => {
    const lower = value.toLowerCase();
    if (['false', 'no', '0'].includes(lower)) return false;
    if (['true', 'yes'].includes(lower)) return 1;
    if (/^[0-9]+$/.test(value)) return Number(value);
    return value.split(',').map((entry) => entry.trim());
  });

export const gatewayEnv = z
  .object({
    PORT: port.default(8080),
    /**
     * The internal port of `/healthz` (with the process's memory) and `/readyz` for probes,
     * never published: what only operators may read answers there, not on `PORT`. Unset: none.
     */
    HEALTH_PORT: port.optional(),
    NATS_URL: natsUrl,
    ...natsClientEnv,
    LOG_LEVEL: logLevel.default('info'),
    /** How long `/readyz` waits for each service's health reply. */
    READINESS_TIMEOUT_MS: durationMs.default(1_000),
    /** How long a call waits for a backend service before answering 503. */
    BUS_TIMEOUT_MS: durationMs.default(3_000),
    /**
     * How long a call waits for its rate-limit or auth-failure counter; past it the call is let
     * through (the limiter fails open) and a warning is logged.
     */
    RATE_LIMIT_TIMEOUT_MS: durationMs.default(250),
    SHUTDOWN_TIMEOUT_MS: durationMs.default(10_000),
    /** How long a client may take to send the request line and headers (slowloris). */
    HTTP_HEADERS_TIMEOUT_MS: durationMs.default(10_000),
    /**
     * How long a client may take to send the whole request, body included; an upload instead may
     * stall (send nothing) for this long at most.
     */
    HTTP_REQUEST_TIMEOUT_MS: durationMs.default(30_000),
    /** How long a file's upload may take in all (100 MiB in 15 minutes is 114 KiB/s). */
    HTTP_UPLOAD_TIMEOUT_MS: durationMs.default(900_000),
    /** HS256 secret for staff JWTs. */
    STAFF_JWT_SECRET: z.string().optional(),
    /** JWKS of the staff identity provider; when set, only asymmetric staff tokens are accepted. */
    STAFF_JWKS_URL: z.url({ protocol: /^https?$/ }).optional(),
    STAFF_JWT_ISSUER: z.string().min(1).optional(),
    STAFF_JWT_AUDIENCE: z.string().min(1).optional(),
    STAFF_JWT_CLOCK_SKEW_S: z.coerce.number().int().min(0).max(300).default(30),
    /** Requests per minute per agent key, shared by every gateway replica. */
    RATE_LIMIT_PER_MINUTE: perMinute.default(600),
    /** Requests per minute per client address on public routes. */
    PUBLIC_RATE_LIMIT_PER_MINUTE: perMinute.default(60),
    /** Failed authentications per minute per client address before further attempts get 429. */
    AUTH_FAILURE_LIMIT_PER_MINUTE: perMinute.default(20),
    /** How long a verified key is trusted without asking again (revocations arrive sooner, over the bus). */
    ACCESS_CACHE_TTL_MS: durationMs.default(30_000),
    /** A JSON file of service categories that replaces the built-in list. */
    SERVICE_CATEGORIES_FILE: z.string().min(1).optional(),
    /** Which proxies' `X-Forwarded-For` entries name the client; see {@link trustProxy}. */
    TRUST_PROXY: trustProxy.default(false),
    /** Waiting long-polls (`GET /v1/request/{id}/events`) this process holds at once; past it, 429. */
    UPDATES_MAX_WAITERS_PER_PROCESS: z.coerce
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(UPDATES_LIMITS.maxWaitersPerProcess),
    /** Waiting long-polls one agent key holds at once on this process; past it, 429. */
    UPDATES_MAX_WAITERS_PER_KEY: z.coerce
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(UPDATES_LIMITS.maxWaitersPerKey),
    /** The staff console's build to serve at /console; apps/console/dist when unset. */
    CONSOLE_DIR: z.string().min(1).optional(),
    /** The providers' workspace's build to serve at /workspace; apps/workspace/dist when unset. */
    WORKSPACE_DIR: z.string().min(1).optional(),
    /**
     * Whether the workspace's session cookie is `Secure` (and named `__Host-handoff_session`):
     * `auto` (the default) when the call came over TLS, directly or as the trusted proxy says
     * (`TRUST_PROXY`); `true` always, `false` never (plain-http development only).
     */
    WORKSPACE_COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
    /** Sign-in links asked for per minute per client address; past it, 429. */
    SIGN_IN_PER_MINUTE_PER_ADDRESS: perMinute.default(10),
    /**
     * Base64 of 32 bytes: encrypts (AES-256-GCM) the request tokens the A2A binding holds for the
     * integrations whose tasks they are (docs/a2a.md). Unset: no A2A binding (no agent card).
     */
    A2A_TOKENS_KEY: z
      .string()
      .refine((value) => Buffer.from(value, 'base64').length === 32, {
        message: 'must be base64 of 32 bytes (openssl rand -base64 32)',
      })
      .optional(),
    /**
     * Base64 of 32 bytes: signs (HMAC-SHA256) the files' download URLs, so every replica must
     * share it. Unset: a key made at start, whose URLs only this process accepts (docs/files.md).
     */
    FILE_URLS_KEY: z
      .string()
      .refine((value) => Buffer.from(value, 'base64').length === 32, {
        message: 'must be base64 of 32 bytes (openssl rand -base64 32)',
      })
      .optional(),
    /** How long a file's download URL works. */
    FILE_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(10)
      .max(7 * 86_400)
      .default(FILE_LIMITS.downloadUrlTtlSeconds),
  })
  .superRefine((env, ctx) => {
    if (env.STAFF_JWT_SECRET !== undefined && Buffer.byteLength(env.STAFF_JWT_SECRET) < 32) {
      ctx.addIssue({
        code: 'custom',
        path: ['STAFF_JWT_SECRET'],
        message: 'must be at least 32 bytes (256 bits) for HS256',
      });
    }
    if (env.STAFF_JWT_SECRET !== undefined && env.STAFF_JWKS_URL !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['STAFF_JWKS_URL'],
        message: 'set either STAFF_JWT_SECRET (HS256) or STAFF_JWKS_URL (asymmetric), not both',
      });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not be longer than HTTP_REQUEST_TIMEOUT_MS',
      });
    }
    if (env.HTTP_REQUEST_TIMEOUT_MS > env.HTTP_UPLOAD_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_REQUEST_TIMEOUT_MS'],
        message: 'must not be longer than HTTP_UPLOAD_TIMEOUT_MS',
      });
    }
    if (env.UPDATES_MAX_WAITERS_PER_KEY > env.UPDATES_MAX_WAITERS_PER_PROCESS) {
      ctx.addIssue({
        code: 'custom',
        path: ['UPDATES_MAX_WAITERS_PER_KEY'],
        message: 'must not be more than UPDATES_MAX_WAITERS_PER_PROCESS',
      });
    }
    if (env.HEALTH_PORT !== undefined && env.HEALTH_PORT !== 0 && env.HEALTH_PORT === env.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['HEALTH_PORT'],
        message: 'must differ from PORT: the health port is never the public one',
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
export type GatewayEnv = z.output<typeof gatewayEnv>;
