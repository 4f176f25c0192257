import {
  NATS_ACCOUNT,
  NATS_USERS,
  natsPermissions,
  type NatsUser,
} from '@handoff/config/nats-users';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The test user: everything in the Handoff account. Only the testkit's servers have it, so that
 * tests can play a forger or a staff tool; production has the users of NATS_GRANTS only.
 */
export const TEST_NATS_USER = 'test';

export type NatsPasswords = Record<NatsUser | typeof TEST_NATS_USER | 'sys', string>;

export interface NatsTls {
  /** PEM files of the server: its certificate, key, and the CA that clients' certificates chain to. */
  cert: string;
  key: string;
  ca: string;
  /** Ask clients for a certificate signed by `ca`. */
  verify?: boolean;
}

export interface NatsClusterConfig {
  name: string;
  port: number;
  /** The other servers' cluster ports. */
  routes: readonly number[];
}

export interface NatsServerConfigOptions {
  port: number;
  serverName: string;
  storeDir: string;
  passwords: NatsPasswords;
  tls?: NatsTls;
  cluster?: NatsClusterConfig;
}

/**
 * The passwords of a data dir: made once (random, 24 bytes) and kept, so restarts agree. A data
 * dir made before a user was added (a new service) gets that user's password added to its file.
 */
export function natsPasswords(file: string): NatsPasswords {
  const kept = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<NatsPasswords>)
    : {};
  const users = [...NATS_USERS, TEST_NATS_USER, 'sys'] as const;
  if (users.every((user) => kept[user])) return kept as NatsPasswords;
  const passwords = Object.fromEntries(
    users.map((user) => [user, kept[user] ?? randomBytes(24).toString('base64url')]),
  ) as NatsPasswords;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(passwords, null, 2)}\n`, { mode: 0o600 });
  return passwords;
}

/**
 * A nats-server configuration (JSON is valid NATS configuration) with the account HANDOFF and
 * one user per row of NATS_GRANTS, with the same permissions as the chart's accounts values.
 */
export function natsServerConfig(options: NatsServerConfigOptions): string {
  const users = [
    ...NATS_USERS.map((user) => ({
      user,
      password: options.passwords[user],
      permissions: natsPermissions(user),
    })),
    { user: TEST_NATS_USER, password: options.passwords[TEST_NATS_USER] },
  ];
  const config: Record<string, unknown> = {
    server_name: options.serverName,
    host: '127.0.0.1',
    port: options.port,
    jetstream: { store_dir: options.storeDir },
    accounts: {
      [NATS_ACCOUNT]: { jetstream: 'enabled', users },
      SYS: { users: [{ user: 'sys', password: options.passwords.sys }] },
    },
    system_account: 'SYS',
  };
  if (options.tls) {
    config.tls = {
      cert_file: options.tls.cert,
      key_file: options.tls.key,
      ca_file: options.tls.ca,
      verify: options.tls.verify ?? false,
    };
  }
  if (options.cluster) {
    config.cluster = {
      name: options.cluster.name,
      host: '127.0.0.1',
      port: options.cluster.port,
      routes: options.cluster.routes.map((port) => `nats://127.0.0.1:${port}`),
    };
  }
  return `${JSON.stringify(config, null, 2)}\n`;
}
