import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_STATE_MACHINES } from '../src/lifecycle.ts';
import { stateMachinesDocument } from '../src/state-machines-doc.ts';

const COMMITTED = fileURLToPath(new URL('../../../docs/state-machines.md', import.meta.url));

describe('docs/state-machines.md', () => {
  it('is what the machines generate', () => {
    if (readFileSync(COMMITTED, 'utf8') !== `${stateMachinesDocument()}\n`) {
      throw new Error(
        'docs/state-machines.md is out of date: run `bash scripts/openapi.sh` (npm run openapi) and commit it.',
      );
    }
  });

  it('names every machine, every state and every action', () => {
    const doc = readFileSync(COMMITTED, 'utf8');
    for (const machine of ALL_STATE_MACHINES) {
      expect(doc).toContain(`The ${machine.resource.replaceAll('_', ' ')} state machine`);
      for (const state of machine.states) expect(doc).toContain(`\`${state}\``);
      for (const action of Object.keys(machine.events)) expect(doc).toContain(`\`${action}\``);
    }
  });
});
