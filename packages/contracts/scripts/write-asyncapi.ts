// Writes packages/contracts/asyncapi.json from the zod schemas (run through scripts/openapi.sh).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildAsyncApi } from '../src/asyncapi.ts';

export const ASYNCAPI_FILE = fileURLToPath(new URL('../asyncapi.json', import.meta.url));

writeFileSync(ASYNCAPI_FILE, `${JSON.stringify(buildAsyncApi(), null, 2)}\n`);
process.stdout.write(`wrote ${ASYNCAPI_FILE}\n`);
