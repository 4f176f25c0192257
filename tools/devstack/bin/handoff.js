#!/usr/bin/env node
// The `handoff` command's door, in plain JavaScript: a Node too old to run the TypeScript sources
// (type stripping came with Node 24) says which Node to use instead of failing with
// ERR_UNKNOWN_FILE_EXTENSION. Node 24 and later go straight on to src/cli.ts.
import { fileURLToPath } from 'node:url';
import { tooOldMessage } from './node-version.js';

const nodeBin = fileURLToPath(new URL('../../../.tools/node/bin', import.meta.url));
const tooOld = tooOldMessage(process.versions.node, nodeBin);
if (tooOld) {
  process.stderr.write(tooOld);
  process.exit(1);
}
const { main } = await import('../src/cli.ts');
await main();
