import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyStockMove,
  fulfil,
  planStockReservations,
  release,
  reserve,
  restock,
  type StockLevel,
  type StockMove,
} from './stock.ts';

describe('stock moves', () => {
  it.each<[string, StockMove, StockLevel, number, StockLevel]>([
    ['reserve', reserve, { available: 5, reserved: 1 }, 3, { available: 2, reserved: 4 }],
    ['reserve everything', reserve, { available: 5, reserved: 0 }, 5, { available: 0, reserved: 5 }],
    ['release', release, { available: 2, reserved: 4 }, 3, { available: 5, reserved: 1 }],
    ['fulfil', fulfil, { available: 2, reserved: 4 }, 4, { available: 2, reserved: 0 }],
    ['restock', restock, { available: 2, reserved: 4 }, 10, { available: 12, reserved: 4 }],
  ])('%s', (_name, move, stock, quantity, expected) => {
    expect(move(stock, quantity)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, StockMove, StockLevel, number, string]>([
    ['reserve more than available', reserve, { available: 2, reserved: 9 }, 3, 'INSUFFICIENT_STOCK'],
    ['release more than reserved', release, { available: 9, reserved: 2 }, 3, 'INSUFFICIENT_RESERVATION'],
    ['fulfil more than reserved', fulfil, { available: 9, reserved: 2 }, 3, 'INSUFFICIENT_RESERVATION'],
    ['reserve zero', reserve, { available: 2, reserved: 0 }, 0, 'INVALID_QUANTITY'],
    ['release a negative quantity', release, { available: 2, reserved: 2 }, -1, 'INVALID_QUANTITY'],
    ['fulfil a fraction', fulfil, { available: 2, reserved: 2 }, 0.5, 'INVALID_QUANTITY'],
    [
      'restock past the safe integers',
      restock,
      { available: Number.MAX_SAFE_INTEGER, reserved: 0 },
      1,
      'STOCK_OUT_OF_RANGE',
    ],
  ])('%s → %s', (_name, move, stock, quantity, code) => {
    expect(move(stock, quantity)).toMatchObject({ ok: false, code });
  });

  it('never goes negative and conserves available + reserved until fulfil', () => {
    const operation = fc.record({
      move: fc.constantFrom('reserve', 'release', 'fulfil'),
      quantity: fc.integer({ min: -2, max: 40 }),
    });
    fc.assert(
      fc.property(
        fc.record({ available: fc.nat({ max: 100 }), reserved: fc.nat({ max: 100 }) }),
        fc.array(operation, { maxLength: 50 }),
        (start, operations) => {
          let stock = start;
          let expectedTotal = start.available + start.reserved;
          for (const { move, quantity } of operations) {
            const result = { reserve, release, fulfil }[move](stock, quantity);
            if (!result.ok) continue;
            stock = result.value;
            if (move === 'fulfil') expectedTotal -= quantity;
            expect(stock.available).toBeGreaterThanOrEqual(0);
            expect(stock.reserved).toBeGreaterThanOrEqual(0);
            expect(stock.available + stock.reserved).toBe(expectedTotal);
          }
        },
      ),
    );
  });

  it('fails exactly when the source bucket is too small', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 50 }),
        fc.nat({ max: 50 }),
        fc.integer({ min: 1, max: 60 }),
        (available, reserved, quantity) => {
          expect(reserve({ available, reserved }, quantity).ok).toBe(available >= quantity);
          expect(release({ available, reserved }, quantity).ok).toBe(reserved >= quantity);
          expect(fulfil({ available, reserved }, quantity).ok).toBe(reserved >= quantity);
        },
      ),
    );
  });
});

describe('applyStockMove', () => {
  const levels: Record<string, StockLevel> = {
    A: { available: 5, reserved: 0 },
    B: { available: 1, reserved: 0 },
  };

  it('adds up lines of one SKU and returns the new levels', () => {
    const result = applyStockMove(
      levels,
      [
        { sku: 'A', quantity: 2 },
        { sku: 'B', quantity: 1 },
        { sku: 'A', quantity: 3 },
      ],
      reserve,
    );
    expect(result).toEqual({
      ok: true,
      value: { A: { available: 0, reserved: 5 }, B: { available: 0, reserved: 1 } },
    });
  });

  it('is all or nothing and names the failing SKU', () => {
    const before = structuredClone(levels);
    const result = applyStockMove(
      levels,
      [
        { sku: 'A', quantity: 1 },
        { sku: 'B', quantity: 2 },
      ],
      reserve,
    );
    expect(result).toMatchObject({ ok: false, code: 'INSUFFICIENT_STOCK' });
    if (!result.ok) expect(result.detail).toContain('SKU B');
    expect(levels).toEqual(before);
  });

  it('rejects an unknown SKU, including inherited property names', () => {
    for (const sku of ['C', 'constructor', '__proto__', 'toString']) {
      expect(applyStockMove(levels, [{ sku, quantity: 1 }], reserve)).toMatchObject({
        ok: false,
        code: 'UNKNOWN_SKU',
      });
    }
  });

  it('keeps a SKU named __proto__ as data', () => {
    const odd: Record<string, StockLevel> = Object.fromEntries([
      ['__proto__', { available: 3, reserved: 0 }],
    ]);
    const result = applyStockMove(odd, [{ sku: '__proto__', quantity: 1 }], reserve);
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(Object.entries(result.value)).toEqual([['__proto__', { available: 2, reserved: 1 }]]);
  });
});

describe('planStockReservations', () => {
  const line = (productId: string, quantity: number) => ({ productId, sku: `SKU-${productId}`, quantity });
  const uuidA = '0b6f3c1e-0000-4000-8000-000000000001';
  const uuidB = '9a6f3c1e-0000-4000-8000-000000000002';
  const uuidC = 'f06f3c1e-0000-4000-8000-000000000003';

  it.each<[string, ReturnType<typeof line>[], [string, number][]]>([
    ['no lines', [], []],
    ['one line', [line('p1', 3)], [['p1', 3]]],
    [
      'lines of one product added up, products sorted by id',
      [line('p2', 1), line('p1', 2), line('p2', 4)],
      [
        ['p1', 2],
        ['p2', 5],
      ],
    ],
    [
      'UUIDs by code unit, not by locale or insertion order',
      [line(uuidC, 1), line(uuidA, 1), line(uuidB, 2), line(uuidA, 1)],
      [
        [uuidA, 2],
        [uuidB, 2],
        [uuidC, 1],
      ],
    ],
    [
      'an upper-case id sorts before lower-case ones (code units)',
      [line('b', 1), line('B', 1), line('a', 1)],
      [
        ['B', 1],
        ['a', 1],
        ['b', 1],
      ],
    ],
  ])('%s', (_name, lines, expected) => {
    expect(planStockReservations(lines)).toEqual(
      expected.map(([productId, quantity]) => ({ productId, sku: `SKU-${productId}`, quantity })),
    );
  });

  it('gives the same list for opposite line orders', () => {
    const lines = [line(uuidB, 2), line(uuidA, 1), line(uuidC, 5), line(uuidA, 3)];
    const forwards = planStockReservations(lines);
    expect(planStockReservations([...lines].reverse())).toEqual(forwards);
    expect(forwards.map((reservation) => reservation.productId)).toEqual([uuidA, uuidB, uuidC]);
  });

  it('is the same for every order of the lines and conserves each product’s quantity', () => {
    const lines = fc.array(
      fc.record({
        productId: fc.constantFrom('p1', 'p2', 'p3', 'p4'),
        quantity: fc.integer({ min: 1, max: 10_000 }),
      }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(
        lines.chain((drawn) =>
          fc.tuple(fc.constant(drawn), fc.shuffledSubarray(drawn, { minLength: drawn.length })),
        ),
        ([drawn, shuffled]) => {
          const withSku = (list: typeof drawn) => list.map((l) => ({ ...l, sku: `SKU-${l.productId}` }));
          const plan = planStockReservations(withSku(drawn));
          expect(planStockReservations(withSku(shuffled))).toEqual(plan);
          const ids = plan.map((reservation) => reservation.productId);
          expect(ids).toEqual([...new Set(drawn.map((l) => l.productId))].sort());
          for (const reservation of plan) {
            const total = drawn
              .filter((l) => l.productId === reservation.productId)
              .reduce((sum, l) => sum + l.quantity, 0);
            expect(reservation.quantity).toBe(total);
          }
        },
      ),
    );
  });
});
