import { z } from 'zod';

/** RFC 9457 problem details as the API answers them (conventions §1). */
export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  request_id: z.string(),
  errors: z
    .array(z.object({ pointer: z.string(), code: z.string(), detail: z.string() }))
    .optional(),
});
export type Problem = z.infer<typeof Problem>;
