import { rmSync } from 'node:fs';
import type { RunningServer } from '../servers.ts';
import { RUNNING } from './global-setup.ts';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as Record<symbol, unknown>)[RUNNING] as
    { running: RunningServer[]; root: string } | undefined;
  if (!state) return;
  await Promise.allSettled(state.running.map((server) => server.stop()));
  if (!process.env.HANDOFF_KEEP_TEST_DATA) rmSync(state.root, { recursive: true, force: true });
}
