import fc from 'fast-check';
import { type FuzzOperation, type OpenApiDocument, resolvePointer, type Schema } from './document.ts';
import { exampleOf } from './examples.ts';
import {
  boundNumbers,
  conditionChain,
  DEEP_MAX,
  DEEP_MIN,
  deepValue,
  EDGE_NUMBERS,
  type Hostile,
  hostileFieldValue,
  hugeString,
  PATH_STRINGS,
  percentEncode,
  QUERY_STRINGS,
  RawJson,
  serializeJson,
} from './values.ts';

/** What the generator knows about the two shops: ids to aim at, tokens, keys. */
export interface Pools {
  /** The attacker's (shop A's) owner token and main channel key. */
  readonly staffToken: string;
  readonly channelKey: string;
  /** Ids by kind (`products`, `orders`, …) of shop A and of shop B. */
  readonly own: Readonly<Record<string, readonly string[]>>;
  readonly foreign: Readonly<Record<string, readonly string[]>>;
  /** Storefront context tokens of shop A's visitors and of shop B's. */
  readonly ownContexts: readonly string[];
  readonly foreignContexts: readonly string[];
  /** Addresses worth registering or adding as members (includes shop B's owner). */
  readonly emails: readonly string[];
  readonly foreignTenantId: string;
  readonly foreignChannelKey: string;
}

/** One HTTP request, ready for `app.request`; `mutation` names what makes it hostile. */
export interface FuzzRequest {
  readonly operationId: string;
  readonly method: string;
  /** Path and query, percent-encoded. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | undefined;
  readonly mutation: string;
  /** The document's method for this path (differs from `method` for wrong-method probes). */
  readonly declaredMethod: string;
}

/** The valid-by-schema parts of a request, before any mutation. */
export interface Parts {
  pathParams: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  /** A JSON value (may hold RawJson); undefined = no body. */
  body: unknown;
  rawBody?: string | Uint8Array;
  contentType?: string | null;
  method: string;
}

const MAX_DEPTH = 7;

/**
 * Stands for shop A's visitor context number N in `x-context-token`: the runner sends the live
 * token (a logout or login during the run replaces it).
 */
export const CONTEXT_MARKER = 'fuzz-context#';

const KNOWN_CODES: Readonly<Record<string, readonly string[]>> = {
  '^[a-z]{2}(-[A-Z]{2})?$': ['en', 'de'],
  '^[A-Z]{2}$': ['DE'],
  '^[A-Z]{3}$': ['EUR'],
};

/** The pool kind a parameter or field names, from its name and the path segment before it. */
function kindOf(name: string, path?: string): string | undefined {
  const byName: Record<string, string> = {
    userId: 'members',
    tokenId: 'tokens',
    channelId: 'channels',
    methodId: 'methods',
    addressId: 'addresses',
    orderId: 'orders',
    documentId: 'documents',
    productId: 'products',
    parentId: 'products',
    assetId: 'assets',
    entryId: 'galleryEntries',
    entitlementId: 'entitlements',
    lineId: 'lines',
    customerId: 'customers',
    categoryId: 'categories',
    categoryIds: 'categories',
    taxClassId: 'taxClasses',
    shippingMethodId: 'shippingMethods',
    paymentMethodId: 'paymentMethods',
    ruleId: 'rules',
    reviewId: 'reviews',
  };
  if (byName[name]) return byName[name];
  if (name !== 'id' || !path) return undefined;
  const before = /\/([a-z-]+)\/\{id\}/.exec(path)?.[1];
  const bySegment: Record<string, string> = {
    products: 'products',
    categories: 'categories',
    customers: 'customers',
    'tax-classes': 'taxClasses',
    'shipping-methods': 'shippingMethods',
    'payment-methods': 'paymentMethods',
    reviews: 'reviews',
    proposals: 'proposals',
    jobs: 'mediaDrafts',
    executions: 'executions',
  };
  if (before && bySegment[before]) return bySegment[before];
  if (path.includes('{kind}/{id}')) return 'rules';
  if (path.includes('{entity}/{id}')) return 'products';
  return undefined;
}

/** Shop B's ids of the kind a parameter names (a few of any kind when it names none). */
export function foreignIdsFor(name: string, path: string, pools: Pools): readonly string[] {
  const ofKind = pools.foreign[kindOf(name, path) ?? ''] ?? [];
  return ofKind.length > 0 ? ofKind : allIds(pools.foreign).slice(0, 3);
}

function allIds(pool: Readonly<Record<string, readonly string[]>>): string[] {
  return [...new Set(Object.values(pool).flat())];
}

export interface SchemaContext {
  readonly document: OpenApiDocument;
  readonly pools: Pools;
  readonly path: string;
}

export function schemaTypes(schema: Schema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

export function deref(schema: Schema, context: SchemaContext): Schema | undefined {
  if (typeof schema.$ref !== 'string') return schema;
  const target = resolvePointer(context.document.raw, schema.$ref);
  return target && typeof target === 'object' ? (target as Schema) : undefined;
}

function uuidArbitrary(name: string, context: SchemaContext): fc.Arbitrary<string> {
  const kind = kindOf(name, context.path);
  const preferred = kind ? (context.pools.own[kind] ?? []) : [];
  const own = preferred.length > 0 ? preferred : allIds(context.pools.own);
  return own.length > 0
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: fc.uuid() })
    : fc.uuid();
}

function stringArbitrary(schema: Schema, name: string, context: SchemaContext): fc.Arbitrary<string> {
  const format = schema.format;
  if (format === 'uuid') return uuidArbitrary(name, context);
  const dates = (from: string, to: string) =>
    fc.date({ min: new Date(from), max: new Date(to), noInvalidDate: true });
  if (format === 'date-time') {
    return dates('2000-01-01T00:00:00Z', '2100-01-01T00:00:00Z').map((date) => date.toISOString());
  }
  if (format === 'date') {
    return dates('1900-01-01T00:00:00Z', '2100-01-01T00:00:00Z').map((date) =>
      date.toISOString().slice(0, 10),
    );
  }
  if (format === 'email') {
    return fc.oneof(
      fc.constantFrom(...context.pools.emails),
      fc.stringMatching(/^[a-z]{1,8}@[a-z]{1,8}\.test$/),
    );
  }
  if (format === 'uri') return fc.constantFrom('https://shop.example/', 'https://a.example/path?q=1');
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  if (typeof schema.pattern === 'string') {
    try {
      const pattern = fc
        .stringMatching(new RegExp(schema.pattern, 'u'))
        .filter((value) => value.length >= minLength && value.length <= (maxLength ?? 10_000));
      // Codes the seeded shops have set up (language en, country DE, currency EUR), so valid
      // requests reach past "not set up in this shop" often enough.
      const known = KNOWN_CODES[schema.pattern];
      return known
        ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: pattern })
        : pattern;
    } catch {
      // A pattern fast-check cannot generate from: plain strings (most get refused, which is fine).
    }
  }
  const cap = Math.max(minLength, Math.min(maxLength ?? 24, minLength + 24));
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength: cap }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength: cap, unit: 'grapheme' }) },
  );
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  let min = typeof schema.minimum === 'number' ? schema.minimum : exclusiveMin;
  let max = typeof schema.maximum === 'number' ? schema.maximum : exclusiveMax;
  if (integer) {
    if (exclusiveMin !== undefined && schema.minimum === undefined) min = exclusiveMin + 1;
    if (exclusiveMax !== undefined && schema.maximum === undefined) max = exclusiveMax - 1;
    const low = Math.max(min ?? -1_000_000, Number.MIN_SAFE_INTEGER);
    const high = Math.min(max ?? low + 1_000_000, Number.MAX_SAFE_INTEGER);
    // Small values near the lower bound are what revisions, quantities and positions mostly hold.
    return fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom(low, high) },
      { weight: 3, arbitrary: fc.integer({ min: low, max: Math.min(high, low + 3) }) },
      { weight: 2, arbitrary: fc.integer({ min: low, max: high }) },
    );
  }
  const low = min ?? -1_000_000;
  const high = max ?? low + 1_000_000;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(low, high) },
    { weight: 2, arbitrary: fc.integer({ min: Math.ceil(low), max: Math.floor(high) }) },
    {
      weight: 1,
      arbitrary: fc
        .double({ min: low, max: high, noNaN: true, noDefaultInfinity: true })
        .filter(
          (value) =>
            (exclusiveMin === undefined || value > exclusiveMin) &&
            (exclusiveMax === undefined || value < exclusiveMax),
        ),
    },
  );
}

/** An arbitrary of values valid by `schema` (as far as JSON Schema says; the server may still refuse). */
export function valueArbitrary(
  schema: Schema,
  context: SchemaContext,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const resolved = deref(schema, context);
  // A dangling $ref promises nothing: anything goes.
  if (!resolved) return fc.jsonValue({ maxDepth: 2 });
  schema = resolved;
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives && alternatives.length > 0) {
    if (depth >= MAX_DEPTH) {
      const plain = alternatives.find((alternative) => schemaTypes(alternative).includes('null'));
      if (plain) return fc.constant(null);
    }
    return fc.oneof(
      ...alternatives.map((alternative) => valueArbitrary(alternative, context, name, depth + 1)),
    );
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return valueArbitrary(schema.allOf[0] as Schema, context, name, depth + 1);
  }
  const types = schemaTypes(schema);
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => valueArbitrary({ ...schema, type }, context, name, depth)));
  }
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema, name, context);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength =
        depth >= MAX_DEPTH
          ? minLength
          : Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, minLength + 3);
      return fc.array(valueArbitrary(items, context, name, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, context, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(schema: Schema, context: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) {
    // Past the depth cap only what is required is filled in.
    if (depth >= MAX_DEPTH && !required.has(key)) continue;
    model[key] = valueArbitrary(property, context, key, depth + 1);
  }
  const fixed = fc.record(model, { requiredKeys: [...required].filter((key) => key in model) });
  const additional = schema.additionalProperties;
  if (!additional || typeof additional !== 'object' || depth >= MAX_DEPTH) return fixed;
  const keySchema = (schema.propertyNames ?? { type: 'string', maxLength: 12 }) as Schema;
  const keys = valueArbitrary({ type: 'string', maxLength: 12, ...keySchema }, context, '', depth + 1).filter(
    (key): key is string => typeof key === 'string' && !(key in properties),
  );
  const extra = fc.dictionary(keys, valueArbitrary(additional as Schema, context, '', depth + 1), {
    maxKeys: 3,
  });
  return fc.tuple(fixed, extra).map(([own, more]) => ({ ...more, ...(own as object) }));
}

/** Every numeric bound (minimum, maximum, exclusive*) in a schema: what the edge values aim at. */
export function numericBounds(schemas: readonly Schema[], context: SchemaContext): number[] {
  const bounds = new Set<number>();
  const seen = new Set<unknown>();
  const stack: unknown[] = [...schemas];
  while (stack.length > 0) {
    let node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const ref = (node as Schema).$ref;
    if (typeof ref === 'string') {
      node = resolvePointer(context.document.raw, ref);
      stack.push(node);
      continue;
    }
    for (const key of [
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'minLength',
      'maxLength',
    ]) {
      const value = (node as Schema)[key];
      if (typeof value === 'number' && !key.endsWith('Length')) bounds.add(value);
    }
    stack.push(...Object.values(node as object));
  }
  return [...bounds].sort((a, b) => a - b);
}

/** The ambient headers of a valid request: the staff token, or the channel key and a visitor context. */
function credentialsArbitrary(operation: FuzzOperation, pools: Pools): fc.Arbitrary<Record<string, string>> {
  if (operation.audience === 'staff') return fc.constant({ authorization: `Bearer ${pools.staffToken}` });
  return fc
    .oneof(
      {
        weight: 4,
        arbitrary:
          pools.ownContexts.length > 0
            ? fc.nat({ max: pools.ownContexts.length - 1 }).map((index) => `${CONTEXT_MARKER}${index}`)
            : fc.constant(undefined),
      },
      { weight: 1, arbitrary: fc.constant(undefined) },
    )
    .map((context) => ({
      'x-channel-key': pools.channelKey,
      ...(context ? { 'x-context-token': context } : {}),
    }));
}

function queryValue(value: unknown): string[] {
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}

/** The valid-by-schema parts of one operation's request. */
export function partsArbitrary(
  operation: FuzzOperation,
  document: OpenApiDocument,
  pools: Pools,
): fc.Arbitrary<Parts> {
  const context: SchemaContext = { document, pools, path: operation.path };
  const pathModel: Record<string, fc.Arbitrary<unknown>> = {};
  const queryModel: Record<string, fc.Arbitrary<unknown>> = {};
  const headerModel: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredQuery: string[] = [];
  const requiredHeaders: string[] = [];
  for (const parameter of operation.parameters) {
    const value = valueArbitrary(parameter.schema, context, parameter.name);
    if (parameter.in === 'path') pathModel[parameter.name] = value;
    else if (parameter.in === 'query') {
      queryModel[parameter.name] = value;
      if (parameter.required) requiredQuery.push(parameter.name);
    } else {
      headerModel[parameter.name] = value;
      if (parameter.required) requiredHeaders.push(parameter.name);
    }
  }
  const generated = fc.record({
    pathParams: fc.record(pathModel),
    query: fc.record(queryModel, { requiredKeys: requiredQuery }),
    headers: fc.record(headerModel, { requiredKeys: requiredHeaders }),
    body: operation.body
      ? operation.bodyRequired
        ? valueArbitrary(operation.body, context)
        : fc.option(valueArbitrary(operation.body, context), { nil: undefined, freq: 4 })
      : fc.constant(undefined),
  });
  const hasExample = exampleOf(operation.operationId, pools, 0) !== undefined;
  const chosen = hasExample
    ? fc.oneof(
        generated,
        fc.tuple(generated, fc.nat({ max: 999_999 })).map(([parts, nonce]) => {
          const example = exampleOf(operation.operationId, pools, nonce)!;
          return { ...parts, pathParams: { ...parts.pathParams, ...example.pathParams }, body: example.body };
        }),
      )
    : generated;
  return fc.tuple(chosen, credentialsArbitrary(operation, pools)).map(([parts, credentials]) => ({
    pathParams: Object.fromEntries(
      // JSON, not String(): a generated object may carry a `toString` that is not a function.
      Object.entries(parts.pathParams).map(([key, value]) => [
        key,
        typeof value === 'string' ? value : JSON.stringify(value),
      ]),
    ),
    query: Object.entries(parts.query).flatMap(([key, value]) =>
      queryValue(value).map((item) => [key, item] as [string, string]),
    ),
    headers: {
      ...credentials,
      // Header values are byte strings: anything outside printable ASCII could not even be sent.
      ...Object.fromEntries(
        Object.entries(parts.headers).map(([key, value]) => [
          key,
          String(value).replace(/[^\x20-\x7e]/g, 'x'),
        ]),
      ),
    },
    body: parts.body,
    method: operation.method,
  }));
}

/** Where a value can be placed in a body: every existing node, plus each declared top-level field. */
export function bodyTargets(body: unknown, operation: FuzzOperation): (string | number)[][] {
  const targets: (string | number)[][] = [];
  const stack: { node: unknown; at: (string | number)[] }[] = [{ node: body, at: [] }];
  while (stack.length > 0) {
    const { node, at } = stack.pop()!;
    if (at.length > 0) targets.push(at);
    if (node instanceof RawJson || node === null || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      stack.push({ node: value, at: [...at, Array.isArray(node) ? Number(key) : key] });
    }
  }
  for (const key of Object.keys((operation.body?.properties ?? {}) as object)) {
    if (!targets.some((target) => target.length === 1 && target[0] === key)) targets.push([key]);
  }
  return targets.sort((a, b) => a.join('/').localeCompare(b.join('/')));
}

/** The value at a path in a body (undefined when the path leads nowhere). */
export function valueAt(body: unknown, at: readonly (string | number)[]): unknown {
  let node = body;
  for (const key of at) {
    if (node === null || typeof node !== 'object' || node instanceof RawJson) return undefined;
    node = (node as Record<string, unknown>)[String(key)];
  }
  return node;
}

/** `body` with `value` at `at` (a copy; the generated base may be shared). */
export function placed(body: unknown, at: readonly (string | number)[], value: unknown): unknown {
  if (at.length === 0) return value;
  const root: Record<string, unknown> =
    body !== null && typeof body === 'object' && !(body instanceof RawJson)
      ? ((Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<string, unknown>)
      : {};
  const [head, ...rest] = at;
  root[String(head)] = placed(root[String(head)], rest, value);
  return root;
}

type Mutation =
  | { kind: 'none' }
  | { kind: 'field'; selector: number; value: Hostile }
  | { kind: 'unknown-field'; key: string; value: Hostile }
  | { kind: 'deep'; selector: number; whole: boolean; value: Hostile }
  | { kind: 'raw-body'; body: string | Uint8Array; contentType: string | null; label: string }
  | { kind: 'path'; name: string; value: Hostile }
  | { kind: 'query'; selector: number; name: string | null; value: Hostile }
  | { kind: 'header'; header: string; value: string | null; label: string }
  | { kind: 'method'; method: string }
  | { kind: 'preflight'; origin: string };

const RAW_BODIES: readonly { body: string | Uint8Array; contentType: string | null; label: string }[] = [
  { body: 'not json', contentType: 'application/json', label: 'body:not-json' },
  { body: '{"revision":', contentType: 'application/json', label: 'body:truncated' },
  { body: '\ufeff{}', contentType: 'application/json', label: 'body:BOM' },
  { body: 'null', contentType: 'application/json', label: 'body:null' },
  { body: '[]', contentType: 'application/json', label: 'body:array' },
  { body: '"text"', contentType: 'application/json', label: 'body:string' },
  { body: '1e400', contentType: 'application/json', label: 'body:number' },
  { body: '{"a":1}{"b":2}', contentType: 'application/json', label: 'body:two-values' },
  { body: '{"revision":0,"revision":"x"}', contentType: 'application/json', label: 'body:duplicate-key' },
  { body: '{"a":"\\ud800"}', contentType: 'application/json', label: 'body:escaped-lone-surrogate' },
  {
    body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d]),
    contentType: 'application/json',
    label: 'body:invalid-utf8',
  },
  { body: '{}', contentType: 'text/plain', label: 'content-type:text/plain' },
  { body: '{}', contentType: 'application/json; charset=utf-16', label: 'content-type:utf-16' },
  { body: '{}', contentType: 'application/merge-patch+json', label: 'content-type:+json' },
  { body: 'a=1', contentType: 'application/x-www-form-urlencoded', label: 'content-type:form' },
  { body: '{}', contentType: null, label: 'content-type:none' },
];

function mutationArbitrary(
  operation: FuzzOperation,
  document: OpenApiDocument,
  bounds: readonly number[],
  pools: Pools,
): fc.Arbitrary<Mutation> {
  const declared = document.methodsFor(operation.path);
  const undeclared = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => !declared.includes(method));
  const hasBody = operation.method !== 'GET';
  const queryCount = operation.parameters.filter((parameter) => parameter.in === 'query').length;
  const selector = fc.nat({ max: 1_000_000 });
  const choices: { weight: number; arbitrary: fc.Arbitrary<Mutation> }[] = [
    { weight: 30, arbitrary: fc.constant({ kind: 'none' }) },
    {
      weight: 4,
      arbitrary: fc
        .record({
          name: fc.constantFrom('limit', 'after', 'language', 'x', '__proto__', 'tenantId'),
          value: fc.constantFrom(...QUERY_STRINGS, ...EDGE_NUMBERS.map(asQueryValue)),
        })
        .map(({ name, value }) => ({ kind: 'query', selector: 0, name, value }) as Mutation),
    },
    {
      weight: 5,
      arbitrary: fc
        .record({
          header:
            operation.audience === 'store'
              ? fc.constantFrom('x-context-token', 'x-channel-key')
              : fc.constantFrom('authorization'),
          choice: fc.constantFrom(
            ...(operation.audience === 'store'
              ? [
                  ...pools.foreignContexts.map((value) => ({ value, label: 'header:foreign-context' })),
                  { value: 'cw_ctx_nope', label: 'header:garbage' },
                  { value: 'x'.repeat(65_536), label: 'header:huge' },
                  { value: '', label: 'header:empty' },
                  { value: 'é', label: 'header:latin1' },
                  { value: null, label: 'header:absent' },
                ]
              : [
                  { value: `Bearer ${pools.staffToken}x`, label: 'header:garbage' },
                  { value: `Bearer ${'x'.repeat(65_536)}`, label: 'header:huge' },
                  { value: 'Basic Zm9vOmJhcg==', label: 'header:basic' },
                  { value: null, label: 'header:absent' },
                ]),
          ),
        })
        .map(({ header, choice }) => ({
          kind: 'header',
          header,
          value: choice.value,
          label: `${choice.label}@${header}`,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('https://evil.example', 'null', 'http://127.0.0.1:3000')
        .map((origin) => ({ kind: 'preflight', origin }) as Mutation),
    },
  ];
  if (undeclared.length > 0) {
    choices.push({
      weight: 2,
      arbitrary: fc.constantFrom(...undeclared).map((method) => ({ kind: 'method', method }) as Mutation),
    });
  }
  if (hasBody) {
    choices.push(
      {
        weight: 20,
        arbitrary: fc.record({
          kind: fc.constant('field' as const),
          selector,
          value: hostileFieldValue(bounds),
        }),
      },
      {
        weight: 5,
        arbitrary: fc.record({
          kind: fc.constant('unknown-field' as const),
          key: fc.constantFrom(
            '__proto__',
            'constructor',
            'tenantId',
            'tenant_id',
            'id',
            'createdAt',
            'role',
            'x'.repeat(10_000),
            '\u0000',
            '\ud800',
          ),
          value: fc.oneof(
            fc.constant({ value: pools.foreignTenantId, label: 'unknown-field:foreign-tenant' }),
            fc.constant({
              value: { isAdmin: true, tenantId: pools.foreignTenantId },
              label: 'unknown-field:object',
            }),
            hostileFieldValue(bounds),
          ),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('deep' as const),
          selector,
          whole: fc.boolean(),
          value:
            operation.operationId === 'automation.import'
              ? fc.oneof(deepValue, fc.integer({ min: DEEP_MIN, max: DEEP_MAX }).map(conditionChain))
              : deepValue,
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({ kind: fc.constant('field' as const), selector, value: hugeString }),
      },
      {
        weight: 4,
        arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => ({ kind: 'raw-body', ...raw }) as Mutation),
      },
    );
  }
  const pathNames = operation.parameters.filter((parameter) => parameter.in === 'path').map((p) => p.name);
  if (pathNames.length > 0) {
    choices.push({
      weight: 10,
      arbitrary: fc.constantFrom(...pathNames).chain((name) =>
        fc
          .oneof(
            {
              weight: 3,
              arbitrary: fc
                .constantFrom(...foreignIdsFor(name, operation.path, pools))
                .map((value) => ({ value, label: 'path:foreign-id' })),
            },
            { weight: 2, arbitrary: fc.uuid().map((value) => ({ value, label: 'path:uuid-of-nothing' })) },
            { weight: 3, arbitrary: fc.constantFrom(...PATH_STRINGS) },
            { weight: 1, arbitrary: hugeString.map((value) => ({ ...value, label: `path:${value.label}` })) },
          )
          .map((value): Mutation => ({ kind: 'path', name, value })),
      ),
    });
  }
  if (queryCount > 0) {
    choices.push({
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant('query' as const),
        selector,
        name: fc.constant(null),
        value: fc.oneof(
          fc.constantFrom(
            ...QUERY_STRINGS,
            ...EDGE_NUMBERS.map(asQueryValue),
            ...boundNumbers(bounds).map(asQueryValue),
          ),
          fc.constantFrom(...allIds(pools.foreign)).map((value) => ({ value, label: 'query:foreign-id' })),
          hugeString.map((value) => ({ ...value, label: `query:${value.label}` })),
        ),
      }),
    });
  }
  return fc.oneof(...choices);
}

/** The body with `value` placed at the body target `selector` picks (`/x` when there is none). */
function placedAtTarget(
  parts: Parts,
  operation: FuzzOperation,
  selector: number,
  value: { readonly value: unknown; readonly label: string },
): { parts: Parts; label: string } {
  const targets = bodyTargets(parts.body ?? {}, operation);
  const at = targets.length > 0 ? targets[selector % targets.length]! : ['x'];
  return {
    parts: { ...parts, body: placed(parts.body ?? {}, at, value.value) },
    label: `${value.label}@/${at.join('/')}`,
  };
}

/** Applies a mutation to valid parts; answers the parts and the mutation's label. */
function mutate(parts: Parts, mutation: Mutation, operation: FuzzOperation): { parts: Parts; label: string } {
  switch (mutation.kind) {
    case 'none':
      return { parts, label: 'valid' };
    case 'field':
      return placedAtTarget(parts, operation, mutation.selector, mutation.value);
    case 'unknown-field':
      return {
        parts: {
          ...parts,
          body: { ...((parts.body ?? {}) as object), [mutation.key]: mutation.value.value },
        },
        label: `unknown-field(${mutation.key.length > 20 ? `${mutation.key.slice(0, 8)}…×${mutation.key.length}` : JSON.stringify(mutation.key)})=${mutation.value.label}`,
      };
    case 'deep': {
      if (mutation.whole) {
        return {
          parts: { ...parts, body: mutation.value.value },
          label: `${mutation.value.label}@(whole body)`,
        };
      }
      return placedAtTarget(parts, operation, mutation.selector, mutation.value);
    }
    case 'raw-body':
      return {
        parts: { ...parts, rawBody: mutation.body, contentType: mutation.contentType },
        label: mutation.label,
      };
    case 'path':
      return {
        parts: {
          ...parts,
          pathParams: { ...parts.pathParams, [mutation.name]: String(mutation.value.value) },
        },
        label: `${mutation.value.label}@{${mutation.name}}`,
      };
    case 'query': {
      const names = operation.parameters.filter((parameter) => parameter.in === 'query').map((p) => p.name);
      const name = mutation.name ?? names[mutation.selector % names.length]!;
      return {
        parts: {
          ...parts,
          query: [...parts.query.filter(([key]) => key !== name), [name, String(mutation.value.value)]],
        },
        label: `${mutation.value.label}@?${name}`,
      };
    }
    case 'header': {
      const headers = { ...parts.headers };
      if (mutation.value === null) delete headers[mutation.header];
      else headers[mutation.header] = mutation.value;
      return { parts: { ...parts, headers }, label: mutation.label };
    }
    case 'method':
      return { parts: { ...parts, method: mutation.method }, label: `method:${mutation.method}` };
    case 'preflight':
      return {
        parts: {
          ...parts,
          method: 'OPTIONS',
          body: undefined,
          headers: {
            ...parts.headers,
            origin: mutation.origin,
            'access-control-request-method': operation.method,
            'access-control-request-headers': 'authorization, content-type, x-channel-key, x-context-token',
          },
        },
        label: `preflight:${mutation.origin}`,
      };
  }
}

/** The request that parts make: path filled in, query appended, body serialized. */
export function requestOf(operation: FuzzOperation, parts: Parts, label: string): FuzzRequest {
  let path = operation.path;
  for (const [name, value] of Object.entries(parts.pathParams)) {
    path = path.replace(`{${name}}`, percentEncode(value));
  }
  const query = parts.query.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join('&');
  const headers: Record<string, string> = { ...parts.headers };
  let body: string | Uint8Array | undefined;
  if (parts.rawBody !== undefined) {
    body = parts.rawBody;
    if (parts.contentType) headers['content-type'] = parts.contentType;
  } else if (parts.body !== undefined && parts.method !== 'GET' && parts.method !== 'OPTIONS') {
    body = serializeJson(parts.body);
    headers['content-type'] = 'application/json';
  }
  return {
    operationId: operation.operationId,
    method: parts.method,
    url: query ? `${path}?${query}` : path,
    headers,
    body,
    mutation: label,
    declaredMethod: operation.method,
  };
}

/** Requests for one operation: valid by schema about a third of the time, hostile otherwise. */
export function requestArbitrary(
  operation: FuzzOperation,
  document: OpenApiDocument,
  pools: Pools,
): fc.Arbitrary<FuzzRequest> {
  const context: SchemaContext = { document, pools, path: operation.path };
  const bounds = numericBounds(
    [
      ...operation.parameters.map((parameter) => parameter.schema),
      ...(operation.body ? [operation.body] : []),
    ],
    context,
  );
  return fc
    .tuple(partsArbitrary(operation, document, pools), mutationArbitrary(operation, document, bounds, pools))
    .map(([parts, mutation]) => {
      const { parts: mutated, label } = mutate(parts, mutation, operation);
      return requestOf(operation, mutated, label);
    });
}

/** A number as a query string would carry it. */
export function asQueryValue(number: Hostile): Hostile {
  const text = number.value instanceof RawJson ? number.value.text : String(number.value);
  return { value: text, label: `query:${number.label}` };
}
