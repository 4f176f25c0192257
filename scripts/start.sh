#!/usr/bin/env bash
# The whole system on this machine: the README's first command (`npm start`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$HANDOFF_ROOT"
# The web apps' static builds, which the gateway serves at /console (staff) and /workspace
# (providers), about a second each. The stack starts without them; each then answers 503 until
# it is built.
for app in console workspace; do
  npm run build --silent -w "@handoff/$app" -- --logLevel warn ||
    echo "[start] the $app did not build; /$app answers 503 until it does" >&2
done
exec node tools/devstack/src/main.ts "$@"
