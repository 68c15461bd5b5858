import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { EntityField, type Field, ShapeField } from './schema.ts';
import { checkRow, checkValue } from './values.ts';

const declare = (field: Record<string, unknown>): Field => v.parse(ShapeField, { name: 'value', ...field });
const UUID = '0190a3c4-7d2e-7b1a-9c3d-2f4e5a6b7c8d';

interface Case {
  readonly type: Record<string, unknown>;
  readonly good: readonly unknown[];
  /** Values refused, each with the code expected at `/value` (or deeper, for list items). */
  readonly bad: readonly (readonly [unknown, string, string?])[];
}

const cases: readonly Case[] = [
  {
    type: { type: 'string', maxLength: 5 },
    good: ['', 'abcde', 'äöü'],
    bad: [
      [1, 'VALUE_TYPE'],
      ['abcdef', 'VALUE_OUT_OF_RANGE'],
      ['a\nb', 'VALUE_FORMAT'],
      [['a'], 'VALUE_TYPE'],
    ],
  },
  { type: { type: 'string' }, good: ['x'.repeat(255)], bad: [['x'.repeat(256), 'VALUE_OUT_OF_RANGE']] },
  {
    type: { type: 'string', maxLength: 36, coreReference: 'customer' },
    good: [UUID, UUID.toUpperCase()],
    bad: [
      ['customer-1', 'VALUE_FORMAT'],
      [42, 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'text', maxLength: 10 },
    good: ['line\nline'],
    bad: [
      ['x'.repeat(11), 'VALUE_OUT_OF_RANGE'],
      [false, 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'integer', min: -3, max: 3 },
    good: [-3, 0, 3],
    bad: [
      [1.5, 'VALUE_TYPE'],
      ['1', 'VALUE_TYPE'],
      [4, 'VALUE_OUT_OF_RANGE'],
      [-4, 'VALUE_OUT_OF_RANGE'],
    ],
  },
  {
    type: { type: 'integer' },
    good: [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
    bad: [
      [2 ** 53, 'VALUE_OUT_OF_RANGE'],
      [Number.NaN, 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'number', min: 0, max: 1 },
    good: [0, 0.5, 1],
    bad: [
      [1.01, 'VALUE_OUT_OF_RANGE'],
      [Number.POSITIVE_INFINITY, 'VALUE_TYPE'],
      ['0.5', 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'boolean' },
    good: [true, false],
    bad: [
      ['true', 'VALUE_TYPE'],
      [0, 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'date' },
    good: ['2024-02-29', '2000-02-29', '1999-12-31'],
    bad: [
      ['2023-02-29', 'VALUE_FORMAT'],
      ['1900-02-29', 'VALUE_FORMAT'],
      ['2024-13-01', 'VALUE_FORMAT'],
      ['2024-04-31', 'VALUE_FORMAT'],
      ['2024-4-1', 'VALUE_FORMAT'],
      ['2024-04-01T00:00:00Z', 'VALUE_FORMAT'],
      [20240401, 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'datetime' },
    good: ['2024-04-01T12:30:00Z', '2024-04-01T23:59:59.123456789Z'],
    bad: [
      ['2024-04-01T12:30:00+02:00', 'VALUE_FORMAT'],
      ['2024-04-01T24:00:00Z', 'VALUE_FORMAT'],
      ['2024-04-01 12:30:00Z', 'VALUE_FORMAT'],
      ['2024-04-31T12:30:00Z', 'VALUE_FORMAT'],
      ['2024-04-01T12:30Z', 'VALUE_FORMAT'],
    ],
  },
  {
    type: { type: 'choice', choices: [{ value: 'gold', label: { en: 'Gold' } }] },
    good: ['gold'],
    bad: [
      ['Gold', 'VALUE_CHOICE'],
      [1, 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'reference', entity: 'note' },
    good: [UUID],
    bad: [
      ['note-1', 'VALUE_FORMAT'],
      [7, 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'list', items: { type: 'integer', min: 0 }, maxItems: 2 },
    good: [[], [0, 7]],
    bad: [
      [[1, 2, 3], 'VALUE_OUT_OF_RANGE'],
      [[1, -1], 'VALUE_OUT_OF_RANGE', '/value/1'],
      [[null], 'VALUE_TYPE', '/value/0'],
      [[1, 'x'], 'VALUE_TYPE', '/value/1'],
      [{ 0: 1 }, 'VALUE_TYPE'],
    ],
  },
  {
    type: { type: 'list', items: { type: 'choice', choices: [{ value: 'a', label: { en: 'A' } }] } },
    good: [['a', 'a']],
    bad: [[['a', 'b'], 'VALUE_CHOICE', '/value/1']],
  },
];

describe('checkValue', () => {
  describe.each(cases)('$type.type $type', ({ type, good, bad }) => {
    const shape = [declare(type)];
    it.each(good.map((value) => [value]))('accepts %j', (value) => {
      expect(checkValue(shape, { value })).toEqual({ ok: true, value: { value } });
    });
    it.each(bad)('refuses %j with %s', (value, code, pointer = '/value') => {
      const result = checkValue(shape, { value });
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.issues.map((issue) => [issue.code, issue.pointer])).toEqual([[code, pointer]]);
    });
  });

  const shape = [
    declare({ name: 'days', type: 'integer', required: true }),
    declare({ name: 'note', type: 'text' }),
  ];

  it('takes absent and null for a field that is not required', () => {
    expect(checkValue(shape, { days: 1 }).ok).toBe(true);
    expect(checkValue(shape, { days: 1, note: null })).toEqual({ ok: true, value: { days: 1, note: null } });
  });

  it('reports every problem at once, with its pointer', () => {
    expect(checkValue(shape, { note: 5, colour: 'red', 'a/b': 1 })).toEqual({
      ok: false,
      code: 'VALUE_UNKNOWN_FIELD',
      detail: '/colour: "colour" is not declared',
      issues: [
        { code: 'VALUE_UNKNOWN_FIELD', pointer: '/colour', message: '"colour" is not declared' },
        { code: 'VALUE_UNKNOWN_FIELD', pointer: '/a~1b', message: '"a/b" is not declared' },
        { code: 'VALUE_REQUIRED', pointer: '/days', message: '"days" is required' },
        { code: 'VALUE_TYPE', pointer: '/note', message: 'expected a string, got a number' },
      ],
    });
  });

  it('refuses null for a required field, also in a patch', () => {
    for (const partial of [false, true]) {
      const result = checkValue(shape, { days: null }, { partial });
      expect(result.ok ? [] : result.issues.map((issue) => issue.code)).toEqual(['VALUE_REQUIRED']);
    }
  });

  it('lets a patch leave required fields out', () => {
    expect(checkValue(shape, { note: 'x' }, { partial: true })).toEqual({ ok: true, value: { note: 'x' } });
  });

  it.each([null, [], 'x', 3])('refuses %j as a whole', (value) => {
    const result = checkValue(shape, value);
    expect(result.ok ? [] : result.issues.map((issue) => [issue.code, issue.pointer])).toEqual([
      ['VALUE_TYPE', ''],
    ]);
  });

  it('does not treat inherited names as members', () => {
    const result = checkValue(shape, JSON.parse('{"days": 1, "__proto__": {"note": "x"}}'));
    expect(result.ok ? [] : result.issues.map((issue) => issue.pointer)).toEqual(['/__proto__']);
  });

  it('answers a copy that shares no list with the input', () => {
    const tags = [declare({ name: 'tags', type: 'list', items: { type: 'string' } })];
    const input = { tags: ['a'] };
    const result = checkValue(tags, input);
    if (!result.ok) throw new Error(result.detail);
    input.tags.push('b');
    expect(result.value).toEqual({ tags: ['a'] });
  });
});

describe('checkRow', () => {
  const entity = {
    id: 'note',
    publicRead: false,
    fields: [
      v.parse(EntityField, {
        name: 'customer_id',
        type: 'string',
        required: true,
        indexable: true,
        coreReference: 'customer',
      }),
      v.parse(EntityField, { name: 'body', type: 'text', required: true }),
    ],
  };

  it('checks a row against the entity’s fields', () => {
    expect(checkRow(entity, { customer_id: UUID, body: 'hello' }).ok).toBe(true);
    const result = checkRow(entity, { customer_id: 'someone' });
    expect(result.ok ? [] : result.issues.map((issue) => [issue.code, issue.pointer])).toEqual([
      ['VALUE_FORMAT', '/customer_id'],
      ['VALUE_REQUIRED', '/body'],
    ]);
  });

  it('checks a patch', () => {
    expect(checkRow(entity, { body: 'edited' }, { partial: true }).ok).toBe(true);
  });
});
