// What serves `providerOps`: providers and their keys for staff, and what a provider may see.
import { endpointsOf, type Endpoint } from '@handoff/bus';
import type { IntakeContext } from './context.ts';
import { providerKeyEndpoints } from './providers/provider-keys.ts';
import { providerRecordEndpoints } from './providers/records.ts';
import { providerUpdateEndpoints } from './providers/update.ts';
import { visibleRequestEndpoints } from './providers/visible-requests.ts';

export const providerEndpoints = (ctx: IntakeContext): Record<string, Endpoint> =>
  endpointsOf(ctx, [
    providerRecordEndpoints,
    providerUpdateEndpoints,
    providerKeyEndpoints,
    visibleRequestEndpoints,
  ]);
