import fc from 'fast-check';

// Valid manifests and fitting values, for the property tests. Names come from word lists that
// hold no credential stem and no reserved column, so only the property under test can fail.

const FIELD_NAMES = [
  'title',
  'colour',
  'size',
  'amount',
  'count',
  'day',
  'rank',
  'weight',
  'city',
  'remark',
  'level',
  'stage',
];
const ENTITY_IDS = ['shelf', 'visit', 'reward', 'badge', 'voucher_note'];

type Json = Record<string, unknown>;

const choices = fc
  .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 4 })
  .map((values) => values.map((value) => ({ value, label: { en: value.toUpperCase() } })));

/** A value type without name, as a field or list item declares it; `text` only where allowed. */
function valueType(entityIds: readonly string[], withText: boolean): fc.Arbitrary<Json> {
  const types: fc.Arbitrary<Json>[] = [
    fc.integer({ min: 1, max: 1000 }).map((maxLength) => ({ type: 'string', maxLength })),
    fc
      .tuple(fc.integer({ min: -1000, max: 1000 }), fc.nat({ max: 1000 }))
      .map(([min, span]) => ({ type: 'integer', min, max: min + span })),
    fc
      .tuple(fc.integer({ min: -10, max: 10 }), fc.nat({ max: 10 }))
      .map(([min, span]) => ({ type: 'number', min, max: min + span })),
    fc.constant({ type: 'boolean' }),
    fc.constant({ type: 'date' }),
    fc.constant({ type: 'datetime' }),
    choices.map((list) => ({ type: 'choice', choices: list })),
  ];
  if (withText)
    types.push(fc.integer({ min: 1, max: 10_000 }).map((maxLength) => ({ type: 'text', maxLength })));
  if (entityIds.length > 0)
    types.push(fc.constantFrom(...entityIds).map((entity) => ({ type: 'reference', entity })));
  return fc.oneof(...types);
}

/** A field: any value type or a list of one; entity fields may be indexable. */
export function fieldArbitrary(
  name: string,
  entityIds: readonly string[],
  isEntity: boolean,
): fc.Arbitrary<Json> {
  const list = fc
    .tuple(valueType(entityIds, false), fc.integer({ min: 1, max: 1000 }))
    .map(([items, maxItems]) => ({ type: 'list', items, maxItems }));
  return fc
    .tuple(fc.oneof(valueType(entityIds, true), list), fc.boolean(), fc.boolean())
    .map(([type, required, indexable]) => {
      const canIndex = isEntity && type.type !== 'text' && type.type !== 'list';
      return { name, ...type, required, ...(canIndex ? { indexable } : {}) };
    });
}

function fieldsArbitrary(entityIds: readonly string[], isEntity: boolean, minLength: number) {
  return fc
    .uniqueArray(fc.constantFrom(...FIELD_NAMES), { minLength, maxLength: 5 })
    .chain((names) => fc.tuple(...names.map((name) => fieldArbitrary(name, entityIds, isEntity))));
}

/** A valid manifest: entities with fields of every type, entity actions and service actions. */
export const manifestArbitrary: fc.Arbitrary<Json> = fc
  .uniqueArray(fc.constantFrom(...ENTITY_IDS), { minLength: 0, maxLength: 3 })
  .chain((entityIds) =>
    fc.record({
      entities: fc.tuple(
        ...entityIds.map((id) =>
          fc.record({
            id: fc.constant(id),
            publicRead: fc.boolean(),
            fields: fieldsArbitrary(entityIds, true, 1),
          }),
        ),
      ),
      entityActions: fc.tuple(
        ...entityIds.map((id) =>
          fc
            .subarray(['list', 'get', 'create', 'update', 'delete'], { minLength: 1 })
            .map((kinds) =>
              kinds.map((kind) => ({ id: `${kind}_${id}`, kind, entity: id, mcp: kind === 'list' })),
            ),
        ),
      ),
      services: fc.array(
        fc.record({
          input: fieldsArbitrary(entityIds, false, 0),
          output: fieldsArbitrary(entityIds, false, 0),
          emits: fc.boolean(),
          external: fc.boolean(),
        }),
        { maxLength: 2 },
      ),
      version: fc
        .tuple(fc.nat({ max: 20 }), fc.nat({ max: 20 }), fc.nat({ max: 20 }))
        .map((parts) => parts.join('.')),
    }),
  )
  .map(({ entities, entityActions, services, version }) => ({
    apiVersion: 1,
    id: 'generated',
    version,
    name: { en: 'Generated' },
    entities,
    actions: [
      ...entityActions.flat(),
      ...services.map(({ input, output, emits, external }, index) => ({
        id: `service_${index}`,
        kind: 'service',
        ...(external ? { runtime: 'external' } : { runtime: 'module', export: `run${index}` }),
        emits,
        input,
        output,
      })),
    ],
  }));

const UUID = fc.uuid();
const day = fc
  .tuple(
    fc.integer({ min: 1970, max: 2100 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
  )
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

interface Declared {
  readonly type: string;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly { value: string }[];
  readonly coreReference?: string;
  readonly items?: Declared;
  readonly maxItems?: number;
}

/** A JSON value that fits a declared (parsed) field or list item type. */
export function fittingValue(type: Declared): fc.Arbitrary<unknown> {
  switch (type.type) {
    case 'string':
      if (type.coreReference) return UUID;
      return fc.string({ maxLength: type.maxLength ?? 255 }).filter((text) => !/[\r\n]/.test(text));
    case 'text':
      return fc.string({ maxLength: type.maxLength ?? 10_000 });
    case 'integer':
      return fc.integer({ min: type.min ?? -1e9, max: type.max ?? 1e9 });
    case 'number':
      return fc.double({ min: type.min ?? -1e9, max: type.max ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'date':
      return day;
    case 'datetime':
      return fc.tuple(day, fc.integer({ min: 0, max: 86_399 })).map(([date, seconds]) => {
        const two = (part: number) => String(part).padStart(2, '0');
        return `${date}T${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}Z`;
      });
    case 'choice':
      return fc.constantFrom(...(type.choices ?? []).map((choice) => choice.value));
    case 'reference':
      return UUID;
    case 'list':
      return fc.array(fittingValue(type.items!), { maxLength: Math.min(type.maxItems ?? 100, 5) });
    default:
      throw new Error(`no value for ${type.type}`);
  }
}
