import { authenticate, problemResponse, type Services } from '@cartwright/service';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer, type McpServerOptions } from './server.ts';

function bearerTokenOf(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match?.[1];
}

function methodNotAllowed(): Response {
  // Stateless: no standalone SSE stream to open (GET) and no session to end (DELETE).
  const body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
  return new Response(JSON.stringify(body), {
    status: 405,
    headers: { 'content-type': 'application/json', allow: 'POST' },
  });
}

/**
 * Serves one Streamable HTTP request to the MCP endpoint (the HTTP host's `/mcp` route).
 * Stateless: every request is authenticated by its bearer token and gets a fresh server and
 * transport, so no state leaks between callers or shops.
 */
export async function handleMcpRequest(
  services: Services,
  request: Request,
  options: McpServerOptions = {},
): Promise<Response> {
  const principal = await authenticate(services, bearerTokenOf(request));
  if (!principal.ok) return problemResponse(principal, undefined, { 'www-authenticate': 'Bearer' });
  if (request.method !== 'POST') return methodNotAllowed();
  const server = createMcpServer(services, principal.value, options);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    // With JSON responses the returned promise settles once every answer is in the body.
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
