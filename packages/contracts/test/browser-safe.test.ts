// The contracts are imported by the two web apps as well as by the services, so they must load in
// a browser: no Node built-in on the import graph and no Node global (`Buffer`, `process`) in the
// code. Both are checked as a browser build sees them: the graph from src/index.ts, and a type
// check of it with the DOM's library and without Node's types.
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_BUILTINS = new Set(builtinModules);

/** What the package may import from outside itself: its own dependencies, none of them Node's. */
function allowedPackages(root: string): Set<string> {
  const manifest = z
    .object({ dependencies: z.record(z.string(), z.string()).default({}) })
    .parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
  return new Set(Object.keys(manifest.dependencies));
}

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Every import a browser bundle of `entry` would follow that no browser has, as `file: specifier`. */
function foreignImports(root: string, entry: string): string[] {
  const allowed = allowedPackages(root);
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith('.')) {
        visit(resolve(dirname(file), specifier));
        continue;
      }
      const name = packageOf(specifier);
      const builtin = specifier.startsWith('node:') || NODE_BUILTINS.has(name);
      if (builtin || !allowed.has(name)) problems.push(`${relative(root, file)}: ${specifier}`);
    }
  };
  visit(join(root, entry));
  return problems;
}

const relative = (root: string, file: string) => file.slice(root.length).replace(/^\//, '');

/** Type errors of `entry` compiled for a browser: DOM library, no `@types/node`. */
function browserTypeErrors(root: string, entry: string): string[] {
  const program = ts.createProgram([join(root, entry)], {
    target: ts.ScriptTarget.ES2024,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2024.d.ts', 'lib.dom.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('the contracts in a browser', () => {
  it('import nothing but their own browser-safe dependencies', () => {
    expect(foreignImports(ROOT, 'src/index.ts')).toEqual([]);
    expect([...allowedPackages(ROOT)].filter((name) => NODE_BUILTINS.has(name))).toEqual([]);
  });

  it('type-check without Node: no built-in module and no Node global', () => {
    expect(browserTypeErrors(ROOT, 'src/index.ts')).toEqual([]);
  }, 120_000);

  it('would be refused with a Node import or a Node global in them (the checks can fail)', () => {
    const root = mkdtempSync(join(tmpdir(), 'handoff-contracts-'));
    try {
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: {} }));
      writeFileSync(
        join(root, 'src/index.ts'),
        `export * from './hash.ts';\nexport const bytes = Buffer.from('a');\n`,
      );
      writeFileSync(
        join(root, 'src/hash.ts'),
        `import { createHash } from 'node:crypto';\nimport { crc32 } from 'zlib';\n` +
          `export const hash = (s: string) => createHash('sha256').update(s).digest('hex') + crc32(s);\n`,
      );
      expect(foreignImports(root, 'src/index.ts')).toEqual([
        'src/hash.ts: node:crypto',
        'src/hash.ts: zlib',
      ]);
      const errors = browserTypeErrors(root, 'src/index.ts').join('\n');
      expect(errors).toContain("Cannot find module 'node:crypto'");
      expect(errors).toContain("Cannot find name 'Buffer'");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
