// `npm start`'s command line (node tools/devstack/src/main.ts [options]); its other settings are
// variables (README, "Environment variables").
import { parseArgs } from 'node:util';
import { MAX_STACK_REPLICAS, StackError } from './stack.ts';

export const START_HELP = `Usage: npm start [-- options]

Starts NATS, the database, Mailpit and every Handoff service on this machine, until Ctrl-C.

  --replicas N        processes of every service, 1 to ${MAX_STACK_REPLICAS} (default: $STACK_REPLICAS, else 1)
  -h, --help          this help

Its settings are variables: DATA_DIR, PORT, LOG_LEVEL, STACK_QUIET, STACK_REPLICAS, TRACING
(TRACING=jaeger also starts Jaeger and sends every service's spans there; README, "Environment
variables").`;

export type StartArgs = { help: true } | { help: false; replicas: number | undefined };

/** The options of `npm start`; a bad one throws a {@link StackError} that names it. */
export function parseStartArgs(argv: readonly string[]): StartArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { replicas: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new StackError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };
  if (values.replicas === undefined) return { help: false, replicas: undefined };
  const replicas = /^\d+$/.test(values.replicas) ? Number(values.replicas) : NaN;
  if (!(replicas >= 1 && replicas <= MAX_STACK_REPLICAS)) {
    throw new StackError(
      `--replicas must be a whole number from 1 to ${MAX_STACK_REPLICAS}, not "${values.replicas}"`,
    );
  }
  return { help: false, replicas };
}
