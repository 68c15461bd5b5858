import fc from 'fast-check';
import type { FuzzOperation, OpenApiDocument, Schema } from './document.ts';
import { exampleOf } from './examples.ts';
import {
  asQueryValue,
  bodyTargets,
  deref,
  type FuzzRequest,
  foreignIdsFor,
  numericBounds,
  type Parts,
  type Pools,
  partsArbitrary,
  placed,
  requestOf,
  type SchemaContext,
  schemaTypes,
  valueAt,
} from './generator.ts';
import {
  boundNumbers,
  conditionChain,
  DEEP_MAX,
  DEEP_MIN,
  deepJson,
  EDGE_NUMBERS,
  type Hostile,
  PATH_STRINGS,
  QUERY_STRINGS,
  smallestHugeString,
} from './values.ts';

/**
 * `core`: every field gets every number and both string classes, but one huge string per
 * operation and one wrong type per field (in turn); for the bounded test. `thorough`: everything.
 */
export type SweepDepth = 'core' | 'thorough';

/** The sweep's numbers (besides each field's own bounds): the classic overflows and non-integers. */
const SWEEP_NUMBERS: readonly Hostile[] = EDGE_NUMBERS.filter((edge) =>
  [
    'number:-1',
    'number:0.5',
    'number:2^31',
    'number:2^53',
    'number:-2^53',
    'number:2^53+1',
    'number:1e20',
    'number:1e400',
  ].includes(edge.label),
);
const SWEEP_STRINGS: readonly Hostile[] = [
  { value: 'a\u0000b', label: 'string:NUL' },
  { value: '\ud800', label: 'string:lone-surrogate' },
];
const SWEEP_WRONG_TYPES: readonly Hostile[] = [
  { value: null, label: 'type:null' },
  { value: {}, label: 'type:object' },
  { value: [], label: 'type:array' },
];
/** Path values of the core sweep (the thorough one sends all of PATH_STRINGS). */
const SWEEP_PATH_CORE = new Set(['00000000-0000-0000-0000-000000000000', '\u0000', '\ud800']);
/** Query values for numeric parameters in the core sweep, besides the numbers. */
const SWEEP_QUERY_NUMERIC_CORE = new Set(['NaN', 'Infinity', '', '0x10', '\u0000', '\ud800']);
/** Query values for text, id, enum and boolean parameters. */
const SWEEP_QUERY_TEXT = new Set(['\u0000', '\ud800', '', 'NaN', 'true', '[]']);
const SWEEP_QUERY_TEXT_CORE = new Set(['\u0000', '\ud800', '']);

/**
 * The deterministic sweep: every declared top-level field, query and path parameter of the
 * operation gets each edge value of its type (numbers at and past every bound, NUL, lone
 * surrogates, a huge string, wrong types), plus deep bodies. Random sampling may miss a field;
 * this does not.
 */
export function sweepRequests(
  operation: FuzzOperation,
  document: OpenApiDocument,
  pools: Pools,
  seed: number,
  depth: SweepDepth,
): FuzzRequest[] {
  const thorough = depth === 'thorough';
  const context: SchemaContext = { document, pools, path: operation.path };
  const [generated] = fc.sample(partsArbitrary(operation, document, pools), { seed, numRuns: 1 });
  // The realistic input when the operation has one (so the probe, not some other field, decides
  // the answer), with a fresh nonce per request: unique fields are never already taken.
  let nonce = Math.abs(seed) % 1_000_000;
  const base = (fixedNonce?: number): Parts => {
    const example = exampleOf(operation.operationId, pools, fixedNonce ?? nonce++);
    return example
      ? { ...generated!, pathParams: { ...generated!.pathParams, ...example.pathParams }, body: example.body }
      : generated!;
  };
  const requests: FuzzRequest[] = [];
  const typesOf = (schema: Schema): Set<string> => {
    const found = new Set<string>();
    const stack = [schema];
    while (stack.length > 0) {
      const node = deref(stack.pop()!, context);
      if (!node) continue;
      for (const type of schemaTypes(node)) found.add(type);
      if (Array.isArray(node.enum) || 'const' in node) found.add('string');
      for (const alternative of (node.anyOf ?? node.oneOf ?? []) as Schema[]) stack.push(alternative);
    }
    return found;
  };
  // The edge values of a field's type: numbers at and past its bounds, NUL, surrogates, huge,
  // wrong types.
  let hugeGiven = false;
  let fieldIndex = 0;
  const valuesFor = (schema: Schema): Hostile[] => {
    const types = typesOf(schema);
    const numeric = types.has('integer') || types.has('number');
    const textual = types.has('string') || types.size === 0;
    const values: Hostile[] = [];
    if (numeric) values.push(...SWEEP_NUMBERS, ...boundNumbers(numericBounds([schema], context), false));
    if (textual) {
      values.push(...SWEEP_STRINGS);
      if (thorough || !hugeGiven) values.push(smallestHugeString());
      hugeGiven = true;
    }
    const wrong = [
      ...SWEEP_WRONG_TYPES,
      numeric ? { value: '1', label: 'type:string' } : { value: 0, label: 'type:number' },
    ];
    values.push(...(thorough ? wrong : [wrong[fieldIndex % wrong.length]!]));
    fieldIndex += 1;
    return values;
  };
  if (operation.body) {
    const properties = (deref(operation.body, context)?.properties ?? {}) as Record<string, Schema>;
    for (const [name, schema] of Object.entries(properties)) {
      for (const value of valuesFor(schema)) {
        const parts = base();
        const body = placed(parts.body ?? {}, [name], value.value);
        requests.push(requestOf(operation, { ...parts, body }, `sweep:${value.label}@/${name}`));
      }
    }
    // NUL and lone surrogates inside nested values (stored as jsonb, where PostgreSQL parses them
    // again): the first string leaf under each field of the valid base.
    for (const name of Object.keys(properties)) {
      const parts = base();
      const leaf = bodyTargets(parts.body ?? {}, operation).find(
        (at) => at.length > 1 && at[0] === name && typeof valueAt(parts.body, at) === 'string',
      );
      if (!leaf) continue;
      for (const value of SWEEP_STRINGS) {
        const body = placed(base().body, leaf, value.value);
        requests.push(requestOf(operation, { ...parts, body }, `sweep:${value.label}@/${leaf.join('/')}`));
      }
    }
    // Deep values where recursion happens: every field that holds objects, arrays or anything
    // (custom fields, rule data, conditions, facts), or the first field when none does.
    const containers = Object.entries(properties)
      .filter(([, schema]) => {
        const types = typesOf(schema);
        return types.has('object') || types.has('array') || types.size === 0;
      })
      .map(([name]) => name);
    const shapes = ['array', 'object', 'condition'] as const;
    for (const [index, name] of (containers.length > 0
      ? containers
      : [Object.keys(properties)[0] ?? 'data']
    ).entries()) {
      const deeps = thorough
        ? shapes.flatMap((shape) => [deepJson(DEEP_MIN, shape), deepJson(DEEP_MAX, shape)])
        : [deepJson(DEEP_MAX, shapes[index % shapes.length]!)];
      for (const deep of deeps) {
        const parts = base();
        const body = placed(parts.body ?? {}, [name], deep.value);
        requests.push(requestOf(operation, { ...parts, body }, `sweep:${deep.label}@/${name}`));
      }
    }
    if (operation.operationId === 'automation.import') {
      const chain = conditionChain(DEEP_MAX);
      requests.push(
        requestOf(
          operation,
          { ...base(), body: { condition: chain.value } },
          `sweep:${chain.label}@/condition`,
        ),
      );
    }
  }
  // The realistic input twice, each time under ids of nothing: a create whose other unique
  // fields (key, SKU, email) are taken must be refused, not fail.
  const example = exampleOf(operation.operationId, pools, 0);
  if (example && operation.body) {
    const repeated = nonce++;
    const fresh = operation.parameters.filter(
      (parameter) =>
        parameter.in === 'path' &&
        parameter.schema.format === 'uuid' &&
        !example.pathParams?.[parameter.name],
    );
    for (const id of fc.sample(fc.uuid({ version: 7 }), { seed, numRuns: 2 })) {
      const parts = base(repeated);
      const pathParams = { ...parts.pathParams };
      for (const parameter of fresh) pathParams[parameter.name] = id;
      requests.push(requestOf(operation, { ...parts, pathParams }, 'sweep:repeated-valid-input'));
    }
  }
  for (const parameter of operation.parameters) {
    if (parameter.in === 'header') continue;
    const types = typesOf(parameter.schema);
    const values: Hostile[] =
      parameter.in === 'path'
        ? [
            ...(thorough
              ? PATH_STRINGS
              : PATH_STRINGS.filter((value) => SWEEP_PATH_CORE.has(value.value as string))),
            ...foreignIdsFor(parameter.name, operation.path, pools).map((value) => ({
              value,
              label: 'path:foreign-id',
            })),
          ]
        : types.has('integer') || types.has('number')
          ? [
              ...(thorough
                ? QUERY_STRINGS
                : QUERY_STRINGS.filter((value) => SWEEP_QUERY_NUMERIC_CORE.has(value.value as string))),
              ...SWEEP_NUMBERS.map(asQueryValue),
              ...boundNumbers(numericBounds([parameter.schema], context), false).map(asQueryValue),
            ]
          : QUERY_STRINGS.filter((value) =>
              (thorough ? SWEEP_QUERY_TEXT : SWEEP_QUERY_TEXT_CORE).has(value.value as string),
            );
    for (const value of values) {
      const parts = base();
      const mutated: Parts =
        parameter.in === 'path'
          ? { ...parts, pathParams: { ...parts.pathParams, [parameter.name]: String(value.value) } }
          : {
              ...parts,
              query: [
                ...parts.query.filter(([key]) => key !== parameter.name),
                [parameter.name, String(value.value)],
              ],
            };
      requests.push(
        requestOf(
          operation,
          mutated,
          `sweep:${value.label}@${parameter.in === 'path' ? `{${parameter.name}}` : `?${parameter.name}`}`,
        ),
      );
    }
  }
  return requests;
}
