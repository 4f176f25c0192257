// `npm run chaos -- --minutes 3 --seed 7 --replicas 2 --faults kill,nats-pause --soak`
import { FAULT_KINDS, type FaultKind } from './faults.ts';

export interface ChaosOptions {
  /** How long the load and the faults run (the drain and the checks come after). */
  minutes: number;
  /** Seeds the schedule of faults and the load's choices; a random one unless given. */
  seed: number;
  /** Processes of every service. */
  replicas: number;
  faults: readonly FaultKind[];
  /** Records each process's RSS, heap and descriptors, and fails on growth (`--soak`). */
  soak: boolean;
}

export const USAGE = `Usage: npm run chaos -- [--minutes N] [--seed S] [--replicas N] [--faults LIST] [--soak]
  --minutes N    how long the load and the faults run (default 2; decimals allowed)
  --seed S       a whole number: the same seed replays the same schedule (default: random)
  --replicas N   processes of every service, 1 to 8 (default 2)
  --faults LIST  comma-separated kinds, "all" (default) or "none": ${FAULT_KINDS.join(', ')}
  --soak         record each process's RSS, heap and open descriptors every 10 s; fail on growth`;

export class UsageError extends Error {}

export function parseOptions(argv: readonly string[], randomSeed: () => number): ChaosOptions {
  const options: ChaosOptions = {
    minutes: 2,
    seed: randomSeed(),
    replicas: 2,
    faults: FAULT_KINDS,
    soak: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => {
      const given = inline ?? argv[++i];
      if (given === undefined || given === '') throw new UsageError(`${flag} needs a value`);
      return given;
    };
    switch (flag) {
      case '--minutes':
        options.minutes = number(flag, value(), 0.1, 24 * 60, false);
        break;
      case '--seed':
        options.seed = number(flag, value(), 0, 2 ** 32 - 1, true);
        break;
      case '--replicas':
        options.replicas = number(flag, value(), 1, 8, true);
        break;
      case '--faults':
        options.faults = faultList(value());
        break;
      case '--soak':
        options.soak = true;
        break;
      default:
        throw new UsageError(`unknown argument ${arg}`);
    }
  }
  return options;
}

function number(flag: string, text: string, min: number, max: number, whole: boolean): number {
  const value = Number(text);
  if (
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (whole && !Number.isInteger(value))
  ) {
    throw new UsageError(
      `${flag} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}`,
    );
  }
  return value;
}

function faultList(text: string): FaultKind[] {
  if (text === 'all') return [...FAULT_KINDS];
  if (text === 'none') return [];
  const kinds = text.split(',').map((kind) => kind.trim());
  for (const kind of kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(
        `--faults: unknown kind "${kind}" (${FAULT_KINDS.join(', ')}, all, none)`,
      );
    }
  }
  return [...new Set(kinds)] as FaultKind[];
}
