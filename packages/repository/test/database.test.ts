import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, embeddedDatabaseExists, executeRows, inSavepoint } from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

// The database wrapper: raw rows the same on both drivers, and on PostgreSQL every statement with
// parameters prepared once per connection, inside transactions and savepoints too (decision 0019).

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe('the database wrapper', () => {
  it('answers the rows of a raw statement the same on either driver', async () => {
    const rows = await executeRows<{ n: number; label: string }>(
      database.db,
      sql`select ${41}::int + 1 as n, ${'forty-two'}::text as label`,
    );
    expect(rows).toEqual([{ n: 42, label: 'forty-two' }]);
  });

  it.runIf(process.env.DATABASE_URL !== undefined)(
    'prepares every statement with parameters on PostgreSQL, in transactions and savepoints, and keeps the simple protocol without them',
    async () => {
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
    },
  );
});

describe('the embedded data directory', () => {
  it('is created on first open (initdb in a child process), then opened with its data kept', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cartwright-embedded-'));
    try {
      expect(embeddedDatabaseExists(dataDir)).toBe(false);
      const first = await createDatabase({ dataDir, migrate: false });
      expect(embeddedDatabaseExists(dataDir)).toBe(true);
      await first.db.execute(sql`create table kept (n int)`);
      await first.db.execute(sql`insert into kept values (42)`);
      // The engine runs with the small buffer pool the embedded default is measured with.
      expect(await executeRows(first.db, sql`show shared_buffers`)).toEqual([{ shared_buffers: '16MB' }]);
      await first.close();
      const again = await createDatabase({ dataDir, migrate: false });
      expect(await executeRows(again.db, sql`select n from kept`)).toEqual([{ n: 42 }]);
      await again.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers a clear error when the directory cannot be created, and removes nothing it found', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cartwright-embedded-'));
    try {
      writeFileSync(join(dataDir, 'pglite'), 'not a directory');
      await expect(createDatabase({ dataDir, migrate: false })).rejects.toThrow(
        /could not create the embedded database in .*pglite/,
      );
      expect(readFileSync(join(dataDir, 'pglite'), 'utf8')).toBe('not a directory');
      // The lock was given back: the next attempt fails the same way, not as "in use".
      await expect(createDatabase({ dataDir, migrate: false })).rejects.toThrow(/could not create/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
