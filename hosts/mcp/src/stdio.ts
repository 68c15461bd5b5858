import type { Readable, Writable } from 'node:stream';
import { authenticate, describeError, type Services } from '@cartwright/service';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './server.ts';

export interface StdioServerOptions {
  readonly services: Services;
  /** The bearer token every call of this session is made with. */
  readonly token: string;
  readonly stdin: Readable;
  /** The protocol stream: nothing else may be written to it. */
  readonly stdout: Writable;
  /** Diagnostics: start-up, rejection, internal errors. */
  readonly stderr: Writable;
  /** Ends the session (e.g. on SIGTERM). */
  readonly signal?: AbortSignal;
}

/** Exit code for a start-up the configuration rules out: a missing or rejected token. */
export const EXIT_CONFIGURATION = 2;

/**
 * Serves MCP over a pair of streams as the shop of `token`: checked at start (a rejected token
 * ends the process) and again on every call.
 * Resolves to the process exit code once the session ends: stdin closed or `signal` aborted.
 */
export async function runStdioServer(options: StdioServerOptions): Promise<number> {
  const { services, stdin, stdout, stderr, signal } = options;
  const principal = await authenticate(services, options.token);
  if (!principal.ok) {
    stderr.write(`cartwright-mcp: the token was rejected: ${principal.detail}\n`);
    return EXIT_CONFIGURATION;
  }
  const server = createMcpServer(services, () => authenticate(services, options.token), {
    onInternalError: (error, reference) => {
      // Redacted as every host logs errors: no bound parameters, no row values.
      const described = JSON.stringify(describeError(error, { stack: true }));
      stderr.write(`cartwright-mcp: internal error ${reference}: ${described}\n`);
    },
  });
  const ended = new Promise<void>((resolve) => {
    // The SDK's transport does not watch for the end of its input; the session does.
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    if (signal?.aborted) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(new StdioServerTransport(stdin, stdout));
  stderr.write(`cartwright-mcp: serving shop ${principal.value.tenantId} over stdio\n`);
  await ended;
  await server.close();
  return 0;
}
