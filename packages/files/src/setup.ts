// A service's files from its environment (FILES_*): the store its bytes go to, the limits, and
// the sweep of unfinished uploads that runs every minute while the service does.
import type { Logger } from '@handoff/observability';
import type { Store } from '@handoff/store';
import type { Db } from 'mongodb';
import { catalogOf } from './catalog.ts';
import { sweepUploads, type FileServiceDeps } from './endpoints.ts';
import { createGridFsStore } from './gridfs.ts';
import { createS3FileStore } from './s3.ts';
import type { FileStore } from './store.ts';

/** The FILES_* variables (@handoff/config's filesEnvShape), as a service has read them. */
export interface FilesEnv {
  FILES_STORE: 'gridfs' | 's3';
  FILES_MAX_FILE_BYTES: number;
  FILES_MAX_REQUEST_BYTES: number;
  FILES_MAX_PER_REQUEST: number;
  FILES_UPLOAD_TIMEOUT_SECONDS: number;
  FILES_S3_ENDPOINT?: string | undefined;
  FILES_S3_REGION: string;
  FILES_S3_BUCKET?: string | undefined;
  FILES_S3_PREFIX: string;
  FILES_S3_ACCESS_KEY_ID?: string | undefined;
  FILES_S3_SECRET_ACCESS_KEY?: string | undefined;
  FILES_S3_FORCE_PATH_STYLE: boolean;
}

export function openFileStore(env: FilesEnv, db: Db, bucket: string): FileStore {
  if (env.FILES_STORE === 'gridfs') return createGridFsStore({ db, bucket });
  if (env.FILES_S3_BUCKET === undefined) throw new Error('FILES_S3_BUCKET is required for s3');
  return createS3FileStore({
    endpoint: env.FILES_S3_ENDPOINT,
    region: env.FILES_S3_REGION,
    bucket: env.FILES_S3_BUCKET,
    // Each service's files under a name of their own, as GridFS keeps them in their own bucket.
    prefix: `${env.FILES_S3_PREFIX}${bucket}/`,
    accessKeyId: env.FILES_S3_ACCESS_KEY_ID,
    secretAccessKey: env.FILES_S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.FILES_S3_FORCE_PATH_STYLE,
  });
}

/**
 * A service's files: its catalog in the service's database, its store, its limits. Call
 * `store.prepare()` once at start.
 */
export function filesOf(
  env: FilesEnv,
  database: Store,
  bucket: string,
  logger: Logger,
): FileServiceDeps {
  return {
    catalog: catalogOf(database.db, bucket),
    store: openFileStore(env, database.db, bucket),
    serialize: database.serialize,
    limits: {
      maxFileBytes: env.FILES_MAX_FILE_BYTES,
      maxRequestBytes: env.FILES_MAX_REQUEST_BYTES,
      maxPerRequest: env.FILES_MAX_PER_REQUEST,
    },
    logger,
  };
}

const SWEEP_EVERY_MS = 60_000;

/** Sweeps unfinished uploads every minute; answers its stop. Every replica may sweep. */
export function startUploadSweep(deps: FileServiceDeps, env: FilesEnv): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweepUploads(deps, env.FILES_UPLOAD_TIMEOUT_SECONDS * 1_000).catch(
      (error: unknown) => {
        deps.logger.warn({ err: error }, 'upload sweep failed; the next one tries again');
      },
    );
  }, SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
