export {
  createHandoffClient,
  type AgentClientOptions,
  type HandoffClient,
  type TokenOption,
} from './agent.ts';
export { type Api, type ClientOptions, type Credentials } from './client.ts';
export {
  HandoffConnectionError,
  HandoffError,
  isProblem,
  unwrap,
  type FieldError,
} from './errors.ts';
export {
  type DownloadOptions,
  type DownloadSource,
  type UploadBody,
  type UploadOptions,
} from './files.ts';
export { paginate, toArray, type Page } from './paginate.ts';
export {
  createProviderClient,
  createStaffClient,
  createWorkspaceClient,
  type ListOption,
  type ProviderClient,
  type ProviderClientOptions,
  type StaffClient,
  type StaffClientOptions,
  type WorkspaceClient,
} from './provider.ts';
export { DEFAULT_RETRY, retryingFetch, type RetryOptions } from './transport.ts';
export type * from './types.ts';
export { verifyWebhook } from './webhooks.ts';
