import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ApproveBody, FileIds, ProviderCreate, WebhookEndpointCreate } from '../src/index.ts';

// Schemathesis found `attachments: ["file_F", "file_F"]` refused with 422 while the published
// schema allowed it: a list that refuses a repeat must say `uniqueItems` in its JSON Schema.
describe('lists that refuse a repeated item', () => {
  const lists: [string, z.ZodType, unknown[]][] = [
    ['attachments', FileIds, ['file_F', 'file_F']],
    ['scopes', ApproveBody.shape.scopes, ['requests:read', 'requests:read']],
    ['categories', ProviderCreate.shape.categories, ['design', 'design']],
    [
      'event types',
      WebhookEndpointCreate.shape.event_types.unwrap(),
      ['request.updated', 'request.updated'],
    ],
  ];

  it.each(lists)('%s: refused by zod and published as uniqueItems', (_name, schema, twice) => {
    expect(schema.safeParse(twice).success).toBe(false);
    expect(schema.safeParse(twice.slice(1)).success).toBe(true);
    expect(z.toJSONSchema(schema, { unrepresentable: 'any' })).toMatchObject({ uniqueItems: true });
  });
});
