import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const ServiceCategory = z.strictObject({
  slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .max(64),
  name: z.string().min(1).max(100),
  description: z.string().min(1).max(500),
});
export type ServiceCategory = z.infer<typeof ServiceCategory>;

const CategoryFile = z
  .array(ServiceCategory)
  .min(1)
  .refine((list) => new Set(list.map((c) => c.slug)).size === list.length, {
    message: 'slugs must be unique',
  });

export const DEFAULT_CATEGORIES_FILE = fileURLToPath(
  new URL('../config/service-categories.json', import.meta.url),
);

/** The categories a deployment offers; its own file replaces ours through SERVICE_CATEGORIES_FILE. */
export function loadCategories(path: string): ServiceCategory[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`SERVICE_CATEGORIES_FILE ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed = CategoryFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `SERVICE_CATEGORIES_FILE ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}
