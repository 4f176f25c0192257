#!/usr/bin/env bash
# The API against its own OpenAPI document, on the whole system: starts the dev stack on a fresh
# data dir with limits generous enough for hundreds of calls, onboards an agent with every scope
# and a provider and builds a real resource for every operation on an id
# (tools/devstack/src/fuzz-fixtures.ts), runs scripts/schemathesis.sh as that agent, as staff
# and as the provider with each operation's ids (and request token) fixed to those resources, prints
# per operation how many cases reached a 2xx (scripts/schemathesis-coverage.py), and always stops
# the stack. Schemathesis's own report is printed only when it failed (API_CHECK_KEEP=1 keeps it
# in the data dir as schemathesis.log). Exits non-zero when Schemathesis finds a failure or cannot run, or when an operation
# on a request, of the provider API or of staff never reached a 2xx. `npm test` runs it last.
#
# Environment:
#   MAX_EXAMPLES        test cases per operation and phase (default 30; the coverage phase sends
#                       its own cases whatever it is: the whole check takes 6 to 10 minutes on 2 cores)
#   SCHEMATHESIS_ARGS   more arguments for `schemathesis run`, e.g. "--seed 1"
#   API_CHECK_KEEP=1    keep the data dir (the stack's logs are in stack.log there)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$HANDOFF_ROOT"

say() { printf '\033[2m[api-check]\033[0m %s\n' "$*" >&2; }
started=$(date +%s)

data_dir="$(mktemp -d "${TMPDIR:-/tmp}/handoff-api-check.XXXXXX")"
stack_log="$data_dir/stack.log"
report="$data_dir/schemathesis.log"
stack_pid=""

stop_stack() {
  local status=$?
  if [[ -n "$stack_pid" ]] && kill -0 "$stack_pid" 2>/dev/null; then
    say "stopping the stack"
    kill -INT "$stack_pid" 2>/dev/null || true
    # The stack drains its services, then stops NATS and the database; give it time, not forever.
    for _ in $(seq 1 120); do
      kill -0 "$stack_pid" 2>/dev/null || break
      sleep 0.25
    done
    if kill -0 "$stack_pid" 2>/dev/null; then
      say "the stack did not stop within 30 s; killing it"
      kill -KILL "$stack_pid" 2>/dev/null || true
    fi
    wait "$stack_pid" 2>/dev/null || true
  fi
  if [[ $status -ne 0 && -f "$stack_log" ]]; then
    say "the stack's last log lines:"
    tail -n 40 "$stack_log" >&2 || true
  fi
  if [[ "${API_CHECK_KEEP:-}" == "1" ]]; then
    say "kept $data_dir"
  else
    rm -rf "$data_dir"
  fi
  exit "$status"
}
trap stop_stack EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Its own NATS, database and Mailpit, exactly as `npm start` on a fresh machine; errors logged
# only. Deliveries are paused: Schemathesis registers webhook endpoints at generated URLs, and
# nothing here may ever try to reach them; for the same reason no SMTP_URL takes its mail.
say "starting the stack in $data_dir"
env -u NATS_URL -u MONGO_URL -u SMTP_URL -u NODE_OPTIONS \
  DATA_DIR="$data_dir" PORT=0 LOG_LEVEL=warn STACK_QUIET=false \
  RATE_LIMIT_PER_MINUTE=1000000 PUBLIC_RATE_LIMIT_PER_MINUTE=1000000 \
  WEBHOOK_DELIVERIES_PAUSED=true \
  AUTH_FAILURE_LIMIT_PER_MINUTE=1000000 SIGN_IN_PER_MINUTE_PER_ADDRESS=1000000 \
  node tools/devstack/src/main.ts >"$stack_log" 2>&1 &
stack_pid=$!

deadline=$(($(date +%s) + 120))
until grep -q 'Handoff is up: every service answers' "$stack_log" 2>/dev/null; do
  if ! kill -0 "$stack_pid" 2>/dev/null; then
    say "the stack exited before it was ready"
    exit 1
  fi
  if (($(date +%s) > deadline)); then
    say "the stack was not ready within 120 s"
    exit 1
  fi
  sleep 0.5
done
say "the stack is up after $(($(date +%s) - started)) s; onboarding an agent with every scope, and fixtures"

fixtures="$data_dir/fixtures"
onboarded="$(DATA_DIR="$data_dir" node tools/devstack/src/fuzz-fixtures.ts "$fixtures")"
HANDOFF_URL="$(sed -n 's/^export HANDOFF_URL=//p' <<<"$onboarded")"
HANDOFF_AGENT_KEY="$(sed -n 's/^export HANDOFF_AGENT_KEY=//p' <<<"$onboarded")"
STAFF_TOKEN="$(sed -n 's/^export STAFF_TOKEN=//p' <<<"$onboarded")"
PROVIDER_KEY="$(sed -n 's/^export HANDOFF_PROVIDER_KEY=//p' <<<"$onboarded")"
TEST_KEY="$(sed -n 's/^export HANDOFF_TEST_KEY=//p' <<<"$onboarded")"
if [[ -z "$HANDOFF_URL" || -z "$HANDOFF_AGENT_KEY" || -z "$STAFF_TOKEN" || -z "$PROVIDER_KEY" || -z "$TEST_KEY" ]]; then
  say "onboarding printed no URL, agent key, provider key, test key or staff token"
  exit 1
fi
export STAFF_TOKEN PROVIDER_KEY TEST_KEY

status=0
status_log="$data_dir/statuses.tsv"
MAX_EXAMPLES="${MAX_EXAMPLES:-30}" FUZZ_FIXTURES="$fixtures" STATUS_LOG="$status_log" \
  bash scripts/schemathesis.sh "$HANDOFF_URL" "$HANDOFF_AGENT_KEY" >"$report" 2>&1 || status=$?
# Schemathesis's own report goes to the log, and to the output only when it failed: its closing
# lines are pytest-style ("=== 1 warning in 37.38s ===") and would read as a test run's totals
# that counted no test at the end of `npm test`. Our one-line summary below says what it did.
if [[ $status -ne 0 ]]; then
  cat "$report"
fi

# How far the calls got: per operation, the cases that reached a 2xx.
reach=0
python3 scripts/schemathesis-coverage.py services/gateway/openapi.json "$status_log" || reach=$?

# Both passes' summaries, added up: "Tested: 13", "Test cases: 1026 generated, 6 found 6 unique
# failures, ...", and a failure count of 0 when a pass found none.
strip() { sed 's/\x1b\[[0-9;]*m//g' "$report"; }
# The numbers a sed expression picks out of the report, added up over the passes.
total() { strip | sed -n "$1" | awk '{s+=$1} END {print s+0}'; }
operations=$(total 's/^ *Tested: *\([0-9]*\).*/\1/p')
cases=$(total 's/^ *\([0-9]*\) generated.*/\1/p')
failures=$(total 's/.* \([0-9]*\) unique failures\{0,1\}.*/\1/p')
passes=$(strip | grep -c '^ *Tested:' || true)
if [[ $status -eq 0 && $passes -ne 4 ]]; then
  say "expected four Schemathesis passes (agent, staff, provider, test key), saw $passes"
  status=1
fi
# The stateful phase (sequences of calls along the document's links, ids taken from answers):
# its scenarios and the links it covered, added up over the passes; none at all fails the check.
scenarios=$(total 's/^ *Scenarios: *\([0-9]*\).*/\1/p')
links=$(total 's/^ *API Links: *\([0-9]*\) covered.*/\1/p')
stateful=$(strip | grep -c '^ *✅ *Stateful (in' || true)
if [[ $status -eq 0 && ($stateful -eq 0 || $scenarios -eq 0) ]]; then
  say "the stateful phase ran in no pass"
  status=1
fi
if [[ $status -ne 0 && $failures -eq 0 ]]; then
  failures="?"
fi
printf '\nschemathesis: %s operations, %s test cases, %s failures (%s s)\n' \
  "$operations" "$cases" "$failures" "$(($(date +%s) - started))"
printf 'schemathesis stateful: %s of %s passes, %s scenarios, %s API links covered\n' \
  "$stateful" "$passes" "$scenarios" "$links"
if [[ $status -eq 0 && $reach -ne 0 ]]; then
  say "an operation on a request, of the provider API or of staff never reached a 2xx"
  status=1
fi
exit "$status"
