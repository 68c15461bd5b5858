import {
  type AnyOperation,
  type AppTool,
  appTools,
  type Failure,
  FileContent,
  fail,
  findOperation,
  invokeOperation,
  isMcpTool,
  type JsonSchema,
  ok,
  operations,
  type Principal,
  parseAppToolName,
  type Result,
  type Services,
  staffInputSchema,
} from '@cartwright/service';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import * as v from 'valibot';

const SERVER_INFO = { name: 'cartwright', version: '0.1.0' } as const;

export interface McpServerOptions {
  /**
   * Told about exceptions escaping an operation (bugs, broken infrastructure). The caller only
   * gets an INTERNAL result with `reference`, never the exception text.
   */
  readonly onInternalError?: (error: unknown, reference: string) => void;
}

type ObjectSchema = Tool['inputSchema'];

/** MCP requires tool input schemas to describe objects; every operation takes one. */
function objectSchema(operation: AnyOperation, schema: JsonSchema): ObjectSchema {
  if (schema.type !== 'object') {
    throw new Error(`The input schema of ${operation.name} is not an object schema.`);
  }
  // MCP wants every property schema as an object: spell the boolean forms out.
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, value]) => [
      key,
      typeof value === 'boolean' ? (value ? {} : { not: {} }) : value,
    ]),
  );
  return { ...schema, type: 'object', properties };
}

// No `outputSchema`: the SDK client (1.32) checks `structuredContent` against it even on
// `isError` results, and failures carry `{ code, detail }` there, not the operation's output.
function toolOf(operation: AnyOperation): Tool {
  return {
    name: operation.name,
    description: operation.summary,
    inputSchema: objectSchema(operation, staffInputSchema(operation)),
    annotations: { readOnlyHint: operation.readOnly },
  };
}

let tools: readonly Tool[] | undefined;

/** The MCP tool of every registry operation (built once: the registry is fixed at start). */
function mcpTools(): readonly Tool[] {
  tools ??= operations.filter(isMcpTool).map(toolOf);
  return tools;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function succeeded(value: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    ...(isRecord(value) ? { structuredContent: value } : {}),
  };
}

/** A file operation's result as an embedded resource (MCP has no attachments). */
function fileResult(operation: AnyOperation, value: unknown): CallToolResult {
  const file = v.parse(FileContent, value);
  return {
    content: [
      {
        type: 'resource',
        resource: {
          uri: `cartwright://${operation.name}/${encodeURIComponent(file.fileName)}`,
          mimeType: file.contentType,
          blob: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).toString(
            'base64',
          ),
        },
      },
    ],
  };
}

/** The same members as the HTTP problem body, minus the transport's `type`, `title` and `status`. */
function failed(failure: Failure): CallToolResult {
  const body: Record<string, unknown> = {
    ...failure.extensions,
    code: failure.code,
    detail: failure.detail,
    ...(failure.errors ? { errors: failure.errors } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * Who the calls are made as: a principal already authenticated for this request (HTTP), or a
 * function that authenticates again on every call (a long stdio session, so a revoked token or
 * a removed member stops working at once).
 */
export type PrincipalSource = Principal | (() => Promise<Result<Principal>>);

function appToolOf(tool: AppTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...tool.inputSchema, type: 'object' } as ObjectSchema,
    annotations: { readOnlyHint: tool.readOnly },
  };
}

/** What a tools/list answered about the shop's apps: it changed when this string does. */
function appToolsSignature(tools: readonly AppTool[]): string {
  return tools.map((tool) => tool.name).join('\n');
}

/** The operation behind every app tool `app.<app>.<action>`: the dynamic action door. */
const APP_ACTION_OPERATION = 'apps.actions.invoke';

/**
 * The one MCP server factory behind stdio and Streamable HTTP: a tool per registry operation and
 * one per app action the shop's installed apps expose to the caller (`app.<app>.<action>`), every
 * call made through `invokeOperation`. Domain failures are `isError` results carrying the same
 * `code` as the HTTP problem body. The tool list follows installs: after a call, when the app
 * tools the caller would see differ from the last list, the server sends `list_changed`.
 */
export function createMcpServer(
  services: Services,
  principalSource: PrincipalSource,
  options: McpServerOptions = {},
): McpServer {
  const server = new McpServer(SERVER_INFO);
  // registerTool accepts only zod schemas; the registry's schemas are valibot, so the tool
  // requests are answered directly on the low-level server.
  server.server.registerCapabilities({ tools: { listChanged: true } });
  const principalNow = (): Promise<Result<Principal>> =>
    typeof principalSource === 'function' ? principalSource() : Promise.resolve(ok(principalSource));
  let listedAppTools: string | null = null;
  server.server.setRequestHandler(ListToolsRequestSchema, async () => {
    const principal = await principalNow();
    const apps = principal.ok ? await appTools(services, principal.value) : [];
    listedAppTools = appToolsSignature(apps);
    return { tools: [...mcpTools(), ...apps.map(appToolOf)] };
  });
  /** Tells the client to list again when the app tools it would see changed (an install, an uninstall, a setting). */
  const noticeAppToolChanges = async (principal: Principal) => {
    if (listedAppTools === null) return;
    const now = appToolsSignature(await appTools(services, principal));
    if (now === listedAppTools) return;
    listedAppTools = now;
    await server.server.sendToolListChanged();
  };
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    const appTool = parseAppToolName(name);
    const operation = appTool ? findOperation(APP_ACTION_OPERATION) : findOperation(name);
    if (!operation || !(appTool || isMcpTool(operation))) {
      return failed(fail('NOT_FOUND', `No tool is named ${name}.`));
    }
    try {
      const principal = await principalNow();
      if (!principal.ok) return failed(principal);
      const input = appTool ? { ...request.params.arguments, ...appTool } : request.params.arguments;
      const result = await invokeOperation(services, operation, principal.value, input, 'mcp');
      // Another session may have installed an app meanwhile: any call is a moment to notice.
      await noticeAppToolChanges(principal.value);
      if (!result.ok) return failed(result);
      return operation.file ? fileResult(operation, result.value) : succeeded(result.value);
    } catch (error) {
      const reference = services.ids.next();
      options.onInternalError?.(error, reference);
      return failed(
        fail('INTERNAL', `Internal error (reference ${reference}).`, { extensions: { reference } }),
      );
    }
  });
  return server;
}
