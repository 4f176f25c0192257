// The README's walkthrough as one bash script: every ```bash block of README.md, in order. The
// README test runs it against a fresh stack; to run it by hand against a running `npm start`:
//   bash -euo pipefail <(node tools/devstack/src/readme-script.ts)
// Blocks fenced as ```sh (or any other language) are illustrations and are left out.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

/** The bodies of the ```bash blocks of `markdown`, in order, with the line each starts on. */
export function bashBlocks(markdown: string): { line: number; body: string }[] {
  const blocks: { line: number; body: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^(`{3,})\s*(\S*)\s*$/.exec(lines[i] ?? '');
    if (!fence) continue;
    const [, ticks = '```', language] = fence;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').startsWith(ticks)) end += 1;
    if (language === 'bash')
      blocks.push({ line: start + 1, body: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** The script: each block after a comment naming its README line, so a failure points at it. */
export function readmeScript(markdown = readFileSync(README, 'utf8')): string {
  return bashBlocks(markdown)
    .map(({ line, body }) => `# README.md line ${line}\n${body}\n`)
    .join('\n');
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(readmeScript(readFileSync(join(README), 'utf8')));
}
