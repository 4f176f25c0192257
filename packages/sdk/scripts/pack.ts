// `npm pack` / `npm publish` of @handoff/sdk: inside the monorepo Node runs the TypeScript
// sources (`exports` → src/*.ts), but Node does not strip types under node_modules, so the
// published package must point at compiled JavaScript. `prepack` compiles src to dist and
// points `exports` there; `postpack` puts the workspace manifest back. `build` and
// `publishManifest` are the two halves, for a test to stage the package elsewhere.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = `${root}package.json`;
const saved = `${root}package.workspace.json`;

/** Compiles src into `outDir`: JavaScript and declarations. */
export function build(outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  execFileSync('tsc', ['-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: root,
    stdio: 'inherit',
  });
}

/** The manifest as published: `exports` at the compiled files, only dist in the tarball. */
export function publishManifest(pkg: Record<string, unknown>): Record<string, unknown> {
  return {
    ...pkg,
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './schema': { types: './dist/generated/schema.d.ts', default: './dist/generated/schema.js' },
    },
    files: ['dist'],
  };
}

if (process.argv[2] === 'prepack') {
  build(`${root}dist`);
  copyFileSync(manifest, saved);
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
  writeFileSync(manifest, `${JSON.stringify(publishManifest(pkg), null, 2)}\n`);
} else if (process.argv[2] === 'postpack' && existsSync(saved)) {
  renameSync(saved, manifest);
  rmSync(`${root}dist`, { recursive: true, force: true });
}
