// Writes each workspace's totals to <repo>/.test-results/, so `npm test` can print one closing line,
// with the name and first lines of every failure (CI keeps only the tail of the output).
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const RESULTS_DIR = join(ROOT, '.test-results');
const MESSAGE_CHARS = 400;

// The first lines of a failure, without jest's colour codes, on one line.
function gist(message) {
  const plain = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  return lines.slice(0, 6).join(' | ').slice(0, MESSAGE_CHARS);
}

function failuresOf(results) {
  const failures = [];
  for (const file of results.testResults) {
    const path = relative(ROOT, file.testFilePath);
    if (file.testExecError) {
      failures.push({
        file: path,
        test: '(the suite did not run)',
        message: gist(file.testExecError.message),
      });
    }
    for (const t of file.testResults) {
      if (t.status === 'failed')
        failures.push({ file: path, test: t.fullName, message: gist(t.failureMessages[0]) });
    }
  }
  return failures;
}

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
      failures: failuresOf(results),
    };
    writeFileSync(join(RESULTS_DIR, `${basename(process.cwd())}.json`), JSON.stringify(summary));
  }
}
