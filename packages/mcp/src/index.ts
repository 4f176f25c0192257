export { createMcpHttpHandler, type McpHttpOptions } from './http.ts';
export { createHandoffMcpServer, SERVER_INFO } from './server.ts';
export { TOOLS, toolsFor, type ToolDefinition } from './tools.ts';
