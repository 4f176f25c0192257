import { WORKSPACE_LIMITS, type WebhookSettings } from '@handoff/contracts';
import { DEFAULT_CATEGORIES_FILE, loadCategories } from '../categories.ts';
import type { Env } from '../env.ts';
import type { RouteDefinition } from '../http/route.ts';
import type { RateLimitPolicy } from '../ratelimit.ts';
import type { ReadinessCheck } from '../readiness.ts';
import { accessRoutes } from './access.ts';
import { asyncApiRoutes } from './asyncapi.ts';
import { engagementRoutes } from './engagement.ts';
import { fileRoutes } from './files.ts';
import { createFileUrls } from '../files/urls.ts';
import { healthRoutes } from './health.ts';
import { metaRoutes } from './meta.ts';
import { providerRoutes } from './provider.ts';
import { requestRoutes } from './requests.ts';
import { staffEngagementRoutes } from './staff-engagement.ts';
import { staffRoutes } from './staff.ts';
import { staffRoutingRoutes } from './staff-routing.ts';
import { staffTestDataRoutes } from './staff-test-data.ts';
import { staffTimelineRoutes } from './staff-timeline.ts';
import { staffWebhookRoutes } from './staff-webhooks.ts';
import { stripeRoutes } from './stripe.ts';
import { testClockRoutes } from './test-clocks.ts';
import { updateRoutes, type UpdateHub } from './updates.ts';
import { webhookRoutes } from './webhooks.ts';
import { workspaceRoutes } from './workspace.ts';
import type { Logger } from '@handoff/observability';
import type { RateLimiter } from '../ratelimit.ts';

/**
 * The rate-limit policies of this deployment, one window of a minute each but the sign-in asks
 * per address, counted over the life of a link.
 */
export function ratePolicies(env: Env) {
  const minute = (name: string, limit: number): RateLimitPolicy => ({
    name,
    limit,
    windowSeconds: 60,
  });
  return {
    key: minute('key', env.RATE_LIMIT_PER_MINUTE),
    public: minute('public', env.PUBLIC_RATE_LIMIT_PER_MINUTE),
    authFailures: minute('auth_failures', env.AUTH_FAILURE_LIMIT_PER_MINUTE),
    authFailuresPerPrefix: minute('auth_failures_prefix', env.AUTH_FAILURE_LIMIT_PER_MINUTE),
    signIn: minute('sign_in', env.SIGN_IN_PER_MINUTE_PER_ADDRESS),
    signInPerAddress: {
      name: 'sign_in_address',
      limit: WORKSPACE_LIMITS.signInPerAddress,
      windowSeconds: WORKSPACE_LIMITS.signInWindowMinutes * 60,
    },
  };
}

/**
 * Every route the gateway serves, in one place: the server mounts them and the OpenAPI document
 * is generated from them, so the two cannot disagree.
 */
export function gatewayRoutes(
  env: Env,
  readiness: ReadinessCheck,
  updates?: UpdateHub,
  webhookSettings?: () => WebhookSettings | undefined,
  /** Counts the workspace's sign-in asks per address (the running gateway's; not in the document). */
  signIns?: { limiter: RateLimiter; logger: Logger },
): RouteDefinition[] {
  return [
    ...metaRoutes({
      policies: ratePolicies(env),
      fileUrlTtlSeconds: env.FILE_URL_TTL_SECONDS,
      ...(webhookSettings ? { webhookSettings } : {}),
    }),
    ...asyncApiRoutes(),
    ...healthRoutes(readiness, updates),
    ...requestRoutes(loadCategories(env.SERVICE_CATEGORIES_FILE ?? DEFAULT_CATEGORIES_FILE)),
    ...accessRoutes,
    ...engagementRoutes,
    ...fileRoutes(
      createFileUrls({
        keyBase64: env.FILE_URLS_KEY,
        ttlSeconds: env.FILE_URL_TTL_SECONDS,
        // Only the running gateway is told that its URLs work on this process alone.
        ...(signIns ? { logger: signIns.logger } : {}),
      }),
    ),
    ...providerRoutes,
    ...workspaceRoutes({
      env,
      signInPerAddress: ratePolicies(env).signInPerAddress,
      ...signIns,
    }),
    ...staffRoutes,
    ...staffRoutingRoutes,
    ...staffEngagementRoutes,
    ...staffTimelineRoutes,
    ...staffWebhookRoutes,
    ...staffTestDataRoutes,
    ...webhookRoutes,
    ...testClockRoutes,
    ...stripeRoutes,
    ...updateRoutes(updates),
  ];
}
