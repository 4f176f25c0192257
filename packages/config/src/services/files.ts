// The variables of the services that own files (conversation, milestones): where the bytes are
// kept and how many a request may have (docs/files.md). One schema, spread into each of theirs.
import { FILE_LIMITS } from '@handoff/contracts';
import { z } from 'zod';
import { envBoolean } from '../index.ts';

const bytes = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 40)
    .default(fallback);

export const filesEnvShape = {
  /** `gridfs` (the service's own database) or `s3` (FILES_S3_*). */
  FILES_STORE: z.enum(['gridfs', 's3']).default('gridfs'),
  FILES_MAX_FILE_BYTES: bytes(FILE_LIMITS.maxFileBytes),
  FILES_MAX_REQUEST_BYTES: bytes(FILE_LIMITS.maxRequestBytes),
  FILES_MAX_PER_REQUEST: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(FILE_LIMITS.maxFilesPerRequest),
  /** An upload unfinished for this long is removed by the sweep (a crashed client or process). */
  FILES_UPLOAD_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(3_600),
  /** The S3-compatible endpoint (unset: AWS's own, by FILES_S3_REGION). */
  FILES_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  FILES_S3_REGION: z.string().min(1).default('us-east-1'),
  FILES_S3_BUCKET: z.string().min(3).max(63).optional(),
  /** Prepended to every object's key, so several services or stacks can share one bucket. */
  FILES_S3_PREFIX: z.string().max(512).default(''),
  /** Unset: the SDK's default chain (IAM role, web identity, the AWS_* variables). */
  FILES_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  FILES_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need. */
  FILES_S3_FORCE_PATH_STYLE: envBoolean.default(false),
};

/** The checks across the variables, for each service's `superRefine`. */
export function checkFilesEnv(
  env: { FILES_STORE: 'gridfs' | 's3'; FILES_S3_BUCKET?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (env.FILES_STORE === 's3' && env.FILES_S3_BUCKET === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['FILES_S3_BUCKET'],
      message: 'is required when FILES_STORE is s3',
    });
  }
}
