import { z } from 'zod';

/** Raised when the environment does not satisfy a service's schema; the message lists every problem. */
export class EnvError extends Error {
  readonly issues: readonly string[];

  constructor(service: string, issues: readonly string[]) {
    super(`${service}: invalid environment\n${issues.map((line) => `  - ${line}`).join('\n')}`);
    this.name = 'EnvError';
    this.issues = issues;
  }
}

/**
 * Parses `source` (normally `process.env`) with `schema`. Empty strings count as unset, so that
 * `FOO=` in a compose file or ConfigMap falls back to the default instead of failing oddly.
 */
export function loadEnv<S extends z.ZodType>(
  service: string,
  schema: S,
  source: Record<string, string | undefined> = process.env,
): z.output<S> {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const missing = issue.path.length === 1 && !(String(issue.path[0]) in cleaned);
    return `${name}: ${missing ? 'is required' : issue.message}`;
  });
  throw new EnvError(service, issues);
}

/** Boolean variables written the way operators write them: true/false/1/0/yes/no. */
export const envBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const PORT_MESSAGE = 'must be a port number (0-65535)';
export const port = z.coerce
  .number({ error: PORT_MESSAGE })
  .int(PORT_MESSAGE)
  .min(0, PORT_MESSAGE)
  .max(65_535, PORT_MESSAGE);

const DURATION_MESSAGE = 'must be a whole number of milliseconds above 0';
export const durationMs = z.coerce
  .number({ error: DURATION_MESSAGE })
  .int(DURATION_MESSAGE)
  .positive(DURATION_MESSAGE);

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const natsUrl = z
  .string()
  .refine(
    (value) => value.split(',').every((part) => /^(nats|tls|wss?):\/\/[^\s]+$/.test(part.trim())),
    {
      message: 'must be a nats://, tls:// or ws(s):// URL (comma-separated for a cluster)',
    },
  );

export const mongoUrl = z.string().refine((value) => /^mongodb(\+srv)?:\/\/[^\s]+$/.test(value), {
  message: 'must be a mongodb:// or mongodb+srv:// connection string',
});

const nonEmpty = z.string().min(1);

/**
 * How a process authenticates to NATS and how many copies its streams keep; read by all seven
 * services. Each service has its own user (`NATS_USER` = the service name, the table in
 * `packages/config/src/nats-users.ts`), so the server enforces what it may publish and call.
 * Unset user and password connect anonymously, which only a server without accounts accepts.
 */
export const natsClientEnv = {
  NATS_USER: nonEmpty.optional(),
  NATS_PASSWORD: nonEmpty.optional(),
  /** PEM file of the CA that signed the NATS servers' certificates; turns TLS on. */
  NATS_TLS_CA: nonEmpty.optional(),
  /** PEM client certificate and key, for servers that verify clients (`verify: true`). */
  NATS_TLS_CERT: nonEmpty.optional(),
  NATS_TLS_KEY: nonEmpty.optional(),
  /**
   * Copies of each JetStream stream and bucket this process creates: 1 on one server, 3 on a
   * 3-node cluster (one node may be lost). At most the number of servers.
   */
  NATS_STREAM_REPLICAS: z.coerce
    .number({ error: 'must be 1, 3 or 5' })
    .int('must be 1, 3 or 5')
    .refine((value) => value === 1 || value === 3 || value === 5, 'must be 1, 3 or 5')
    .default(1),
};
export type NatsClientEnv = z.output<z.ZodObject<typeof natsClientEnv>>;

/** Variables that every backend service reads. Each service extends this with its own. */
export const baseServiceEnv = z.object({
  NATS_URL: natsUrl,
  ...natsClientEnv,
  MONGO_URL: mongoUrl,
  MONGO_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/, 'letters, digits, _ and - only')
    .default('handoff'),
  HEALTH_PORT: port.default(9090),
  LOG_LEVEL: logLevel.default('info'),
  SHUTDOWN_TIMEOUT_MS: durationMs.default(10_000),
  /**
   * `true`: on FerretDB, each document's read-modify-writes take turns across processes too
   * (a lock document per write), as several replicas of a service there need; ignored on
   * MongoDB, whose updates are atomic (`packages/store/src/locks.ts`).
   */
  STORE_LOCKS: envBoolean.default(false),
  /**
   * A process that cannot reach its database for this long stops with exit code 1, for its
   * supervisor to start afresh (`packages/runtime/src/db-watchdog.ts`).
   */
  DB_LOST_EXIT_MS: durationMs.default(60_000),
});
export type BaseServiceEnv = z.output<typeof baseServiceEnv>;
