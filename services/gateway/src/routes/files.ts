// Files (docs/files.md): uploads into a request's conversation (the agent, the provider) and
// into a milestone's deliverables (the provider), reads that hand out short-lived signed download
// URLs to the request's parties only, and the download itself, which the URL alone opens.
import {
  conversationFileOps,
  deliverableFileOps,
  FileObject,
  FileRecord,
  listOf,
  providerOps,
  UploadQuery,
  type FileAccessRecord,
  type FileOpsOf,
} from '@handoff/contracts';
import { BusError, callBytes } from '@handoff/bus';
import { z } from 'zod';
import { fileBusOptions, receiveUpload } from '../files/receive.ts';
import { DOWNLOAD_HEADERS, sendFile } from '../files/send.ts';
import type { FileUrls } from '../files/urls.ts';
import { HttpError } from '../http/errors.ts';
import { refuseClosed } from '../http/request-closed.ts';
import {
  defineRoute,
  type BaseContext,
  type RouteDefinition,
  type UploadSource,
} from '../http/route.ts';
import { Id, IdParams, RequestParams, child } from './ids.ts';

const UPLOAD = {
  description:
    "The file's bytes exactly as they are (no multipart, no base64, no Content-Encoding). " +
    '`Content-Type` declares the type, which the bytes must agree with (`application/octet-stream` ' +
    'lets the bytes decide); `Content-Length` is optional (a chunked body is counted as it ' +
    'streams). docs/files.md lists the types and limits.',
};

type Ctx = Pick<BaseContext, 'call'>;

/** A file in the service `ops` are of, and how to read its chunks there. */
async function readerOf<B extends z.ZodType>(
  ctx: Pick<BaseContext, 'call' | 'bus'>,
  ops: FileOpsOf<B>,
  fileId: string,
) {
  const record = await ctx.call(ops.get, { file_id: fileId });
  const { nc } = ctx.bus;
  const options = fileBusOptions(ctx.bus);
  const read = (n: number) => callBytes(nc, ops.read, { file_id: fileId, n }, undefined, options);
  return { record, read };
}

/** A request's files in both services that keep them, newest first. */
async function filesOfRequest(ctx: Ctx, requestId: string): Promise<FileAccessRecord[]> {
  const [attachments, deliverables] = await Promise.all([
    ctx.call(conversationFileOps.list, { request_id: requestId }),
    ctx.call(deliverableFileOps.list, { request_id: requestId }),
  ]);
  return [...attachments.data, ...deliverables.data].sort((a, b) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0,
  );
}

/**
 * One file of a request, from whichever service keeps it; `file_not_found` when neither has it
 * for this request, or `visible` says the caller may not see it: the same answer either way.
 */
async function fileOfRequest(
  ctx: Ctx,
  requestId: string,
  fileId: string,
  visible: (record: FileAccessRecord) => boolean = () => true,
): Promise<FileAccessRecord> {
  const found = await Promise.all(
    [conversationFileOps, deliverableFileOps].map((ops) =>
      ctx.call(ops.get, { file_id: fileId }).catch((error: unknown) => {
        if (error instanceof BusError && error.code === 'file_not_found') return undefined;
        throw error;
      }),
    ),
  );
  const record = found.find((item) => item?.request_id === requestId);
  if (!record || !visible(record)) {
    throw new HttpError('file_not_found', `No file ${fileId} on this request.`);
  }
  return record;
}

/** A file as the API answers it: without whose it is, with a fresh download URL. */
function present(urls: FileUrls, origin: string, record: FileAccessRecord): FileObject {
  const signed = urls.sign(origin, { fileId: record.id, purpose: record.purpose });
  // Whose the file is (the integration, the provider's id) stays with the gateway.
  return {
    ...FileRecord.parse(record),
    download_url: signed.url,
    download_url_expires_at: signed.expiresAt.toISOString(),
  };
}

const list = (urls: FileUrls, origin: string, records: FileAccessRecord[]) => ({
  object: 'list' as const,
  data: records.map((record) => present(urls, origin, record)),
  has_more: false,
});

const FileParams = child('file_id');
const ProviderFileParams = z.strictObject({ id: Id, file_id: Id });

/** A provider sees the conversation's files and the deliverables' files it uploaded itself. */
const providerSees = (providerId: string) => (record: FileAccessRecord) =>
  record.purpose === 'message_attachment' || record.provider_id === providerId;

export function fileRoutes(urls: FileUrls): RouteDefinition[] {
  return [...agentFileRoutes(urls), ...providerFileRoutes(urls), ...downloadRoutes(urls)];
}

function agentFileRoutes(urls: FileUrls): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/request/{id}/files',
      operationId: 'uploadRequestFile',
      summary:
        "Upload a file into the request's conversation (the body is the file's bytes); attach it to a message next (extension)",
      tags: ['files'],
      access: { kind: 'agent', scopes: ['messages:create'] },
      requestToken: 'open',
      params: RequestParams,
      query: UploadQuery,
      upload: UPLOAD,
      status: 201,
      response: FileObject,
      notFound: ['request_not_found'],
      conflicts: ['request_closed', 'limit_reached'],
      handle: async (ctx) => {
        const record = await receiveUpload(
          conversationFileOps,
          {
            request_id: ctx.request.id,
            integration_id: ctx.agent.integration_id,
            uploaded_by: 'agent',
          },
          ctx.query.filename,
          uploadOf(ctx),
          ctx.bus,
        );
        return present(urls, ctx.origin, record);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/request/{id}/files',
      operationId: 'listRequestFiles',
      summary:
        "The request's files (the conversation's and the deliverables'), newest first, each with a download URL that works for 15 minutes (extension)",
      tags: ['files'],
      access: { kind: 'agent', scopes: ['requests:read'] },
      requestToken: 'owner',
      params: RequestParams,
      status: 200,
      response: listOf(FileObject),
      notFound: ['request_not_found'],
      handle: async (ctx) => list(urls, ctx.origin, await filesOfRequest(ctx, ctx.request.id)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/request/{id}/files/{file_id}',
      operationId: 'getRequestFile',
      summary: 'One file of the request, with a fresh download URL (extension)',
      tags: ['files'],
      access: { kind: 'agent', scopes: ['requests:read'] },
      requestToken: 'owner',
      params: FileParams,
      status: 200,
      response: FileObject,
      notFound: ['file_not_found', 'request_not_found'],
      handle: async (ctx) =>
        present(urls, ctx.origin, await fileOfRequest(ctx, ctx.request.id, ctx.params.file_id)),
    }),
  ];
}

function providerFileRoutes(urls: FileUrls): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/provider/requests/{id}/files',
      operationId: 'uploadProviderRequestFile',
      summary:
        "Upload a file into the request's conversation as the provider; attach it to a message next",
      tags: ['provider', 'files'],
      access: { kind: 'provider' },
      params: IdParams,
      query: UploadQuery,
      upload: UPLOAD,
      status: 201,
      response: FileObject,
      notFound: ['request_not_found'],
      conflicts: ['request_closed', 'limit_reached'],
      handle: async (ctx) => {
        const request = await ctx.call(providerOps.request, {
          provider_id: ctx.provider.provider_id,
          request_id: ctx.params.id,
        });
        refuseClosed(request.status);
        const record = await receiveUpload(
          conversationFileOps,
          {
            request_id: request.id,
            integration_id: request.integration_id,
            uploaded_by: 'provider',
            provider_id: ctx.provider.provider_id,
          },
          ctx.query.filename,
          uploadOf(ctx),
          ctx.bus,
        );
        return present(urls, ctx.origin, record);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/provider/milestones/{id}/files',
      operationId: 'uploadDeliverableFile',
      summary:
        'Upload a file for a deliverable of the milestone (while it takes deliverables); attach it with `files` when adding the deliverable',
      tags: ['provider', 'deliverables', 'files'],
      access: { kind: 'provider' },
      params: IdParams,
      query: UploadQuery,
      upload: UPLOAD,
      status: 201,
      response: FileObject,
      notFound: ['milestone_not_found'],
      conflicts: ['limit_reached'],
      handle: async (ctx) => {
        const record = await receiveUpload(
          deliverableFileOps,
          { milestone_id: ctx.params.id, provider_id: ctx.provider.provider_id },
          ctx.query.filename,
          uploadOf(ctx),
          ctx.bus,
        );
        return present(urls, ctx.origin, record);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/provider/requests/{id}/files',
      operationId: 'listProviderRequestFiles',
      summary:
        "The request's files the provider may see (the conversation's, and its own deliverables'), each with a download URL",
      tags: ['provider', 'files'],
      access: { kind: 'provider' },
      params: IdParams,
      status: 200,
      response: listOf(FileObject),
      notFound: ['request_not_found'],
      handle: async (ctx) => {
        const request = await ctx.call(providerOps.request, {
          provider_id: ctx.provider.provider_id,
          request_id: ctx.params.id,
        });
        const records = await filesOfRequest(ctx, request.id);
        return list(urls, ctx.origin, records.filter(providerSees(ctx.provider.provider_id)));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/provider/requests/{id}/files/{file_id}',
      operationId: 'getProviderRequestFile',
      summary: 'One file of the request the provider may see, with a fresh download URL',
      tags: ['provider', 'files'],
      access: { kind: 'provider' },
      params: ProviderFileParams,
      status: 200,
      response: FileObject,
      notFound: ['file_not_found', 'request_not_found'],
      handle: async (ctx) => {
        const request = await ctx.call(providerOps.request, {
          provider_id: ctx.provider.provider_id,
          request_id: ctx.params.id,
        });
        const record = await fileOfRequest(
          ctx,
          request.id,
          ctx.params.file_id,
          providerSees(ctx.provider.provider_id),
        );
        return present(urls, ctx.origin, record);
      },
    }),
  ];
}

/** Staff's list, and the download that a URL alone opens. */
function downloadRoutes(urls: FileUrls): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/staff/requests/{id}/files',
      operationId: 'listStaffRequestFiles',
      summary:
        "Every file of a request (the conversation's and the deliverables'), with download URLs",
      tags: ['staff', 'files'],
      access: { kind: 'staff' },
      params: IdParams,
      status: 200,
      response: listOf(FileObject),
      handle: async (ctx) => list(urls, ctx.origin, await filesOfRequest(ctx, ctx.params.id)),
    }),

    defineRoute({
      method: 'get',
      path: '/v1/files/{file_id}/content',
      operationId: 'downloadFile',
      summary:
        'Download a file by its signed `download_url` (no credentials: the URL is the capability, until it expires); ranges and `If-None-Match` are honoured (extension)',
      tags: ['files'],
      access: { kind: 'public' },
      params: z.strictObject({ file_id: Id }),
      query: z.strictObject({
        purpose: z.string().max(64),
        expires: z.string().max(16),
        signature: z.string().max(128),
      }),
      status: 200,
      response: z.string(),
      download: {
        description:
          "The file's bytes (`206` with `Content-Range` for a `Range` of one span, `304` for a matching `If-None-Match`), as an attachment that no browser runs or sniffs",
        headers: { ...DOWNLOAD_HEADERS },
      },
      forbidden: ['download_url_invalid'],
      notFound: ['file_not_found'],
      handle: async (ctx) => {
        const signed = urls.verify({ fileId: ctx.params.file_id, ...ctx.query });
        if (!signed) {
          throw new HttpError(
            'download_url_invalid',
            'The download URL is altered, expired or malformed: read the file again for a fresh one.',
          );
        }
        const file =
          signed.purpose === 'deliverable'
            ? await readerOf(ctx, deliverableFileOps, signed.fileId)
            : await readerOf(ctx, conversationFileOps, signed.fileId);
        await sendFile(ctx.res.req, ctx.res, { ...file, expiresAt: signed.expiresAt });
        return undefined;
      },
    }),
  ];
}

function uploadOf(ctx: { upload?: UploadSource | undefined }): UploadSource {
  if (ctx.upload === undefined) throw new Error('an upload route is given its body as a stream');
  return ctx.upload;
}
