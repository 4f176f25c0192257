import { conversationFileOps } from '@handoff/contracts';
import {
  fileCollectionPlan,
  fileEndpoints,
  filesOf,
  startUploadSweep,
  type FileServiceDeps,
} from '@handoff/files';
import { packageVersion, runService, withSequence } from '@handoff/runtime';
import type { BootstrapOptions, ServiceDeps } from '@handoff/runtime';
import { readEnv, type Env } from './env.ts';
import { messageEndpoints } from './handlers/messages.ts';
import { testDataEndpoints } from './handlers/test-data.ts';
import { collections } from './store/collections.ts';

export const VERSION = packageVersion(import.meta.url);

/** The GridFS bucket (and S3 prefix) of message attachments. */
export const FILES_BUCKET = 'attachments';

export async function bootstrap(options: BootstrapOptions = {}) {
  const env = readEnv(options.env);
  let files: FileServiceDeps | undefined;
  const filesOfService = (deps: ServiceDeps<Env>) =>
    (files ??= filesOf(deps.env, deps.store, FILES_BUCKET, deps.logger));
  return runService({
    name: 'conversation',
    version: VERSION,
    description: 'The conversation of each request: messages in order, with author roles.',
    env,
    collections: { ...collections, ...fileCollectionPlan(FILES_BUCKET) },
    outbox: {
      collections: ['messages'],
      // Written once and never changed: their events stay in them after the publish.
      kept: ['messages'],
      // Intake owns requests, so it hands out each request's event sequence numbers.
      beforePublish: ({ sequences }) => withSequence(sequences),
    },
    endpoints: (deps) => {
      const owned = filesOfService(deps);
      return {
        ...messageEndpoints({ ...deps, files: owned.catalog }),
        ...testDataEndpoints({ ...deps, files: owned }),
        ...fileEndpoints(owned, {
          ops: conversationFileOps,
          // The gateway checked the caller is a party of the request before it asked.
          ownerOf: async (input) => ({
            request_id: input.request_id,
            integration_id: input.integration_id,
            purpose: 'message_attachment',
            uploaded_by: input.uploaded_by,
            ...(input.provider_id === undefined ? {} : { provider_id: input.provider_id }),
          }),
        }),
      };
    },
    background: async (deps) => {
      const owned = filesOfService(deps);
      await owned.store.prepare();
      return startUploadSweep(owned, deps.env);
    },
    logger: options.logger,
  });
}
