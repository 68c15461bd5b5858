export { handleMcpRequest } from './http.ts';
export { createMcpServer, type McpServerOptions, type PrincipalSource } from './server.ts';
export { runStdioServer, type StdioServerOptions } from './stdio.ts';
