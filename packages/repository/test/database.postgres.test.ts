import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRows, inSavepoint } from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

// On PostgreSQL every statement with parameters is prepared once per connection, inside
// transactions and savepoints too (decision 0019); the embedded engine runs in this process,
// with no round trip to save.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe('the database wrapper on PostgreSQL', () => {
  it('prepares every statement with parameters on PostgreSQL, in transactions and savepoints, and keeps the simple protocol without them', async () => {
    const prepared = await database.transaction(async (tx) => {
      await tx.execute(sql`select ${1}::int as in_transaction`);
      await inSavepoint(tx, (inner) => inner.execute(sql`select ${2}::int as in_savepoint`));
      await tx.execute(sql`select 3 as without_parameters`);
      // The connection of this transaction: its prepared statements.
      return executeRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`);
    });
    const texts = prepared.map((row) => row.statement);
    expect(texts.some((text) => text.includes('in_transaction'))).toBe(true);
    expect(texts.some((text) => text.includes('in_savepoint'))).toBe(true);
    expect(texts.some((text) => text.includes('without_parameters'))).toBe(false);
  });
});
