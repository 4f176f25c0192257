// Reads pytest's JUnit XML into the totals jest.summary-reporter.js writes for a jest workspace,
// so that scripts/test.sh counts the Python tests with the others. A test file is a suite.

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  suites_passed: number;
  suites_failed: number;
  suites_skipped: number;
}

type Outcome = 'passed' | 'failed' | 'skipped';

const TESTCASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];
}

function outcome(body: string | undefined): Outcome {
  if (body === undefined) return 'passed';
  // A failure or an error anywhere (an error in teardown follows a pass) fails the test.
  if (/<(failure|error)\b/.test(body)) return 'failed';
  // pytest writes both skips and xfails as <skipped>: either one is a test that did not run green.
  if (/<skipped\b/.test(body)) return 'skipped';
  return 'passed';
}

/** The totals of one JUnit XML report; a report with no test case counts as one failed test. */
export function totalsOf(xml: string): Totals {
  const suites = new Map<string, Outcome[]>();
  for (const match of xml.matchAll(TESTCASE)) {
    const attributes = match[1] ?? '';
    const file = attribute(attributes, 'file') ?? attribute(attributes, 'classname') ?? '';
    const list = suites.get(file) ?? [];
    list.push(outcome(match[2]));
    suites.set(file, list);
  }
  const totals: Totals = {
    passed: 0,
    failed: 0,
    skipped: 0,
    suites_passed: 0,
    suites_failed: 0,
    suites_skipped: 0,
  };
  for (const outcomes of suites.values()) {
    for (const one of outcomes) totals[one] += 1;
    if (outcomes.includes('failed')) totals.suites_failed += 1;
    else if (outcomes.every((one) => one === 'skipped')) totals.suites_skipped += 1;
    else totals.suites_passed += 1;
  }
  if (suites.size === 0) {
    totals.failed = 1;
    totals.suites_failed = 1;
  }
  return totals;
}
