import { packageVersion, runAuditedService, stopInReverse } from '@handoff/runtime';
import type { BootstrapOptions } from '@handoff/runtime';
import { createContext, type PaymentContext } from './handlers/context.ts';
import { deadlineEndpoints, runSweeps, startSweeps, sweepDeadlines } from './handlers/deadlines.ts';
import { movePayment, moveRequest, type PaymentMove, type RequestMove } from './handlers/moves.ts';
import { startRequestClosureConsumer } from './handlers/request-closure.consumer.ts';
import { testClockEndpoints } from './handlers/test-clocks.ts';
import type { PaymentAction, PaymentRequestAction } from './domain/states.ts';
import { readEnv } from './env.ts';
import { paymentRequestEndpoints } from './handlers/payment-requests.ts';
import { paymentEndpoints, recoverPayments } from './handlers/payments.ts';
import { testDataEndpoints } from './handlers/test-data.ts';
import { createProcessor } from './adapters/index.ts';
import { collections, PAYMENT_REQUESTS, PAYMENTS } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

export async function bootstrap(options: BootstrapOptions = {}) {
  const env = readEnv(options.env);
  const processor = createProcessor(env, VERSION);
  let context: PaymentContext | undefined;
  const running = await runAuditedService({
    name: 'payments',
    version: VERSION,
    description: 'Payment requests proposed by agents, staff approval, and payments.',
    env,
    collections,
    outbox: [PAYMENT_REQUESTS, PAYMENTS],
    endpoints: (deps) => {
      const ctx = createContext({ ...deps, processor });
      context = ctx;
      return {
        ...paymentRequestEndpoints(ctx),
        ...paymentEndpoints(ctx),
        ...deadlineEndpoints(ctx),
        ...testDataEndpoints(ctx),
        ...testClockEndpoints(ctx),
      };
    },
    // The sweeps, and the consumer that settles a closed request's pending payment requests.
    background: async () => {
      const ctx = required(context);
      return stopInReverse(startSweeps(ctx), await startRequestClosureConsumer(ctx));
    },
    logger: options.logger,
  });
  const ctx = required(context);
  return Object.assign(running, {
    /** The background work, callable with a chosen clock (tests pass a future `now`). */
    sweeps: {
      run: (now?: Date) => runSweeps(ctx, now),
      deadlines: (now?: Date) => sweepDeadlines(ctx, now),
      recover: (now?: Date) => recoverPayments(ctx, now),
      /** Waits for charges still running after their approval answered. */
      idle: () => ctx.idle(),
    },
    /** The machines' moves as the handlers make them, for actions no operation exposes. */
    moves: {
      request: (id: string, action: PaymentRequestAction, mover: RequestMove) =>
        moveRequest(ctx, id, action, mover),
      payment: (id: string, action: PaymentAction, mover: PaymentMove) =>
        movePayment(ctx, id, action, mover),
    },
  });
}

function required(context: PaymentContext | undefined): PaymentContext {
  if (!context) throw new Error('payments: the endpoints were not built');
  return context;
}
