// The bare express 5 server of the `express-bare` scenario, run in a worker thread of the bench
// process so that it has an event loop of its own and does not share one with autocannon.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';

const port = parentPort;
if (!port) throw new Error('express-app.ts runs as a worker thread');

const app = express();
// As the gateway does, so that the comparison is about what the gateway adds.
app.disable('x-powered-by');
app.set('etag', false);
app.get('/', (_req, res) => {
  res.json({ status: 'ok' });
});

const server = app.listen(0, '127.0.0.1', () => {
  port.postMessage({ port: (server.address() as AddressInfo).port });
});
server.keepAliveTimeout = 5_000;

port.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  server.close(() => port.close());
  server.closeAllConnections();
});
