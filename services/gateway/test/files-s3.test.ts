// Files through the gateway on an S3-compatible store (the worker's versitygw, or S3_TEST_URL):
// the same suite as files.test.ts, listed as such (docs/files.md).
import { s3Env } from '@handoff/testkit';
import { fileSuite } from './support/file-suite.ts';

fileSuite('gw_files_s3', 'an S3-compatible store', () => s3Env('gw-files'));
