#!/usr/bin/env bash
# The whole system on this machine: the README's first command (`npm start`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$HANDOFF_ROOT"
exec node packages/devstack/src/main.ts "$@"
