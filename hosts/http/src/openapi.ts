import {
  type AnyOperation,
  type JsonSchema,
  operationInputSchema,
  operationOutputSchema,
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

function pathParameters(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

/** Splits an operation's merged input schema into OpenAPI path/query parameters and a body. */
function describeInput(operation: AnyOperation & { http: NonNullable<AnyOperation['http']> }) {
  const schema = operationInputSchema(operation);
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
      'x-mcp-tool': operation.name,
      'x-permission': permissionOf(operation),
      security: operation.audience === 'store' ? [{ channelKey: [] }] : [{ bearer: [] }],
      ...describeInput({ ...operation, http }),
      responses: {
        [String(http.status ?? 200)]: operation.file
          ? fileSuccess
          : {
              description: 'Success',
              content: { 'application/json': { schema: operationOutputSchema(operation) } },
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
        'Generated from the operation registry. Every operation is also an MCP tool of the same name (`x-mcp-tool`). Errors are application/problem+json with a stable `code`.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'cw_pat_… or cw_api_… token' },
      },
      schemas: { Problem: problemSchema },
    },
    paths,
  };
}
