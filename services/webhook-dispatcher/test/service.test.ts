import { describeBackendService } from '@handoff/service-suites';
import { randomBytes } from 'node:crypto';
import { bootstrap } from '../src/bootstrap.ts';
import { collections } from '../src/store/collections.ts';

const WEBHOOK_SECRETS_KEY = randomBytes(32).toString('base64');

describeBackendService(
  'webhook-dispatcher',
  (env) => bootstrap({ env: { WEBHOOK_SECRETS_KEY, ...env } }),
  collections,
);
