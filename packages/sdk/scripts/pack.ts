// `npm pack` / `npm publish` of @handoff/sdk (scripts/pack-scripts.ts): src compiled to dist,
// `exports` pointed there. `build` and `publishManifest` are the two halves, for a test to stage
// the package elsewhere.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile, runPackStep } from './pack-scripts.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Compiles src into `outDir`: JavaScript and declarations. */
export function build(outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  compile(root, outDir);
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

runPackStep(root, process.argv[2], { build, publishManifest });
