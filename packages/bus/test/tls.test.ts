import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@handoff/observability';
import {
  makeTestCertificates,
  startNats,
  testServers,
  type NatsServer,
  type TestCertificates,
} from '@handoff/testkit';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { connectBus, ensureStreams, natsConnectionOptions } from '../src/index.ts';

// NATS over TLS with a CA made for this run, as a deployment with a private CA runs it: the
// server verifies client certificates too, and still asks for the user's password.

const logger = createLogger({ service: 'tls-test', version: '0', level: 'silent' });
let certs: TestCertificates;
let server: NatsServer;

beforeAll(async () => {
  const dir = join(testServers().dataDir, `tls-${process.pid}`);
  certs = makeTestCertificates(join(dir, 'certs'));
  server = await startNats({
    dataDir: join(dir, 'nats'),
    env: {},
    tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca, verify: true },
  });
});

afterAll(async () => {
  await server.stop();
});

const intake = () => ({
  url: server.url,
  name: 'tls-test',
  logger,
  user: 'intake',
  password: server.passwords?.intake,
});

describe('NATS over TLS', () => {
  it('connects with NATS_TLS_CA and a client certificate, and uses JetStream', async () => {
    expect(server.url).toMatch(/^tls:\/\//);
    const bus = await connectBus({
      ...intake(),
      tlsCa: certs.ca,
      tlsCert: certs.clientCert,
      tlsKey: certs.clientKey,
    });
    try {
      await ensureStreams(bus.jsm);
      const ack = await bus.js.publish(
        'handoff.events.request.created',
        JSON.stringify({ over: 'tls' }),
      );
      expect(ack.stream).toBe('HANDOFF_EVENTS');
    } finally {
      await bus.nc.close();
    }
  });

  it('refuses a server whose certificate no trusted CA signed (NATS_TLS_CA unset)', async () => {
    await expect(
      connectBus({ ...intake(), tlsCert: certs.clientCert, tlsKey: certs.clientKey }),
    ).rejects.toThrow(/certificate|self.signed|TLS/i);
  });

  it('is refused without a client certificate when the server verifies clients', async () => {
    // The server ends the handshake; a short connect timeout keeps the test quick.
    const options = natsConnectionOptions({ ...intake(), tlsCa: certs.ca });
    await expect(connect({ ...options, timeout: 3_000 })).rejects.toThrow();
  });

  it('refuses half a client certificate before connecting', async () => {
    await expect(
      connectBus({ ...intake(), tlsCa: certs.ca, tlsCert: certs.clientCert }),
    ).rejects.toThrow('NATS_TLS_CERT and NATS_TLS_KEY must be set together');
  });
});
