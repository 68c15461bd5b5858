import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, embeddedDatabaseExists, executeRows } from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

// The database wrapper: raw rows the same on both drivers (statements prepared on PostgreSQL:
// database.postgres.test.ts).

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
