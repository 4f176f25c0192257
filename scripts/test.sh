#!/usr/bin/env bash
# Every check and every test, against real servers: the README's second command (`npm test`).
# Extra arguments go to turbo, e.g. `npm test -- --filter=@handoff/gateway`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$HANDOFF_ROOT"
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1
rm -rf .test-results
export TEST_STARTED_MS=$(($(date +%s) * 1000))

prettier --check --log-level=warn .
# The layers (.dependency-cruiser.js; ARCHITECTURE.md, "Layers"): services import packages only,
# packages never import services or tools, no import cycles. Whole tree, whatever turbo's filter.
npm run --silent layering
turbo run typecheck lint --output-logs=errors-only "$@"
# Integration suites start their own servers; two at a time keeps a 2-core machine responsive.
status=0
# --continue: every workspace runs, so one failure does not hide the others.
turbo run test --concurrency=2 --continue --output-logs=full "$@" || status=$?

node -e '
  const fs = require("node:fs");
  // Only the totals of the workspaces: .test-results also holds artefacts (console screenshots).
  const files = fs.existsSync(".test-results")
    ? fs.readdirSync(".test-results").filter((f) => f.endsWith(".json"))
    : [];
  const t = { passed: 0, failed: 0, skipped: 0, suites_passed: 0, suites_failed: 0, suites_skipped: 0 };
  const failures = [];
  for (const f of files) {
    const r = JSON.parse(fs.readFileSync(`.test-results/${f}`, "utf8"));
    for (const k of Object.keys(t)) t[k] += r[k] ?? 0;
    for (const x of r.failures ?? []) failures.push(`failed: ${x.file} › ${x.test}: ${x.message}`);
  }
  // The plain totals, then the same in the summary form jest itself prints, which closes the output.
  const jestForm = (failed, skipped, passed) =>
    [failed && `${failed} failed`, skipped && `${skipped} skipped`, `${passed} passed`, `${failed + skipped + passed} total`]
      .filter(Boolean)
      .join(", ");
  const lines = [
    ...failures,
    `tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`,
    `Test Suites: ${jestForm(t.suites_failed, t.suites_skipped, t.suites_passed)}`,
    `Tests:       ${jestForm(t.failed, t.skipped, t.passed)}`,
    "Snapshots:   0 total",
    `Time:        ${((Date.now() - Number(process.env.TEST_STARTED_MS)) / 1000).toFixed(0)} s`,
    "Ran all test suites.",
  ];
  console.log(`\n${files.length} workspaces reported`);
  console.log(lines.join("\n"));
  fs.mkdirSync(".test-results", { recursive: true });
  fs.writeFileSync(".test-results/summary.txt", `${lines.join("\n")}\n`);
  if (files.length === 0 || t.failed > 0 || t.skipped > 0) process.exitCode = 1;
' || status=1

# The running system against its OpenAPI document (Schemathesis, a few minutes): a whole-stack
# check, so it runs when no turbo arguments narrow the run to some workspaces.
if [[ $# -eq 0 ]]; then
  bash scripts/api-check.sh || status=1
else
  echo "schemathesis: skipped (turbo arguments given; run bash scripts/api-check.sh)"
fi
# The plain totals line closes the output, so that whoever reads the last line sees the count.
[[ -f .test-results/summary.txt ]] && cat .test-results/summary.txt
exit "$status"
