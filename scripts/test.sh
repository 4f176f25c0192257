#!/usr/bin/env bash
# Every check and every test, against real servers: the README's second command (`npm test`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$HANDOFF_ROOT"
prettier --check --log-level=warn .
turbo run typecheck lint --output-logs=errors-only
# Integration suites start their own servers; two at a time keeps a 2-core machine responsive.
turbo run test --concurrency=2 --output-logs=full "$@"
