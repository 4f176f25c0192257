// The registry: every scenario `npm run bench` runs, in order, and the ratios it reports.
// A new endpoint is one more entry here (and a file next to this one).
import type { RatioSpec, Scenario } from '../types.ts';
import { expressBare } from './express-bare.ts';
import { gatewayReadyz } from './gateway-readyz.ts';
import { mongoInsertOne } from './mongo-insert-one.ts';
import { natsRequestReply } from './nats-request-reply.ts';

export interface RegistryOptions {
  /** LOG_LEVEL of the services in the stack scenarios. */
  logLevel: string;
}

export function scenarios(options: RegistryOptions): Scenario[] {
  return [expressBare, natsRequestReply, mongoInsertOne, gatewayReadyz(options.logLevel)];
}

export const RATIOS: readonly RatioSpec[] = [
  { subject: 'gateway-readyz', baseline: 'express-bare' },
];
