# syntax=docker/dockerfile:1
# One image for all eight services; the SERVICE build argument (or environment variable) picks
# which services/<name> runs:
#   docker build --build-arg SERVICE=intake -t handoff-intake .
# Node runs the TypeScript sources directly (type stripping), so there is no build step.

ARG NODE_IMAGE=node:24.21.0-slim

# Picks the workspaces the image needs: every service and, through `dependencies`, the
# workspaces they import. Tooling and test workspaces (tools/*, internal-packages/*, deploy) and
# what they pull in stay out (tools/ and internal-packages/ are not even looked at). /manifests gets their package.json files with the
# root's and the lock file, /sources their folders without tests. deploy/test/manifests.test.ts
# runs this script.
FROM ${NODE_IMAGE} AS select
WORKDIR /src
COPY . .
RUN node --input-type=module - /manifests /sources <<'EOF'
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [manifests, sources] = process.argv.slice(2);
const read = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const workspaces = new Map(
  ['packages', 'services']
    .flatMap((root) => readdirSync(root).map((name) => join(root, name)))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => [read(dir).name, dir]),
);
const needed = new Set();
const visit = (dir) => {
  if (needed.has(dir)) return;
  needed.add(dir);
  for (const name of Object.keys(read(dir).dependencies ?? {})) {
    if (workspaces.has(name)) visit(workspaces.get(name));
  }
};
for (const dir of workspaces.values()) if (dir.startsWith('services/')) visit(dir);

for (const file of ['package.json', 'package-lock.json']) cpSync(file, join(manifests, file));
for (const dir of [...needed].sort()) {
  console.log(dir);
  cpSync(join(dir, 'package.json'), join(manifests, dir, 'package.json'));
  cpSync(dir, join(sources, dir), {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|test)$/.test(path),
  });
}
EOF

# Production dependencies, in a layer rebuilt only when a manifest or the lock file changes.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NODE_ENV=production
COPY --from=select /manifests/ ./
# `npm install` with the lock file present installs exactly the locked versions. `npm ci` would
# refuse this lock file: it is written on a machine whose registry serves only linux-x64 builds,
# so it lacks the other platforms' optional dev packages (see scripts/setup.sh). No production
# dependency needs an install script.
RUN --mount=type=cache,target=/root/.npm \
    npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error

# The two web apps the gateway serves (the staff console at /console, the providers' workspace
# at /workspace): built with their development dependencies (Vite), of which only the static
# files go into the image.
FROM ${NODE_IMAGE} AS web
WORKDIR /src
COPY --from=select /src/ ./
RUN --mount=type=cache,target=/root/.npm \
    npm install --ignore-scripts --no-audit --no-fund --loglevel=error && \
    npm run build -w @handoff/console -w @handoff/workspace -- --logLevel warn

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
# Workspace packages resolve through the node_modules/@handoff/* symlinks to packages/*/src and
# services/*/src, outside node_modules, where Node agrees to strip types. Files stay owned by
# root: the service only reads them.
COPY --from=deps /app/ ./
COPY --from=select /sources/ ./
COPY --from=web /src/apps/console/dist/ ./apps/console/dist/
COPY --from=web /src/apps/workspace/dist/ ./apps/workspace/dist/
ARG SERVICE
ENV SERVICE=${SERVICE}
USER node
# `exec` replaces the shell, so node is PID 1 and receives SIGTERM/SIGINT itself.
CMD ["sh", "-c", "exec node \"services/${SERVICE:?set SERVICE to a folder name under services/}/src/main.ts\""]
