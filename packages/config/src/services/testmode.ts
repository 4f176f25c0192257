// The variables of services/testmode. The schema lives in this package rather than in the service so
// that the dev stack (which checks a stack's settings before it starts anything) and the deploy
// checks read the same schema without importing a service. The service reads it in src/env.ts.
import type { z } from 'zod';
import { baseServiceEnv } from '../index.ts';

/** Test mode reads only the variables every backend service reads. */
export const testmodeEnv = baseServiceEnv;
export type TestmodeEnv = z.output<typeof testmodeEnv>;
