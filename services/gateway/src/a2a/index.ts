import type express from 'express';
import { DEFAULT_CATEGORIES_FILE, loadCategories } from '../categories.ts';
import type { Env } from '../env.ts';
import { a2aRouter, type A2aDeps } from './mount.ts';
import { createTaskTokens } from './tokens.ts';

/**
 * The A2A binding of this gateway, when A2A_TOKENS_KEY is set (it encrypts the request tokens the
 * binding holds); without it the gateway serves no Agent Card and no `/a2a`.
 */
export async function a2aBinding(
  env: Env,
  deps: Omit<A2aDeps, 'tokens' | 'categories'>,
): Promise<express.Router | undefined> {
  if (env.A2A_TOKENS_KEY === undefined) return undefined;
  const tokens = await createTaskTokens(deps.nc, {
    keyBase64: env.A2A_TOKENS_KEY,
    replicas: env.NATS_STREAM_REPLICAS,
    timeoutMs: env.BUS_TIMEOUT_MS,
  });
  const categories = loadCategories(env.SERVICE_CATEGORIES_FILE ?? DEFAULT_CATEGORIES_FILE);
  return a2aRouter({ ...deps, tokens, categories });
}
