#!/usr/bin/env bash
# `npm run bench`: the bare floors and the gateway on the full stack, measured on this machine.
# Settings: BENCH_DURATION_S (10), BENCH_CONNECTIONS (50), BENCH_WARMUP_S (2),
# BENCH_LOG_LEVEL (warn), BENCH_ONLY (comma-separated scenario names). Results: .bench/results.json.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$HANDOFF_ROOT"
exec node tools/bench/src/main.ts "$@"
