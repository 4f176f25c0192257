#!/usr/bin/env bash
# Property-based tests of a running gateway against its own OpenAPI document, with Schemathesis:
# generated valid and invalid calls for every operation, each answer checked against the document
# (status codes, content types, headers, bodies) and for server errors. Exits non-zero on a failure.
#
# Usage: scripts/schemathesis.sh [GATEWAY_URL] [AGENT_KEY]
#   GATEWAY_URL   default $HANDOFF_URL, else http://127.0.0.1:8080
#   AGENT_KEY     default $HANDOFF_AGENT_KEY: an `hk_live_...` key, sent as `Authorization: Bearer`
# Environment:
#   STAFF_TOKEN        a staff JWT (`npm start` prints one); when set, the operations tagged `staff`
#                      run in a second pass with it, and the first pass leaves them out
#   TEST_KEY           the integration's test key (`hk_test_...`); with STAFF_TOKEN, the agent's
#                      operations run once more with it (test mode), on FUZZ_FIXTURES' test.toml
#   SCHEMA             where the document is; default GATEWAY_URL/v1/openapi.json. A file works too,
#                      e.g. SCHEMA=services/gateway/openapi.json, for a gateway that does not serve it
#   MAX_EXAMPLES       test cases per operation (default 25)
#   SCHEMATHESIS_ARGS  more arguments for `schemathesis run`, e.g. "--seed 1 --report junit"
#   FUZZ_FIXTURES      a directory with agent.toml, staff.toml and provider.toml: `[[operations]]`
#                      blocks fixing each operation's ids (and request token) to real resources,
#                      as tools/devstack/src/fuzz-fixtures.ts writes them; added to each pass's
#                      configuration, so the calls get past the 404 into the code behind it. Its
#                      bodies.json names body members a valid case must hold for that resource
#                      (the job's currency, a milestone of the job): the hooks set them
#   STATUS_LOG         a file to append "METHOD /path<TAB>status<TAB>seconds" to for every call,
#                      for scripts/schemathesis-coverage.py
# A run sends hundreds of calls: start the gateway with generous limits so that 429s (documented,
# and retried after Retry-After) do not crowd out the rest, e.g.
#   PUBLIC_RATE_LIMIT_PER_MINUTE=100000 RATE_LIMIT_PER_MINUTE=100000 AUTH_FAILURE_LIMIT_PER_MINUTE=100000 npm start
set -euo pipefail

SCHEMATHESIS_VERSION="4.32.5"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.tools/schemathesis-venv"

say() { printf '\033[2m[schemathesis]\033[0m %s\n' "$*" >&2; }

URL="${1:-${HANDOFF_URL:-http://127.0.0.1:8080}}"
URL="${URL%/}"
KEY="${2:-${HANDOFF_AGENT_KEY:-}}"
SCHEMA="${SCHEMA:-$URL/v1/openapi.json}"
MAX_EXAMPLES="${MAX_EXAMPLES:-25}"

if [[ "$("$VENV/bin/schemathesis" --version 2>/dev/null || true)" != *"$SCHEMATHESIS_VERSION"* ]]; then
  say "installing schemathesis $SCHEMATHESIS_VERSION into .tools/schemathesis-venv"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# Things the document cannot say, so that generated valid calls are valid:
# - an Idempotency-Key names one request: schemathesis would reuse short keys ("0") with other
#   bodies and get the (correct) 422 idempotency_key_reused, so each call gets a fresh key;
# - `starting_after` and `ending_before` exclude each other;
# - a budget range is not upside down (`budget_min` <= `budget_max`);
# - a long poll (`wait`) waits at most a second, in invalid cases too (one flawed only by a query
#   parameter the document lacks is answered): with a real request it waits as long as it is
#   told for events that do not come, and seconds per case would crowd out the rest;
# - test mode's fields of a request create: `test_scenario` only with a test key (a live key is
#   refused it by design), and no `test_clock` (it must name a real clock of the integration,
#   with room left); a test clock's advance goes to a later time than the last one (a clock
#   never goes back), so each valid case asks for a time a second later than the one before;
# - with FUZZ_FIXTURES, the body members bodies.json fixes for an operation, where the case has
#   them: what the resource needs and the document cannot say (a milestone of this job, the job's
#   currency, an amount within the job's, an active provider). Schemathesis's own body overrides
#   are not applied in its coverage phase, so the hook does it.
# Only valid cases are touched, `wait` aside. Schemathesis re-validates an edited case, and a case
# whose only flaw is a header the document does not declare as a parameter (a missing
# `Authorization`) would be relabelled valid and sent with the credentials after all; an invalid
# case is refused (400, 401, 409, 422, ...) whatever the three say.
# The hooks and the configuration are this run's own (other work trees share the venv).
RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/handoff-schemathesis.XXXXXX")"
trap 'rm -rf "$RUN_DIR"' EXIT
HOOKS="$RUN_DIR/handoff_hooks.py"
cat >"$HOOKS" <<'PY'
import datetime
import json
import os
import uuid

import schemathesis

_FIXTURES = os.environ.get("FUZZ_FIXTURES")
_BODIES_FILE = os.path.join(_FIXTURES, "bodies.json") if _FIXTURES else None
BODIES = {}
if _BODIES_FILE and os.path.exists(_BODIES_FILE):
    with open(_BODIES_FILE, encoding="utf-8") as file:
        BODIES = json.load(file)


def fix(node, parts, value):
    """Set the member `parts` names (`*`: every item of an array) where it is present."""
    head, rest = parts[0], parts[1:]
    if head == "*":
        keys = range(len(node)) if isinstance(node, list) else []
    else:
        keys = [head] if isinstance(node, dict) and head in node else []
    for key in keys:
        if rest:
            fix(node[key], rest, value)
        else:
            node[key] = value


@schemathesis.hook
def before_call(context, case, kwargs):
    shorten_wait(case)
    if case.meta is not None and not case.meta.generation.mode.is_positive:
        return
    key = case.headers.get("Idempotency-Key") if case.headers else None
    if isinstance(key, str):
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
    if case.query and case.query.get("starting_after") and case.query.get("ending_before"):
        del case.query["ending_before"]
    body = case.body
    fixes = BODIES.get(case.operation.definition.raw.get("operationId"), {})
    if isinstance(body, dict):
        test_mode_fields(case.operation.definition.raw.get("operationId"), body)
        for name, value in fixes.items():
            fix(body, name.split("."), value)
        low, high = body.get("budget_min"), body.get("budget_max")
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high))
        if numbers and low > high:
            body["budget_min"], body["budget_max"] = high, low


def shorten_wait(case):
    """A valid `wait` above a second becomes 1, in every case, valid or not.

    A case flawed elsewhere can still wait: one whose only flaw is a query parameter the document
    does not have is answered (unknown query parameters are ignored), after its whole wait, which
    the CI saw outlast the 10-s request timeout. A `wait` above the document's maximum, or not an
    integer, is left alone: then it is the flaw.
    """
    wait = case.query.get("wait") if case.query else None
    if not isinstance(wait, (int, str)) or isinstance(wait, bool) or not str(wait).isdigit():
        return
    declared = [
        parameter.get("schema", {})
        for parameter in case.operation.definition.raw.get("parameters", [])
        if parameter.get("in") == "query" and parameter.get("name") == "wait"
    ]
    maximum = declared[0].get("maximum") if declared else None
    if isinstance(maximum, int) and 1 < int(wait) <= maximum:
        case.query["wait"] = 1


STATUS_LOG = os.environ.get("STATUS_LOG")
KEY_MODE = os.environ.get("HANDOFF_KEY_MODE", "live")
_ADVANCES = [0]


def test_mode_fields(operation_id, body):
    body.pop("test_clock", None)
    if KEY_MODE == "live":
        body.pop("test_scenario", None)
    if operation_id == "advanceTestClock" and "frozen_time" in body:
        _ADVANCES[0] += 1
        later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(
            days=1, seconds=_ADVANCES[0]
        )
        body["frozen_time"] = later.isoformat().replace("+00:00", "Z")


@schemathesis.hook
def after_call(context, case, response):
    # Every answer's status and time per operation, for the report of which operations reached
    # the code and where the run's time went.
    if STATUS_LOG:
        with open(STATUS_LOG, "a", encoding="utf-8") as log:
            label = f"{case.operation.method.upper()} {case.operation.path}"
            log.write(f"{label}\t{response.status_code}\t{response.elapsed:.3f}\n")
PY
export SCHEMATHESIS_HOOKS="$HOOKS"

# Schemathesis and Hypothesis keep their state (.hypothesis, .schemathesis) in the working
# directory: keep it out of the work tree.
[[ -f "$SCHEMA" ]] && SCHEMA="$(cd "$(dirname "$SCHEMA")" && pwd)/$(basename "$SCHEMA")"
mkdir -p "$ROOT/.tools/schemathesis-state"
cd "$ROOT/.tools/schemathesis-state"
# A body over the documented 64 KiB limit is refused with 413 before its schema is looked at
# (conventions' order of checks): a correct refusal of invalid data.
# Stripe's webhook takes only bodies Stripe signed: a generated event, however valid its shape,
# cannot carry a signature that verifies, and is refused with 400 signature_invalid, as Stripe's
# own documentation answers it.
CONFIG="$RUN_DIR/base.toml"
cat >"$CONFIG" <<'TOML'
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]

[[operations]]
include-path = "/v1/webhooks/stripe"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400"]

# An integration has at most 20 test clocks at once (409 limit_reached), a state the document
# cannot say of a valid body.
[[operations]]
include-operation-id = "createTestClock"
checks.positive_data_acceptance.expected-statuses = ["2xx", "409"]
TOML

# filter_too_much: a string with a pattern of its own also carries the no-NUL rule (allOf), which
# Hypothesis meets by filtering; the cases it keeps are still checked in full.
common=(--max-examples "$MAX_EXAMPLES" --rate-limit auto --request-timeout 10 --url "$URL"
  --suppress-health-check filter_too_much)
# shellcheck disable=SC2206 # deliberately split into words
extra=(${SCHEMATHESIS_ARGS:-})

# One pass's configuration: the shared one, and the pass's fixtures when there are any.
config_for() {
  local file="$RUN_DIR/$1.toml"
  cat "$CONFIG" >"$file"
  if [[ -n "${FUZZ_FIXTURES:-}" && -f "$FUZZ_FIXTURES/$1.toml" ]]; then
    printf '\n' >>"$file"
    cat "$FUZZ_FIXTURES/$1.toml" >>"$file"
  fi
  printf '%s' "$file"
}
st() { "$VENV/bin/schemathesis" --config-file "$(config_for "$1")" run "$SCHEMA" "${@:2}"; }

status=0
agent=()
[[ -n "$KEY" ]] && agent=(--header "Authorization: Bearer $KEY")
[[ -z "$KEY" ]] && say "no agent key: agent operations will only see their 401s"
if [[ -n "${STAFF_TOKEN:-}" ]]; then
  say "pass 1: everything but staff and provider operations, as the agent"
  # Test clocks are test mode's: a live key is refused them by design (pass 4 has them).
  st agent "${common[@]}" "${agent[@]}" --exclude-tag staff --exclude-tag provider \
    --exclude-tag test-clocks "${extra[@]}" || status=$?
  say "pass 2: staff operations, as staff"
  st staff "${common[@]}" --include-tag staff --header "Authorization: Bearer $STAFF_TOKEN" \
    "${extra[@]}" || status=$?
  if [[ -n "${PROVIDER_KEY:-}" ]]; then
    say "pass 3: provider operations, as a provider"
    st provider "${common[@]}" --include-tag provider \
      --header "Authorization: Bearer $PROVIDER_KEY" "${extra[@]}" || status=$?
  fi
  if [[ -n "${TEST_KEY:-}" ]]; then
    say "pass 4: the agent's operations again, with the test key (test mode)"
    HANDOFF_KEY_MODE=test st test "${common[@]}" --header "Authorization: Bearer $TEST_KEY" --exclude-tag staff \
      --exclude-tag provider "${extra[@]}" || status=$?
  fi
else
  st agent "${common[@]}" "${agent[@]}" "${extra[@]}" || status=$?
fi
exit "$status"
