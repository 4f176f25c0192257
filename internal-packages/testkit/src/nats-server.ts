import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  natsPasswords,
  natsServerConfig,
  type NatsClusterConfig,
  type NatsPasswords,
  type NatsTls,
} from './natsconf.ts';
import { freePort } from './ports.ts';
import {
  findBinary,
  fromEnv,
  portWasTaken,
  ServersUnavailableError,
  startContainer,
  startProcess,
  stopper,
  whilePortTaken,
  type RunningServer,
  type ServerOptions,
} from './servers.ts';

/** A NATS server with Handoff's users: `passwords` is absent for a server the caller runs. */
export interface NatsServer extends RunningServer {
  passwords?: NatsPasswords;
  /** The CA file clients need, when the server speaks TLS. */
  tlsCa?: string;
  /** Kills the server at once (SIGKILL), as a crashed node; cluster tests. */
  kill(): void;
  /** The pid of the nats-server we started while it runs (fault tests pause it); none of another's. */
  pids(): number[];
}

export interface NatsServerOptions extends ServerOptions {
  tls?: NatsTls;
  cluster?: NatsClusterConfig;
  /** The server's name; `handoff-<port>` by default. */
  serverName?: string;
  /** Where the users' passwords are kept; `<dataDir>/nats-users.json` by default. */
  passwordsFile?: string;
}

/**
 * nats-server with the generated configuration: the account HANDOFF, one user per service with
 * production's permissions (packages/config/src/nats-users.ts), passwords kept in the data dir.
 */
export async function startNats(options: NatsServerOptions): Promise<NatsServer> {
  const given = fromEnv(options, 'NATS_URL', 'NATS');
  if (given) return { ...given, kill: () => {}, pids: () => [] };
  const binary = await findBinary(['nats-server'], options.binDirs);
  if (binary) {
    const port = options.port ?? (await freePort());
    const storeDir = join(options.dataDir, 'jetstream');
    const passwords = natsPasswords(
      options.passwordsFile ?? join(options.dataDir, 'nats-users.json'),
    );
    const configFile = join(options.dataDir, 'nats-server.conf');
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(
      configFile,
      natsServerConfig({
        port,
        serverName: options.serverName ?? `handoff-${port}`,
        storeDir,
        passwords,
        ...(options.tls ? { tls: options.tls } : {}),
        ...(options.cluster ? { cluster: options.cluster } : {}),
      }),
      { mode: 0o600 },
    );
    const child = await startProcess(
      'nats-server',
      binary,
      ['-c', configFile],
      port,
      options.dataDir,
      process.env,
      // A cluster node is up once its route port is bound too (it exits if that port is taken).
      options.cluster ? /Listening for route connections on/ : undefined,
    );
    const scheme = options.tls ? 'tls' : 'nats';
    return {
      url: `${scheme}://127.0.0.1:${port}`,
      source: 'binary',
      description: `${binary} on port ${port}, data in ${storeDir}`,
      passwords,
      ...(options.tls ? { tlsCa: options.tls.ca } : {}),
      stop: stopper(child),
      kill: () => {
        child.kill('SIGKILL');
      },
      pids: () =>
        child.pid === undefined || child.exitCode !== null || child.signalCode !== null
          ? []
          : [child.pid],
    };
  }
  // Without accounts: a container cannot read the generated file without a bind mount, and the
  // permission tests then fail loudly (no passwords) instead of passing on an open server.
  const container = await startContainer(
    'NATS',
    'nats:2.12-alpine',
    ['-js'],
    4222,
    (host, port) => `nats://${host}:${port}`,
  );
  return { ...container, kill: () => {}, pids: () => [] };
}

export interface NatsCluster {
  /** The client URLs of every node, comma-separated: NATS_URL. */
  url: string;
  nodes: NatsServer[];
  passwords: NatsPasswords;
  stop(): Promise<void>;
}

interface ClusterOptions {
  dataDir: string;
  size: number;
  binDirs?: readonly string[];
  /** Picks each port; a free one by default. */
  pickPort?: () => Promise<number>;
}

/**
 * A JetStream cluster of `size` nats-servers on loopback, with the generated configuration and
 * one set of passwords; resolves once every node listens (JetStream elects its leaders after).
 *
 * Its 2 × `size` ports are free when picked and taken only when the nodes start: on a busy
 * machine another socket can take one in between (a bench run lost its 3-node stack to
 * "address already in use"). Then every node is stopped and the cluster starts again on fresh
 * ports ({@link whilePortTaken}). `pickPort` is for tests.
 */
export function startNatsCluster(options: ClusterOptions): Promise<NatsCluster> {
  return whilePortTaken(() => startClusterOnce(options));
}

async function startClusterOnce(options: ClusterOptions): Promise<NatsCluster> {
  const pickPort = options.pickPort ?? freePort;
  const clientPorts: number[] = [];
  const routePorts: number[] = [];
  for (let index = 0; index < options.size; index += 1) {
    clientPorts.push(await pickPort());
    routePorts.push(await pickPort());
  }
  const passwordsFile = join(options.dataDir, 'nats-users.json');
  const passwords = natsPasswords(passwordsFile);
  const started = await Promise.allSettled(
    clientPorts.map((port, index) =>
      startNats({
        dataDir: join(options.dataDir, `node-${index + 1}`),
        env: {},
        port,
        passwordsFile,
        serverName: `handoff-node-${index + 1}`,
        cluster: {
          name: 'handoff',
          port: routePorts[index] ?? 0,
          routes: routePorts.filter((_, other) => other !== index),
        },
        ...(options.binDirs ? { binDirs: options.binDirs } : {}),
      }),
    ),
  );
  const failed = started.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as unknown] : [],
  );
  const nodes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  if (failed.length > 0) {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    // A taken port first: the whole cluster then starts again on fresh ones.
    throw failed.find(portWasTaken) ?? failed[0];
  }
  if (nodes.some((node) => node.source !== 'binary')) {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    throw new ServersUnavailableError('nats-server (a binary, for a cluster)');
  }
  return {
    url: nodes.map((node) => node.url).join(','),
    nodes,
    passwords,
    stop: async () => {
      await Promise.allSettled(nodes.map((node) => node.stop()));
    },
  };
}
