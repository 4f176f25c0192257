import { FILE_LIMITS, FILE_TYPES } from '@handoff/contracts';
import { toArray } from '@handoff/sdk';
import { z } from 'zod';
import { MCP_UPLOAD_MAX_BYTES } from './limits.ts';
import { onRequest } from './request-tool.ts';
import type { ToolDefinition } from './tool-definition.ts';

const MIB = MCP_UPLOAD_MAX_BYTES / (1024 * 1024);

const UploadFields = {
  filename: z
    .string()
    .min(1)
    .max(1_000)
    .describe('The file’s name with its extension, e.g. `error-log.txt` or `floor-plan.pdf`.'),
  content_base64: z
    .base64()
    // Four characters for every three bytes: the limit is checked before anything is decoded.
    .max(Math.ceil(MCP_UPLOAD_MAX_BYTES / 3) * 4)
    .optional()
    .describe('The file’s bytes, base64-encoded: for binary files (images, PDFs, archives).'),
  text: z
    .string()
    .max(MCP_UPLOAD_MAX_BYTES)
    .optional()
    .describe('The file’s content as text (UTF-8): for logs, notes, CSV, Markdown or JSON.'),
  content_type: z
    .enum([...FILE_TYPES, 'application/octet-stream'])
    .optional()
    .describe(
      'The file’s type; it must agree with the bytes. Leave it out (or `application/octet-stream`) to let the bytes decide.',
    ),
};
const UploadArgs = z.object(UploadFields);

/** The bytes of an upload_file call: exactly one of `content_base64` and `text`, within the limit. */
function contentOf(args: Record<string, unknown>): Uint8Array {
  const { content_base64, text } = UploadArgs.parse(args);
  if ((content_base64 === undefined) === (text === undefined)) {
    throw new Error('Give exactly one of `content_base64` (binary files) and `text` (text files).');
  }
  const bytes =
    content_base64 === undefined
      ? new TextEncoder().encode(text)
      : new Uint8Array(Buffer.from(content_base64, 'base64'));
  if (bytes.byteLength > MCP_UPLOAD_MAX_BYTES) {
    throw new Error(
      `The file is ${bytes.byteLength} bytes; upload_file takes at most ${MCP_UPLOAD_MAX_BYTES} (${MIB} MiB).`,
    );
  }
  return bytes;
}

const TYPES = FILE_TYPES.map((type) => `\`${type}\``).join(', ');

export const FILE_TOOLS: readonly ToolDefinition[] = [
  onRequest(
    {
      name: 'upload_file',
      title: 'Upload a file',
      description:
        "Uploads a file into the request's conversation, for the provider: a screenshot, log, brief, contract or data file the customer gave you. " +
        `Give its content as \`content_base64\` (binary) or \`text\` (text files), exactly one, at most ${MIB} MiB. ` +
        `Allowed types (checked against the bytes): ${TYPES}; nothing a browser would run. ` +
        'The answer is the file (`id`, `sha256`, a short-lived `download_url`); then send it with send_message (`attachments: [id]`) so the provider sees it in the conversation.',
      scopes: ['messages:create'],
      operationId: 'uploadRequestFile',
      readOnly: false,
    },
    UploadFields,
    (requests, id, opts, args) => {
      const { filename, content_type } = UploadArgs.parse(args);
      return requests.files.upload(id, contentOf(args), {
        filename,
        ...(content_type ? { contentType: content_type } : {}),
        ...opts,
      });
    },
  ),
  onRequest(
    {
      name: 'list_files',
      title: 'List files',
      description:
        "The request's files, newest first: attachments of the conversation (yours and the provider's) and the provider's deliverable files, " +
        `each with \`filename\`, \`size\`, \`content_type\`, \`sha256\` and a \`download_url\` that works for ${FILE_LIMITS.downloadUrlTtlSeconds / 60} minutes without credentials (call again for a fresh one). ` +
        'Use it when a message or deliverable names files (`attachments`, `files`: metadata only) and you need their content.',
      scopes: ['requests:read'],
      operationId: 'listRequestFiles',
      readOnly: true,
    },
    {},
    async (requests, id, opts) => ({ data: await toArray(requests.files.list(id, opts)) }),
  ),
];
