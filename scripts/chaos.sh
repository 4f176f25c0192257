#!/usr/bin/env bash
# `npm run chaos`: faults at scale (tools/chaos; README, "Chaos"). Arguments go to the tool:
# npm run chaos -- --minutes 3 --seed 7 --replicas 2 --faults all --soak
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$HANDOFF_ROOT"
exec node tools/chaos/src/main.ts "$@"
