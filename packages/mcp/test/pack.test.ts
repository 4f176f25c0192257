// `npx handoff-mcp` outside the monorepo. @handoff/sdk and @handoff/mcp are built and packed as
// `npm pack` would (the prepack's two halves, into a staging folder so the workspace manifest is
// never swapped under other tests), unpacked into a project folder outside the repository with
// the bin linked as npm links it, and used there: `npx handoff-mcp` with a real MCP client over
// stdio against a stub gateway, the library entry by import, and its declarations by tsc. Only
// the third-party dependencies are linked from the workspace, so that no registry is needed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as sdkPack from '../../sdk/scripts/pack.ts';
import * as mcpPack from '../scripts/pack.ts';
import { TOOLS, toolsFor } from '../src/index.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SCOPES = ['requests:create', 'requests:read'];
let work: string;
let project: string;
let gateway: Server;
const seen: string[] = [];

type Json = Record<string, unknown>;
const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const dependenciesOf = (manifest: Json) => Object.keys(manifest.dependencies ?? {});

/** Builds one package into a staging folder and packs it; returns the tarball's path. */
function pack(name: 'sdk' | 'mcp', half: typeof sdkPack | typeof mcpPack): string {
  const stage = join(work, `stage-${name}`);
  mkdirSync(stage, { recursive: true });
  half.build(join(stage, 'dist'));
  const workspace = readJson(join(REPO, 'packages', name, 'package.json'));
  writeFileSync(join(stage, 'package.json'), JSON.stringify(half.publishManifest(workspace)));
  // The pack scripts are what was just run by hand; they do not exist in the stage.
  const out = execFileSync(
    'npm',
    ['pack', stage, '--ignore-scripts', '--json', '--pack-destination', work],
    { cwd: work, encoding: 'utf8' },
  );
  const [packed] = JSON.parse(out) as { filename: string }[];
  if (!packed) throw new Error(`npm pack ${name} made no tarball`);
  return join(work, packed.filename);
}

/** What `npm install <tarball>` puts into node_modules: the package, and its bin linked. */
function install(tarball: string): Json {
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  ) as Json & { name: string; bin?: Record<string, string> };
  expect({ name: manifest.name, sources: listing.filter((file) => file.endsWith('.ts')) }).toEqual({
    name: manifest.name,
    // Declarations only: no TypeScript source that Node would refuse under node_modules.
    sources: listing.filter((file) => file.endsWith('.d.ts')),
  });
  const into = join(project, 'node_modules', manifest.name);
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
  for (const [bin, target] of Object.entries(manifest.bin ?? {})) {
    const bins = join(project, 'node_modules', '.bin');
    mkdirSync(bins, { recursive: true });
    // As npm's bin-links does: a link in .bin, and the target made executable.
    chmodSync(join(into, target), 0o755);
    symlinkSync(join('..', manifest.name, target), join(bins, bin));
  }
  return manifest;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'handoff-mcp-pack-'));
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  const manifests = [install(pack('sdk', sdkPack)), install(pack('mcp', mcpPack))];
  for (const dependency of new Set(manifests.flatMap(dependenciesOf))) {
    if (dependency.startsWith('@handoff/')) continue;
    const link = join(project, 'node_modules', dependency);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(REPO, 'node_modules', dependency)), link);
  }
  // A stub gateway: the key's scopes, and the one read the test calls a tool for.
  gateway = createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers.authorization ?? ''}`);
    const body =
      req.url === '/v1/me'
        ? { object: 'me', integration_id: 'int_pack', scopes: SCOPES }
        : req.url === '/v1/services'
          ? { object: 'list', has_more: false, data: [{ slug: 'web-development' }] }
          : undefined;
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
}, 600_000);

afterAll(async () => {
  gateway?.closeAllConnections();
  await new Promise((resolve) => gateway?.close(resolve));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed @handoff/mcp', () => {
  it('carries the contracts it uses and depends only on published packages', () => {
    const manifest = readJson(join(project, 'node_modules/@handoff/mcp/package.json'));
    expect(dependenciesOf(manifest).filter((name) => name.startsWith('@handoff/'))).toEqual([
      '@handoff/sdk',
    ]);
    expect(manifest.bin).toEqual({ 'handoff-mcp': './dist/stdio.js' });
    const dist = join(project, 'node_modules/@handoff/mcp/dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' });
    expect(files).toEqual(expect.arrayContaining(['stdio.js', 'index.d.ts', 'contracts/index.js']));
    for (const file of files.filter((name) => /\.(js|d\.ts)$/.test(name))) {
      expect([file, readFileSync(join(dist, file), 'utf8')]).not.toEqual([
        file,
        expect.stringContaining('@handoff/contracts'),
      ]);
    }
  });

  it('runs as `npx handoff-mcp` in a project outside the monorepo', async () => {
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const client = new Client({ name: 'pack-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['--offline', '--no-install', 'handoff-mcp'],
        cwd: project,
        env: {
          ...getDefaultEnvironment(),
          PATH: process.env.PATH ?? '',
          HANDOFF_URL: url,
          HANDOFF_API_KEY: 'hk_live_packtest',
        },
        stderr: 'pipe',
      }),
    );
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(tools).toEqual(
        toolsFor(SCOPES)
          .map((tool) => tool.name)
          .sort(),
      );
      const categories = await client.callTool({ name: 'list_service_categories', arguments: {} });
      expect(categories.isError).toBeFalsy();
      expect(JSON.stringify(categories.structuredContent)).toContain('web-development');
    } finally {
      await client.close();
    }
    expect(seen).toEqual([
      'GET /v1/me Bearer hk_live_packtest',
      'GET /v1/services Bearer hk_live_packtest',
    ]);
  }, 60_000);

  it('imports as a library there, with declarations that type its API', () => {
    const names = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { TOOLS } = await import('@handoff/mcp'); console.log(JSON.stringify(TOOLS.map((t) => t.name)));",
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(JSON.parse(names)).toEqual(TOOLS.map((tool) => tool.name));

    // A consumer's TypeScript: the declarations resolve (contracts included), so a wrong scope
    // or option is a type error, not silently `any`.
    writeFileSync(
      join(project, 'consumer.ts'),
      [
        "import { createMcpHttpHandler, TOOLS, type ToolDefinition } from '@handoff/mcp';",
        "import { createHandoffClient } from '@handoff/sdk';",
        'const tools: readonly ToolDefinition[] = TOOLS;',
        "const scope: ToolDefinition['scopes'][number] = 'requests:read';",
        '// @ts-expect-error not a scope of the API',
        "const wrong: ToolDefinition['scopes'][number] = 'requests:everything';",
        "createMcpHttpHandler({ gatewayUrl: () => 'http://127.0.0.1:8080' });",
        '// @ts-expect-error the gateway URL is a function',
        "createMcpHttpHandler({ gatewayUrl: 'http://127.0.0.1:8080' });",
        "const client = createHandoffClient({ baseUrl: 'http://x', apiKey: 'hk_live_x' });",
        'export const used = [tools, scope, wrong, client.requests.paymentRequests.list];',
        '',
      ].join('\n'),
    );
    mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
    symlinkSync(
      realpathSync(join(REPO, 'node_modules/@types/node')),
      join(project, 'node_modules/@types/node'),
    );
    execFileSync(
      process.execPath,
      [
        join(REPO, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--target',
        'es2024',
        '--module',
        'nodenext',
        '--types',
        'node',
        'consumer.ts',
      ],
      { cwd: project, encoding: 'utf8' },
    );
  }, 120_000);
});
