/** The backend services the gateway talks to over the bus. The gateway itself is the eighth process. */
export const BACKEND_SERVICES = [
  'intake',
  'conversation',
  'payments',
  'milestones',
  'webhook-dispatcher',
  'notifications',
  // Test mode's simulated provider (and the test helpers): it acts only on test requests.
  'testmode',
] as const;
export type BackendService = (typeof BACKEND_SERVICES)[number];

export const ALL_SERVICES = ['gateway', ...BACKEND_SERVICES] as const;
export type ServiceName = (typeof ALL_SERVICES)[number];

export const API_VERSION = '1.0.2';
