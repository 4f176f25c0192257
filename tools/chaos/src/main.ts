// `npm run chaos`: two replicas of every service under a steady mixed load while processes die,
// the database restarts and NATS pauses; then the checks that nothing was lost. Prints a summary
// and one final line; exits 1 when a check failed (README, "Chaos").
import { randomInt } from 'node:crypto';
import { parseOptions, USAGE, UsageError } from './options.ts';
import { runChaos } from './run.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

let options;
try {
  options = parseOptions(process.argv.slice(2), () => randomInt(0, 2 ** 31));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`chaos: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
const result = await runChaos(options, say);
for (const line of result.lines) say(line);
process.exit(result.findings.length === 0 ? 0 : 1);
