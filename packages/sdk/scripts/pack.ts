// `npm pack` / `npm publish` of @handoff/sdk: inside the monorepo Node runs the TypeScript
// sources (`exports` → src/*.ts), but Node does not strip types under node_modules, so the
// published package must point at compiled JavaScript. `prepack` compiles src to dist and
// points `exports` there; `postpack` puts the workspace manifest back.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = `${root}package.json`;
const saved = `${root}package.workspace.json`;

if (process.argv[2] === 'prepack') {
  rmSync(`${root}dist`, { recursive: true, force: true });
  execFileSync('tsc', ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  copyFileSync(manifest, saved);
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
  pkg.exports = {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './schema': { types: './dist/generated/schema.d.ts', default: './dist/generated/schema.js' },
  };
  pkg.files = ['dist'];
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (process.argv[2] === 'postpack' && existsSync(saved)) {
  renameSync(saved, manifest);
  rmSync(`${root}dist`, { recursive: true, force: true });
}
