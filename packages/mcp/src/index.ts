export {
  createMcpHttpHandler,
  type AgentApiFetch,
  type McpHttpOptions,
  type McpIdentity,
} from './http.ts';
export { createHandoffMcpServer, SERVER_INFO } from './server.ts';
export { TOOLS, toolsFor, type ToolDefinition } from './tools.ts';
export { TEST_TOOLS } from './test-tools.ts';
export { FILE_TOOLS } from './file-tools.ts';
export { MCP_BODY_LIMIT_BYTES, MCP_UPLOAD_MAX_BYTES } from './limits.ts';
