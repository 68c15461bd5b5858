import {
  type AnyOperation,
  BEHAVIOR_VERSION,
  isMcpTool,
  type JsonSchema,
  operationInputSchema,
  operationOutputSchema,
  PROVIDER_API_VERSION,
  permissionOf,
} from '@cartwright/service';

const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'code', 'detail'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string' },
    detail: { type: 'string' },
    requestId: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { pointer: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const;

/** The success response of a file operation: the file's own bytes and media type, as a download. */
const fileSuccess = {
  description: 'The file, as an attachment',
  headers: {
    'content-disposition': {
      description: 'attachment; filename="…" (plus filename* for names that are not plain ASCII)',
      schema: { type: 'string' },
    },
    'content-length': { schema: { type: 'integer' } },
  },
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
} as const;

/** The name of the first property whose schema is exactly `{ $ref: reference }`. */
function propertyReferring(value: unknown, reference: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const properties = (value as { properties?: unknown }).properties;
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, property] of Object.entries(properties)) {
      const keys = typeof property === 'object' && property !== null ? Object.keys(property) : [];
      if (keys.length === 1 && (property as { $ref?: unknown }).$ref === reference) return name;
    }
  }
  for (const item of Object.values(value)) {
    const found = propertyReferring(item, reference);
    if (found) return found;
  }
  return undefined;
}

/**
 * A schema's `$defs` moved into `components.schemas`, its references rewritten to point there:
 * inside the document a `#/$defs/…` reference resolves against the document's root, where
 * there is no `$defs`. A definition is named by its `title`, else by its operation and the
 * property that holds it (`automation.explain.lineItem`), else by its key.
 */
function hoistDefinitions(
  schema: JsonSchema,
  owner: string,
  components: Record<string, unknown>,
): JsonSchema {
  const { $defs: definitions, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if (!definitions || Object.keys(definitions).length === 0) return schema;
  const names = new Map<string, string>();
  for (const [key, definition] of Object.entries(definitions)) {
    const base = typeof definition.title === 'string' ? definition.title.replace(/[^A-Za-z0-9._-]/g, '') : '';
    const holder = propertyReferring(rest, `#/$defs/${key}`);
    names.set(key, base || `${owner}.${holder ?? key}`);
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const local = key === '$ref' && typeof item === 'string' ? /^#\/\$defs\/(.+)$/.exec(item) : null;
        const name = local
          ? names.get(decodeURIComponent(local[1]!).replaceAll('~1', '/').replaceAll('~0', '~'))
          : undefined;
        return [key, name ? `#/components/schemas/${name}` : rewrite(item)];
      }),
    );
  };
  for (const [key, definition] of Object.entries(definitions)) {
    const name = names.get(key)!;
    const hoisted = rewrite(definition);
    const existing = components[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(hoisted)) {
      throw new Error(`Two different schemas are both named ${name} in the OpenAPI document.`);
    }
    components[name] = hoisted;
  }
  return rewrite(rest) as JsonSchema;
}

function pathParameters(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

/** Splits an operation's merged input schema into OpenAPI path/query parameters and a body. */
function describeInput(
  operation: AnyOperation & { http: NonNullable<AnyOperation['http']> },
  schemas: Record<string, unknown>,
) {
  const schema = hoistDefinitions(operationInputSchema(operation), operation.name, schemas);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const inPath = pathParameters(operation.http.path);
  const parameters = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? {},
  }));
  for (const [header, field] of Object.entries(operation.http.headers ?? {})) {
    parameters.push({
      name: header,
      in: 'header',
      required: required.has(field),
      schema: properties[field] ?? {},
    });
  }
  const fromHeaders = Object.values(operation.http.headers ?? {});
  const rest = Object.entries(properties).filter(
    ([name]) => !inPath.includes(name) && !fromHeaders.includes(name),
  );
  if (operation.http.method === 'GET' || operation.http.method === 'DELETE') {
    for (const [name, property] of rest)
      parameters.push({ name, in: 'query', required: required.has(name), schema: property });
    return { parameters };
  }
  const bodyRequired = rest.map(([name]) => name).filter((name) => required.has(name));
  const body = {
    type: 'object',
    properties: Object.fromEntries(rest),
    ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}),
  };
  return {
    parameters,
    requestBody: { required: bodyRequired.length > 0, content: { 'application/json': { schema: body } } },
  };
}

/** The OpenAPI 3.1 document, generated from the operation registry. */
export function openApiDocument(
  operations: readonly AnyOperation[],
  version: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = { Problem: problemSchema };
  for (const operation of operations) {
    if (!operation.http) continue;
    const http = operation.http;
    const path = http.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const problem = {
      description: 'Problem',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    paths[path] ??= {};
    paths[path][http.method.toLowerCase()] = {
      operationId: operation.name,
      summary: operation.summary,
      ...(isMcpTool(operation) ? { 'x-mcp-tool': operation.name } : {}),
      'x-permission': permissionOf(operation),
      // A storefront call names its channel; a visitor's context token comes along once they have
      // one; a private channel also needs a bearer token (a staff token or its access grant).
      security:
        operation.audience === 'store'
          ? [
              { channelKey: [], contextToken: [] },
              { channelKey: [] },
              { channelKey: [], contextToken: [], bearer: [] },
              { channelKey: [], bearer: [] },
            ]
          : [{ bearer: [] }],
      ...describeInput({ ...operation, http }, schemas),
      responses: {
        [String(http.status ?? 200)]: operation.file
          ? fileSuccess
          : {
              description: 'Success',
              content: {
                'application/json': {
                  schema: hoistDefinitions(operationOutputSchema(operation), operation.name, schemas),
                },
              },
            },
        '401': problem,
        '403': problem,
        '404': problem,
        '422': problem,
        default: problem,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cartwright API',
      version,
      description:
        'Generated from the operation registry. Every operation is also an MCP tool of the same name (`x-mcp-tool`), except the few the spec makes HTTP only. Errors are application/problem+json with a stable `code`. `x-behavior-version` is the version marker of the intelligence, apps and payments behaviour; `x-provider-api-version` the payment provider contract this service speaks.',
      'x-behavior-version': BEHAVIOR_VERSION,
      'x-provider-api-version': PROVIDER_API_VERSION,
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'cw_pat_… or cw_api_… token. On /store-api of a private channel: such a token of the channel’s shop, or an access grant of the channel (cw_cag_…, POST /api/merchant/commerce/channels/{channelId}/grants).',
        },
        channelKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-channel-key',
          description:
            'A sales channel’s public access key (GET /api/automation → channels[].accessKey): names the shop and channel of a storefront call.',
        },
        contextToken: {
          type: 'apiKey',
          in: 'header',
          name: 'x-context-token',
          description:
            'A visitor’s context token from POST /store-api/context, register or login: their cart and, once logged in, their account.',
        },
      },
      schemas,
    },
    paths,
  };
}
