// The `prepack` / `postpack` scripts that the published packages (@handoff/sdk, @handoff/mcp)
// share: inside the monorepo Node runs their TypeScript sources, but Node does not strip types
// under node_modules, so the packed package must point at compiled JavaScript. `prepack` builds
// dist and swaps in the published manifest; `postpack` puts the workspace manifest back.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** tsc with the project's tsconfig.build.json in `cwd`, into `outDir`: JavaScript and declarations. */
export function compile(cwd: string, outDir: string): void {
  execFileSync('tsc', ['-p', 'tsconfig.build.json', '--outDir', outDir], { cwd, stdio: 'inherit' });
}

export interface Packing {
  /** Builds the package into `outDir`. */
  build(outDir: string): void;
  /** The manifest as published, from the workspace one. */
  publishManifest(pkg: Record<string, unknown>): Record<string, unknown>;
}

/** Runs the pack script `step` (npm's `prepack` or `postpack`) of the package at `root`. */
export function runPackStep(root: string, step: string | undefined, packing: Packing): void {
  const manifest = join(root, 'package.json');
  const saved = join(root, 'package.workspace.json');
  const dist = join(root, 'dist');
  if (step === 'prepack') {
    packing.build(dist);
    copyFileSync(manifest, saved);
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifest, `${JSON.stringify(packing.publishManifest(pkg), null, 2)}\n`);
  } else if (step === 'postpack' && existsSync(saved)) {
    renameSync(saved, manifest);
    rmSync(dist, { recursive: true, force: true });
  }
}
