// Writes services/gateway/openapi.json from the route table (run through scripts/openapi.sh).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readEnv } from '../env.ts';
import { gatewayRoutes } from '../routes/index.ts';
import { buildOpenApi } from './document.ts';

const file = fileURLToPath(new URL('../../openapi.json', import.meta.url));

// The defaults of every setting, whatever this shell's environment says, so that the committed
// document does not depend on who generated it.
const env = readEnv({ NATS_URL: 'nats://127.0.0.1:4222' });
// Only the route table is needed here, never an answer.
const notServed = () => Promise.reject(new Error('the document generator serves no calls'));
writeFileSync(file, `${JSON.stringify(buildOpenApi(gatewayRoutes(env, notServed)), null, 2)}\n`);
process.stdout.write(`wrote ${file}\n`);
