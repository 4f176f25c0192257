import { CSRF_HEADER } from '@handoff/contracts';
import { fileSize, fileTypeName } from '@handoff/web-ui';
import {
  createProviderClient,
  createWorkspaceClient,
  HandoffConnectionError,
  HandoffError,
  isProblem,
  type BodyOf,
  type Ok,
  type ProviderClient,
  type WorkspaceClient,
} from '@handoff/sdk';
import { declaredType, sendBytes } from './upload.ts';

// The types of what the workspace shows, from the OpenAPI document (packages/sdk/src/generated).
type Item<L> = L extends { data: (infer T)[] } ? T : never;

export type WorkspaceSession = Ok<'/v1/workspace/session', 'get'>;
export type InboxRequest = Item<Ok<'/v1/provider/requests', 'get'>>;
export type RequestDetail = Ok<'/v1/provider/requests/{id}', 'get'>;
/** A request's offer to this provider (automatic routing), with its response deadline. */
export type Offer = NonNullable<RequestDetail['offer']>;
/** The signed-in provider: its availability and languages, and its capacity and load. */
export type ProviderMe = Ok<'/v1/provider/me', 'get'>;
export type ProviderSelfPatch = BodyOf<'/v1/provider/me', 'patch'>;
export type Message = Item<Ok<'/v1/provider/requests/{id}/messages', 'get'>>;
export type Proposal = Item<Ok<'/v1/provider/proposals', 'get'>>;
export type ProposalCreate = BodyOf<'/v1/provider/requests/{id}/proposals', 'post'>;
export type Currency = NonNullable<ProposalCreate['currency']>;
export type Job = Item<Ok<'/v1/provider/jobs', 'get'>>;
export type Milestone = Item<Ok<'/v1/provider/milestones', 'get'>>;
export type Deliverable = Item<Ok<'/v1/provider/deliverables', 'get'>>;
export type Dispute = Item<Ok<'/v1/provider/disputes', 'get'>>;
export type Payment = Item<Ok<'/v1/provider/requests/{id}/payments', 'get'>>;
export type NotificationSettings = Ok<'/v1/provider/notification-settings', 'get'>;
export type MailKind = keyof NotificationSettings['kinds'];
export type RequestEvent = Item<Ok<'/v1/provider/requests/{id}/events', 'get'>>;
/** A file of a request, with its short-lived `download_url`. */
export type FileObject = Ok<'/v1/provider/requests/{id}/files/{file_id}', 'get'>;
/** What a message or a deliverable carries of a file: no address to download it from. */
export type FileMeta = NonNullable<Message['attachments']>[number];
export type { ProviderClient };

/** The workspace's own calls (sign-in, the session, unsubscribe), on the page's origin. */
export const workspaceClient = (csrfToken?: string) =>
  createWorkspaceClient({
    baseUrl: location.origin,
    ...(csrfToken === undefined ? {} : { csrfToken }),
  });

/** The signed-in provider's two clients, sharing what they know of the session. */
export interface Connection {
  /** The provider API (`/v1/provider/*`). */
  provider: ProviderClient;
  /** The session's own calls (signing out). */
  workspace: WorkspaceClient;
  upload: Uploader;
}

/** Where a file goes: the request's conversation, or a milestone's deliverables. */
export type UploadTarget = { requestId: string } | { milestoneId: string };

/** Uploads one file, telling `onProgress` the share sent so far (0 to 1). */
export type Uploader = (
  target: UploadTarget,
  file: File,
  onProgress: (sent: number) => void,
) => Promise<FileObject>;

const uploadPath = (target: UploadTarget, filename: string) =>
  `${
    'requestId' in target
      ? `/v1/provider/requests/${encodeURIComponent(target.requestId)}`
      : `/v1/provider/milestones/${encodeURIComponent(target.milestoneId)}`
  }/files?filename=${encodeURIComponent(filename)}`;

/** What the screens must hear about the session, wherever a call learnt it. */
export interface SessionEvents {
  /** The session ended on the server (signed out elsewhere, revoked by staff, suspended, expired). */
  ended(): void;
  /** The browser's cookie now holds another session (signed in again in another tab). */
  replaced(session: WorkspaceSession): void;
}

const refusedForCsrf = (response: Response) => isProblem(response, 403, 'csrf_token_invalid');

/**
 * The provider API as the signed-in provider: the browser sends the session cookie, the clients
 * the session's CSRF token. Two things every screen must not have to remember are handled here,
 * once. Any 401 means the session ended. And a refused CSRF token usually means that the person
 * signed in again in another tab: the cookie (shared by the tabs) is then a newer session's, whose
 * token this tab has never seen; it is read once from the session and the call made again, so
 * that what the person just did (send a message, submit a milestone) is not refused.
 */
export function connect(session: WorkspaceSession, on: SessionEvents): Connection {
  let csrfToken = session.csrf_token;
  /** Reads the token of the session the cookie now holds: whether to make the call again. */
  const renew = async () => {
    const current = await workspaceClient()
      .session()
      .catch((error: unknown) => {
        if (isSignedOut(error)) on.ended();
        return null;
      });
    if (!current) return false;
    csrfToken = current.csrf_token;
    on.replaced(current);
    // Done as the session the browser now holds, if it is still this provider's.
    return current.provider.id === session.provider.id;
  };
  const send = (request: Request) => {
    if (!request.headers.has(CSRF_HEADER)) return globalThis.fetch(request);
    const headers = new Headers(request.headers);
    headers.set(CSRF_HEADER, csrfToken);
    return globalThis.fetch(new Request(request, { headers }));
  };
  const fetch = async (request: Request) => {
    const again = request.headers.has(CSRF_HEADER) ? request.clone() : null;
    let response = await send(request);
    if (again && (await refusedForCsrf(response)) && (await renew())) {
      response = await send(again);
    }
    if (response.status === 401) on.ended();
    return response;
  };
  const upload: Uploader = async (target, file, onProgress) => {
    // One key for the file's attempts here: a repeat after a lost answer is the same upload.
    const key = crypto.randomUUID();
    const attempt = () =>
      sendBytes(
        `${location.origin}${uploadPath(target, file.name)}`,
        file,
        {
          Accept: 'application/json',
          'Content-Type': declaredType(file),
          'Idempotency-Key': key,
          [CSRF_HEADER]: csrfToken,
        },
        onProgress,
      );
    let sent = await attempt();
    if (sent.status === 403 && sent.body.code === 'csrf_token_invalid' && (await renew())) {
      sent = await attempt();
    }
    if (sent.status === 401) on.ended();
    if (sent.status !== 201) throw new HandoffError(sent.status, sent.body);
    return sent.body as FileObject;
  };
  return {
    provider: createProviderClient({ baseUrl: location.origin, session: { csrfToken }, fetch }),
    workspace: createWorkspaceClient({ baseUrl: location.origin, csrfToken, fetch }),
    upload,
  };
}

/** Every item of a list (they are short: one provider's work on one request). */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

const CONFLICTS: Record<string, string> = {
  invalid_state_transition:
    'This changed since the page showed it. The page now shows where it stands.',
  concurrent_change: 'Someone changed this at the same moment. Please try again.',
  request_not_open: 'This request no longer takes proposals.',
  request_closed: 'This request is closed: it takes no more messages or proposals.',
  proposal_exists: 'You already have a proposal waiting on this request.',
  job_has_open_work:
    'The job can be completed once every milestone is approved and no dispute is open.',
  job_not_active: 'This job is no longer active.',
  no_job: 'There is no job on this request yet.',
  milestone_under_review:
    'The customer is reviewing this milestone; its links can change once they have decided.',
  comment_limit_reached: 'This dispute has as many comments as it may have.',
  provider_suspended: 'Your provider account is suspended. Please contact Handoff.',
  offer_not_pending:
    'This offer no longer waits for your answer: it lapsed, was withdrawn, or was answered in another tab. The page now shows where it stands.',
  offer_not_found:
    'This request is not offered to you (any more). The page now shows where it stands.',
};

/** Some chosen files could not be uploaded: each one says why beside it, and nothing was sent. */
export class UploadFailed extends Error {
  constructor(failed: number, chosen: number) {
    const which = failed === 1 && chosen === 1 ? 'The file' : `${failed} of ${chosen} files`;
    super(
      `${which} could not be uploaded (see below). Nothing was sent: remove ${
        failed === 1 ? 'it' : 'them'
      } or try again.`,
    );
    this.name = 'UploadFailed';
  }
}

const TAKEN =
  'images (PNG, JPEG, GIF, WebP), PDF, text, CSV, Markdown, JSON, Word, Excel and PowerPoint documents, ZIP and gzip';

/** What is wrong with a file the gateway refused, when it is the file. */
function fileProblem(error: HandoffError): string | null {
  const { limit, detected } = error.body;
  switch (error.code) {
    case 'file_too_large':
      return typeof limit === 'number'
        ? `Too large: at most ${fileSize(limit)} can be sent here.`
        : 'Too large to be sent here.';
    case 'file_type_not_allowed':
      return `Handoff does not take files of this type. It takes ${TAKEN}.`;
    case 'file_type_mismatch':
      return `The file is not what its type says${
        typeof detected === 'string' ? ` (its contents are ${fileTypeName(detected)})` : ''
      }. Save it again with the right type, or choose another file.`;
    case 'limit_reached':
      return `This request has as many files as it may have${
        typeof limit === 'number' ? ` (${limit})` : ''
      }.`;
    default:
      return null;
  }
}

/** What went wrong, in words for the person at the screen (no codes, no paths). */
export function errorText(error: unknown): string {
  if (error instanceof HandoffConnectionError || error instanceof TypeError) {
    return 'Handoff could not be reached. Check your connection and try again.';
  }
  if (error instanceof UploadFailed) return error.message;
  if (!(error instanceof HandoffError)) return 'Something went wrong. Please try again.';
  const known = CONFLICTS[error.code] ?? fileProblem(error);
  if (known) return known;
  if (error.status === 401) return 'You were signed out. Sign in again to go on.';
  if (error.code === 'csrf_token_invalid') {
    return 'This page is out of date. Reload it and try again.';
  }
  if (error.status === 404) return 'This is no longer available to you.';
  if (error.status === 422 || error.status === 400) {
    const fields = error.errors.map((field) => field.detail).join('; ');
    return `Some of what you entered was not accepted${fields ? `: ${fields}` : '.'}`;
  }
  if (error.status === 429) {
    return 'Too many tries in a short time. Wait a minute, then try again.';
  }
  if (error.status >= 500) {
    return 'Handoff is having trouble right now. Please try again in a moment.';
  }
  return 'That did not work. Please try again.';
}

export const isSignedOut = (error: unknown) =>
  error instanceof HandoffError && error.status === 401;
export { HandoffError };
