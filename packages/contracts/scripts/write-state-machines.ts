// Writes docs/state-machines.md from the state machines' data (run through scripts/openapi.sh).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stateMachinesDocument } from '../src/state-machines-doc.ts';

export const STATE_MACHINES_FILE = fileURLToPath(
  new URL('../../../docs/state-machines.md', import.meta.url),
);

writeFileSync(STATE_MACHINES_FILE, `${stateMachinesDocument()}\n`);
process.stdout.write(`wrote ${STATE_MACHINES_FILE}\n`);
