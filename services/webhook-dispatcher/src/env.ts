import { baseServiceEnv, loadEnv } from '@handoff/config';
import type { z } from 'zod';

export const envSchema = baseServiceEnv;
export type Env = z.output<typeof envSchema>;

export const readEnv = (source?: Record<string, string | undefined>): Env =>
  loadEnv('webhook-dispatcher', envSchema, source);
