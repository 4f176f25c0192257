export {
  checkTargetUrl,
  classifyAddress,
  guardedLookup,
  isAllowed,
  TARGET_REFUSED,
  TargetRefusedError,
} from './ssrf.ts';
export type { AddressKind, Resolver, TargetCheck, TargetPolicy } from './ssrf.ts';
export {
  deliveryHeaders,
  generateWebhookSecret,
  secretKey,
  SECRET_PREFIX,
  signPayload,
  USER_AGENT,
} from './signer.ts';
export type { DeliveryHeaders } from './signer.ts';
export { AgentPool, outcomeForStatus, parseRetryAfter, sendWebhook } from './sender.ts';
export type {
  AgentPoolOptions,
  SendEvent,
  SendOptions,
  SendOutcome,
  SendResult,
  SendTarget,
} from './sender.ts';
export { JITTER_RATIO, nextAttemptDelayMs, shouldDisable } from './schedule.ts';
