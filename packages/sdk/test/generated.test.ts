import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { generateSchema, SCHEMA_FILE } from '../scripts/generate.ts';

describe('the generated SDK types', () => {
  it('match the committed OpenAPI document (run `npm run openapi` and commit when not)', async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(await generateSchema());
  });
});
