// Stack.faults(): what a fault test (the chaos run) may do to the servers of a stack, by who
// started them. The stack's own servers are covered by replicas.test.ts; here the servers a
// caller names (NATS_URL, MONGO_URL) beside a nats-server the stack would start.
import { afterAll, describe, expect, it } from '@jest/globals';
import { startMongo, startNats, type NatsServer } from '@handoff/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stackFaults } from '../src/stack.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-faults-'));
let ours: NatsServer | undefined;

afterAll(async () => {
  await ours?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const callers = {
  NATS_URL: 'nats://127.0.0.1:4222',
  MONGO_URL: 'mongodb://127.0.0.1:27017/',
};

describe('stackFaults', () => {
  it('has none when the caller runs NATS', async () => {
    const nats = await startNats({ dataDir, env: callers });
    const mongo = await startMongo({ dataDir, env: callers });
    expect(stackFaults(nats, mongo)).toBeUndefined();
  });

  it("pauses the stack's own nats-server, and restarts no database the caller runs", async () => {
    ours = await startNats({ dataDir: join(dataDir, 'nats'), env: {} });
    const mongo = await startMongo({ dataDir, env: callers });
    const faults = stackFaults(ours, mongo);
    expect(faults?.natsPids()).toEqual(ours.pids());
    expect(faults?.natsPids()).toHaveLength(1);
    expect(faults?.restartFerretDB).toBeUndefined();
    expect(faults?.restartPostgres).toBeUndefined();
  });
});
