import { startNats, TEST_NATS_USER } from '@handoff/testkit';
import { connect } from '@nats-io/transport-node';
import type { Scenario } from '../types.ts';
import { ownServer } from './own-server.ts';

const SUBJECT = 'bench.echo';
const PAYLOAD = JSON.stringify({ ping: 1 });
const TIMEOUT_MS = 5_000;

/** A bus round trip with nothing on top: one request, one plain subscriber's reply. */
export const natsRequestReply: Scenario = {
  name: 'nats-request-reply',
  description:
    'NATS request-reply on a real nats-server; a plain subscriber in this process echoes; closed loop',
  async setup(ctx) {
    const server = await ownServer(ctx, startNats);

    // The responder and the requesters on connections of their own, as two services would be.
    // The testkit's all-access user: the bench subject belongs to no service.
    const credentials = server.passwords
      ? { user: TEST_NATS_USER, pass: server.passwords[TEST_NATS_USER] }
      : {};
    const responder = await connect({
      servers: server.url,
      ...credentials,
      name: 'bench-responder',
    });
    ctx.teardown(() => responder.close());
    const subscription = responder.subscribe(SUBJECT, {
      callback: (error, msg) => {
        if (!error) msg.respond(msg.data);
      },
    });
    ctx.teardown(() => subscription.unsubscribe());
    await responder.flush();

    const requester = await connect({
      servers: server.url,
      ...credentials,
      name: 'bench-requester',
    });
    ctx.teardown(() => requester.close());
    return {
      kind: 'call',
      call: () => requester.request(SUBJECT, PAYLOAD, { timeout: TIMEOUT_MS }),
    };
  },
};
