import { type Database, outboxHead } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { createServices, type Services } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../src/index.ts';
import { appendEvents, collectLog, createShops, ONLY_STATISTICS } from './outbox-state.ts';

// A worker with a backlog must let the rest of its process run between rounds. The embedded
// engine answers in this process without waiting on a socket, so a loop that goes straight from
// one busy round to the next never gives timers or HTTP requests a turn: with `PROCESS_ROLE=all`
// the server would stop answering until the backlog is gone.

let database: Database;
let services: Services;
let shop: string;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = (await createShops(services, 1, 'Backlog'))[0]!;
  await appendEvents(services, shop, 300, 7);
});
afterAll(async () => database?.close());

describe('a busy worker', () => {
  it('lets a timer run between its rounds while the backlog lasts', async () => {
    const sink = collectLog();
    let appliedWhenTimerRan: number | null = null;
    let armed = false;
    const handle = startWorkers(services, {
      roles: ['memory-worker'],
      runners: ONLY_STATISTICS,
      owner: 'busy',
      pollMs: 50,
      batchSize: 10,
      maxBatches: 1,
      log: (line) => {
        sink.log(line);
        // Armed after the first round's work: it can only run when the loop yields.
        if (!armed && sink.appliedBy('busy') > 0) {
          armed = true;
          setTimeout(() => {
            appliedWhenTimerRan = sink.appliedBy('busy');
          }, 0);
        }
      },
    });
    await handle.idle();
    await handle.stop();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const total = await outboxHead(database.db, shop);
    expect(sink.appliedBy('busy')).toBe(total);
    expect(appliedWhenTimerRan).not.toBeNull();
    expect(appliedWhenTimerRan!).toBeLessThan(total);
  });
});
