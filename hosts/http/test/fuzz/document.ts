import { readFileSync } from 'node:fs';
import { openApiFile } from '../../src/openapi-file.ts';

// The fuzzer reads the committed OpenAPI document, not the registry: what clients are promised is
// what gets checked. Everything here is plain data taken from that file.

export type Schema = Record<string, unknown>;

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly schema: Schema;
}

export interface FuzzOperation {
  readonly operationId: string;
  readonly method: string;
  /** The OpenAPI path template (`/api/orders/{orderId}`). */
  readonly path: string;
  readonly parameters: readonly Parameter[];
  /** The `application/json` request body schema, if the operation takes a body. */
  readonly body: Schema | undefined;
  readonly bodyRequired: boolean;
  /** `bearer` (staff) or `channelKey` (storefront). */
  readonly audience: 'staff' | 'store';
  /** The declared success status and whether it answers JSON (file downloads do not). */
  readonly successStatus: number;
  readonly successIsJson: boolean;
  /** JSON pointer (into the document) of the success response's JSON schema. */
  readonly successSchemaPointer: string | undefined;
}

export interface OpenApiDocument {
  readonly raw: Record<string, unknown>;
  readonly operations: readonly FuzzOperation[];
  /** Every path template with the methods the document declares for it (upper case). */
  readonly methodsByPath: ReadonlyMap<string, readonly string[]>;
  /**
   * The methods the document declares for a concrete path, over every template it matches
   * (`DELETE /api/automation/rules/explain` is `DELETE /api/automation/{kind}/{id}`).
   */
  methodsFor(path: string): string[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

/** `~` and `/` escaped for a JSON pointer token. */
export function pointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The value a local JSON pointer (`#/a/b`) names in `root`, or undefined when it names nothing. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const tokens = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'));
  let node: unknown = root;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

export function loadDocument(file = openApiFile): OpenApiDocument {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const paths = (raw.paths ?? {}) as Record<string, Record<string, unknown>>;
  const operations: FuzzOperation[] = [];
  const methodsByPath = new Map<string, string[]>();
  for (const [path, item] of Object.entries(paths)) {
    const methods: string[] = [];
    for (const method of METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      methods.push(method.toUpperCase());
      const parameters = ((operation.parameters ?? []) as Record<string, unknown>[]).map((parameter) => ({
        name: String(parameter.name),
        in: parameter.in as Parameter['in'],
        required: parameter.required === true,
        schema: (parameter.schema ?? {}) as Schema,
      }));
      const requestBody = operation.requestBody as Record<string, unknown> | undefined;
      const body = (requestBody?.content as Record<string, { schema?: Schema }> | undefined)?.[
        'application/json'
      ]?.schema;
      const responses = (operation.responses ?? {}) as Record<string, Record<string, unknown>>;
      const success = Object.keys(responses).find((status) => /^2\d\d$/.test(status)) ?? '200';
      const content = (responses[success]?.content ?? {}) as Record<string, unknown>;
      const security = (operation.security ?? raw.security ?? []) as Record<string, unknown>[];
      operations.push({
        operationId: String(operation.operationId ?? `${method} ${path}`),
        method: method.toUpperCase(),
        path,
        parameters,
        body,
        bodyRequired: requestBody?.required === true,
        // Storefront routes authenticate with x-channel-key whatever the scheme is called.
        audience:
          path.startsWith('/store-api/') || security.some((requirement) => 'channelKey' in requirement)
            ? 'store'
            : 'staff',
        successStatus: Number(success),
        successIsJson: 'application/json' in content,
        successSchemaPointer:
          'application/json' in content
            ? `#/paths/${pointerToken(path)}/${method}/responses/${success}/content/application~1json/schema`
            : undefined,
      });
    }
    methodsByPath.set(path, methods);
  }
  const templates = [...methodsByPath.entries()].map(([template, methods]) => ({
    pattern: new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`,
    ),
    methods,
  }));
  const methodsFor = (path: string) => [
    ...new Set(templates.filter(({ pattern }) => pattern.test(path)).flatMap(({ methods }) => methods)),
  ];
  return { raw, operations, methodsByPath, methodsFor };
}

/**
 * What makes the document unusable as a contract: `$ref`s that name nothing and security
 * requirements naming a scheme `components.securitySchemes` does not define.
 */
export function documentDefects(document: OpenApiDocument): string[] {
  const defects: string[] = [];
  const seen = new Set<string>();
  // Iterative walk: the document is large and a schema may nest deeply.
  const stack: { node: unknown; at: string }[] = [{ node: document.raw, at: '#' }];
  while (stack.length > 0) {
    const { node, at } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && resolvePointer(document.raw, value) === undefined) {
        const defect = `dangling $ref ${value} (at ${at})`;
        if (!seen.has(defect)) defects.push(defect);
        seen.add(defect);
      }
      stack.push({ node: value, at: `${at}/${pointerToken(key)}` });
    }
  }
  const schemes = Object.keys(
    ((document.raw.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as object,
  );
  const undefinedSchemes = new Map<string, string[]>();
  const paths = (document.raw.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const requirement of (operation.security ?? []) as Record<string, unknown>[]) {
        for (const scheme of Object.keys(requirement)) {
          if (schemes.includes(scheme)) continue;
          undefinedSchemes.set(scheme, [
            ...(undefinedSchemes.get(scheme) ?? []),
            `${method.toUpperCase()} ${path}`,
          ]);
        }
      }
    }
  }
  for (const [scheme, users] of undefinedSchemes) {
    defects.push(
      `security scheme "${scheme}" is required by ${users.length} operations (e.g. ${users[0]}) but not defined in components.securitySchemes`,
    );
  }
  return defects.sort();
}
