import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Scenario } from '../types.ts';

const STOP_GRACE_MS = 5_000;

/** `GET /` answering `{"status":"ok"}` from express 5 with nothing else: the floor. */
export const expressBare: Scenario = {
  name: 'express-bare',
  description:
    'express 5 `GET /` answering a small JSON, in a worker thread of the bench process; autocannon',
  async setup(ctx) {
    const worker = new Worker(new URL('./express-app.ts', import.meta.url));
    ctx.teardown(async () => {
      const exited = once(worker, 'exit');
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    });
    const [message] = (await Promise.race([
      once(worker, 'message'),
      once(worker, 'error').then(([error]) => Promise.reject(error as Error)),
    ])) as [{ port: number }];
    return { kind: 'http', url: `http://127.0.0.1:${message.port}/`, expectStatus: 200 };
  },
};
