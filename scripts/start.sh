#!/usr/bin/env bash
# The whole system on this machine: the README's first command (`npm start`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$HANDOFF_ROOT"
# The staff console's static build, which the gateway serves at /console (about a second). The
# stack starts without it; /console then answers 503 until it is built.
npm run build --silent -w @handoff/console -- --logLevel warn ||
  echo "[start] the staff console did not build; /console answers 503 until it does" >&2
exec node tools/devstack/src/main.ts "$@"
