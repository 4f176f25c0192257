import { BODY_LIMIT_BYTES } from '@handoff/contracts';

/**
 * The most one upload_file call takes, decoded: a tool's arguments travel whole in one JSON-RPC
 * message (as base64, a third larger), unlike the API's streamed upload of up to
 * `FILE_LIMITS.maxFileBytes`. Larger files go through the SDK or the API.
 */
export const MCP_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The largest MCP message (an HTTP body, a stdio line): the API's JSON limit, and room for one
 * upload_file call with its content as base64.
 */
export const MCP_BODY_LIMIT_BYTES = BODY_LIMIT_BYTES + Math.ceil(MCP_UPLOAD_MAX_BYTES / 3) * 4;
