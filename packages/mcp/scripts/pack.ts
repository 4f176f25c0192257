// `npm pack` / `npm publish` of @handoff/mcp, so that `npx handoff-mcp` runs outside the
// monorepo, through the pack scripts it shares with the SDK (packages/sdk/scripts/pack-scripts.ts):
// the package ships compiled JavaScript with declarations and its bin is the compiled stdio
// entry. @handoff/contracts is internal and never published: its compiled code goes into this
// package (dist/contracts) and the imports of it are pointed there. @handoff/sdk stays a
// dependency: it is published itself (packages/sdk/scripts/pack.ts). `build` and
// `publishManifest` are the two halves, for a test to stage the package elsewhere.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { compile, runPackStep } from '../../sdk/scripts/pack-scripts.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const contracts = fileURLToPath(new URL('../../contracts/', import.meta.url));
const INTERNAL = '@handoff/contracts';
/** Where the compiled contracts go, inside dist. */
const CONTRACTS_DIR = 'contracts';

/** Compiles src (and the contracts it uses) into `outDir`: JavaScript and declarations. */
export function build(outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  compile(root, outDir);
  compile(contracts, join(outDir, CONTRACTS_DIR));
  const entry = join(outDir, CONTRACTS_DIR, 'index.js');
  for (const file of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
    if (file.startsWith(`${CONTRACTS_DIR}${sep}`) || !/\.(js|d\.ts)$/.test(file)) continue;
    const path = join(outDir, file);
    const target = relative(dirname(path), entry).split(sep).join('/');
    const specifier = target.startsWith('.') ? target : `./${target}`;
    const text = readFileSync(path, 'utf8');
    const rewritten = text.replace(/(['"])@handoff\/contracts\1/g, `$1${specifier}$1`);
    if (rewritten !== text) writeFileSync(path, rewritten);
  }
}

/**
 * The manifest as published: `exports` and the bin at the compiled files, only dist in the
 * tarball, and no dependency on the contracts, which dist carries.
 */
export function publishManifest(pkg: Record<string, unknown>): Record<string, unknown> {
  const dependencies = Object.entries(z.record(z.string(), z.string()).parse(pkg.dependencies));
  return {
    ...pkg,
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    bin: { 'handoff-mcp': './dist/stdio.js' },
    files: ['dist'],
    dependencies: Object.fromEntries(dependencies.filter(([name]) => name !== INTERNAL)),
  };
}

runPackStep(root, process.argv[2], { build, publishManifest });
