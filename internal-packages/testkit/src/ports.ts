import { createServer, Socket, type Server } from 'node:net';

/**
 * The ports {@link freePort} has given out in this process. The kernel may offer a port again as
 * soon as the probe that found it closes: NATS and PostgreSQL of one stack, asked for at once,
 * were once both given the same one (PostgreSQL could not listen, and its set-up reached NATS).
 */
const givenOut = new Set<number>();

/** How many probes {@link freePort} holds open looking for a port it has not given out yet. */
const FREE_PORT_PROBES = 50;

/** A listener that holds a port until it is closed: {@link freePort}'s probe. */
export type PortProbe = Pick<Server, 'address' | 'close'>;

/**
 * A port on 127.0.0.1 that nothing listens on, never one this process was given before. `probe`
 * (a listener on a port the kernel picks, by default) is there for the tests.
 */
export async function freePort(probe: () => Promise<PortProbe> = listenAnywhere): Promise<number> {
  // Every probe stays open until one finds a new port, so the kernel cannot offer it twice.
  const probes: PortProbe[] = [];
  try {
    for (let i = 0; i < FREE_PORT_PROBES; i += 1) {
      const held = await probe();
      probes.push(held);
      const address = held.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      if (port !== 0 && !givenOut.has(port)) {
        givenOut.add(port);
        return port;
      }
    }
    throw new Error(`no free port after ${FREE_PORT_PROBES} probes`);
  } finally {
    await Promise.all(
      probes.map((held) => new Promise<void>((resolve) => held.close(() => resolve()))),
    );
  }
}

function listenAnywhere(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Whether something listens on `port` of 127.0.0.1. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}
