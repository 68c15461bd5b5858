import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inheritFromParent } from './variants.ts';

interface Product {
  id: string;
  parentId: string | null;
  name: string | null;
  description: string | null | undefined;
  stock: number | null;
  active: boolean | null;
  tags: string[] | null;
  ruleMetadata: Record<string, unknown> | null;
}

const INHERITED: (keyof Product)[] = ['name', 'description', 'stock', 'active', 'tags', 'ruleMetadata'];

const parent: Product = {
  id: 'parent',
  parentId: null,
  name: 'T-shirt',
  description: 'Organic cotton',
  stock: 10,
  active: true,
  tags: ['summer'],
  ruleMetadata: { brand: 'Acme', material: 'cotton', season: 'summer' },
};

function variant(overrides: Partial<Product>): Product {
  return {
    id: 'variant',
    parentId: 'parent',
    name: null,
    description: null,
    stock: null,
    active: null,
    tags: null,
    ruleMetadata: null,
    ...overrides,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const nested of Object.values(value)) deepFreeze(nested);
    Object.freeze(value);
  }
  return value;
}

describe('inheritFromParent', () => {
  it.each<[string, Partial<Product>, Partial<Product>]>([
    [
      'null fields inherit, identity fields stay the variant’s',
      {},
      {
        id: 'variant',
        parentId: 'parent',
        name: 'T-shirt',
        description: 'Organic cotton',
        stock: 10,
        tags: ['summer'],
        ruleMetadata: parent.ruleMetadata,
      },
    ],
    ['undefined inherits', { description: undefined }, { description: 'Organic cotton' }],
    ['an own value wins', { name: 'T-shirt red', stock: 3 }, { name: 'T-shirt red', stock: 3 }],
    ['an explicit empty string stays empty', { description: '' }, { description: '' }],
    ['zero and false are values, not gaps', { stock: 0, active: false }, { stock: 0, active: false }],
    ['an empty list is a value', { tags: [] }, { tags: [] }],
    [
      'ruleMetadata merges key by key, the variant’s keys win',
      { ruleMetadata: { material: 'linen', colour: 'red' } },
      { ruleMetadata: { brand: 'Acme', material: 'linen', season: 'summer', colour: 'red' } },
    ],
    [
      'a null ruleMetadata key inherits like a null field',
      { ruleMetadata: { season: null, colour: 'red' } },
      { ruleMetadata: { brand: 'Acme', material: 'cotton', season: 'summer', colour: 'red' } },
    ],
    ['an empty ruleMetadata inherits every key', { ruleMetadata: {} }, { ruleMetadata: parent.ruleMetadata }],
  ])('%s', (_name, overrides, expected) => {
    expect(inheritFromParent(parent, variant(overrides), INHERITED)).toMatchObject(expected);
  });

  it('inherits only the listed fields', () => {
    const effective = inheritFromParent(parent, variant({}), ['name']);
    expect(effective.name).toBe('T-shirt');
    expect(effective.stock).toBeNull();
    expect(effective.ruleMetadata).toBeNull();
  });

  it('keeps the variant’s ruleMetadata when the parent has none', () => {
    const effective = inheritFromParent(
      { ...parent, ruleMetadata: null },
      variant({ ruleMetadata: { a: 1 } }),
      INHERITED,
    );
    expect(effective.ruleMetadata).toEqual({ a: 1 });
  });

  it('never mutates either input', () => {
    const frozenParent = deepFreeze(structuredClone(parent));
    const frozenVariant = deepFreeze(variant({ name: 'V', ruleMetadata: { colour: 'red' } }));
    const effective = inheritFromParent(frozenParent, frozenVariant, INHERITED);
    expect(effective).not.toBe(frozenVariant);
    expect(frozenVariant.description).toBeNull();
    expect(frozenParent.ruleMetadata).toEqual(parent.ruleMetadata);
  });

  it('takes each listed scalar field from the variant unless it is null or undefined', () => {
    const maybe = <T>(arbitrary: fc.Arbitrary<T>) =>
      fc.oneof(arbitrary, fc.constant(null), fc.constant(undefined));
    fc.assert(
      fc.property(
        fc.record({ name: maybe(fc.string()), description: maybe(fc.string()), stock: maybe(fc.integer()) }),
        fc.record({ name: maybe(fc.string()), description: maybe(fc.string()), stock: maybe(fc.integer()) }),
        (parentFields, variantFields) => {
          const effective = inheritFromParent(parentFields, variantFields, ['name', 'description', 'stock']);
          for (const field of ['name', 'description', 'stock'] as const) {
            expect(effective[field]).toBe(variantFields[field] ?? parentFields[field]);
          }
        },
      ),
    );
  });
});
