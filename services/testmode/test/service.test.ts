import { describeBackendService } from '@handoff/service-suites';
import { bootstrap } from '../src/bootstrap.ts';
import { collections } from '../src/store/collections.ts';

describeBackendService('testmode', (env) => bootstrap({ env }), collections);
