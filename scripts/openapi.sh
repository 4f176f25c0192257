#!/usr/bin/env bash
# Regenerates the committed API documents from the zod schemas and the gateway's route table:
#   services/gateway/openapi.json   (OpenAPI 3.1, also served at GET /v1/openapi.json)
#   packages/contracts/asyncapi.json (AsyncAPI 3.0, the events on the bus)
#   docs/state-machines.md           (the engagement's state machines, from their data)
#   packages/sdk/src/generated/schema.ts (the SDK's types, by openapi-typescript from openapi.json)
#   sdk/python/src/handoff/_generated (the Python SDK's, by openapi-python-client from openapi.json)
# Run it after changing a route, a schema or a machine, and commit the files; the tests fail until you do.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/.tools/node/bin:$ROOT/.tools/bin:$ROOT/node_modules/.bin:$PATH"
cd "$ROOT"

node services/gateway/src/openapi/write.ts
node packages/contracts/scripts/write-asyncapi.ts
node packages/contracts/scripts/write-state-machines.ts
# After openapi.json, which it is generated from.
node packages/sdk/scripts/generate.ts
# The Python SDK's typed part (openapi-python-client, in the venv scripts/setup.sh makes).
python3 sdk/python/scripts/generate.py
# The same layout as `npm run format`, so that `prettier --check .` stays quiet.
prettier --write --log-level=warn services/gateway/openapi.json packages/contracts/asyncapi.json
