// Writes each workspace's totals to <repo>/.test-results/, so `npm test` can print one closing line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '.test-results');

export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const summary = {
      workspace: process.cwd(),
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      suites_passed: results.numPassedTestSuites,
      suites_failed: results.numFailedTestSuites,
      suites_skipped: results.numPendingTestSuites,
    };
    writeFileSync(join(RESULTS_DIR, `${basename(process.cwd())}.json`), JSON.stringify(summary));
  }
}
