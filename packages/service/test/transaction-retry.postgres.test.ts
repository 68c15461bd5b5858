import { createDatabase, type Database, type TransactionRetry } from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raise } from './forced-sql-state.ts';

// The transaction runner against real deadlocks and serialization failures between PostgreSQL
// sessions (PGlite has one session, so nothing there ever waits on another); the forced failures
// and the 503 BUSY answer run on either engine in transaction-retry.test.ts.

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe('retries on PostgreSQL', () => {
  let pool: Database;
  const retries: TransactionRetry[] = [];

  beforeAll(async () => {
    pool = await createDatabase({
      databaseUrl: database.url,
      migrate: false,
      maxConnections: 4,
      onTransactionRetry: (retry) => retries.push(retry),
    });
    await pool.db.execute(sql`create table deadlock_probe (id int primary key, hits int not null)`);
    await pool.db.execute(sql`insert into deadlock_probe values (1, 0), (2, 0)`);
  });
  afterAll(async () => pool?.close());

  it('is retried: both transactions that locked two rows in opposite orders commit', async () => {
    // Each transaction takes its first row, waits until the other holds its own, then asks for it.
    let arrived = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runs = { forward: 0, backward: 0 };
    const lockBoth = (name: 'forward' | 'backward', first: number, second: number) =>
      pool.transaction(async (tx) => {
        runs[name] += 1;
        await tx.execute(sql`update deadlock_probe set hits = hits + 1 where id = ${first}`);
        if (runs[name] === 1 && ++arrived === 2) release();
        if (runs[name] === 1) await bothHoldOne;
        await tx.execute(sql`update deadlock_probe set hits = hits + 1 where id = ${second}`);
        return name;
      });
    const answers = await Promise.all([lockBoth('forward', 1, 2), lockBoth('backward', 2, 1)]);
    expect(answers).toEqual(['forward', 'backward']);
    // PostgreSQL chose one victim; the runner ran it again after the other committed.
    expect(retries.map((retry) => retry.sqlState)).toEqual(['40P01']);
    expect(runs.forward + runs.backward).toBe(3);
    // Each committed once: every row counted both transactions, the victim's first run left nothing.
    expect(await pool.rows(sql`select id, hits from deadlock_probe order by id`)).toEqual([
      { id: 1, hits: 2 },
      { id: 2, hits: 2 },
    ]);
  });

  it('reports each retry with a short random pause, and takes its bound from the options', async () => {
    const reported: TransactionRetry[] = [];
    const own = await createDatabase({
      databaseUrl: database.url,
      migrate: false,
      maxConnections: 1,
      transactionRetries: 2,
      onTransactionRetry: (retry) => reported.push(retry),
    });
    try {
      let runs = 0;
      const error = await own
        .transaction(async (tx) => {
          runs += 1;
          await raise(tx, '40001');
        })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ sqlState: '40001', attempts: 3 });
      expect(runs).toBe(3);
      expect(reported.map(({ sqlState, attempt }) => [sqlState, attempt])).toEqual([
        ['40001', 1],
        ['40001', 2],
      ]);
      expect(reported[0]!.delayMs).toBeLessThan(10);
      expect(reported[1]!.delayMs).toBeLessThan(20);
    } finally {
      await own.close();
    }
  });
});
