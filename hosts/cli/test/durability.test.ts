import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, migratedStorage, run, type Server, type Storage, startServer } from './storage.ts';

// Killing the process (SIGKILL) at any point loses no committed outbox event, and a restart
// continues where it stopped. "Committed" = the API answered 201: the token and its
// token.created event were written in one transaction before the answer.

// Short leases, so a killed worker's lease expires quickly and the restart shows the pickup.
const FAST = { WORKER_LEASE_MS: '1500' };

let storage: Storage;
let shop: { tenantId: string; token: string };

beforeAll(async () => {
  storage = await migratedStorage();
  const created = await run(storage, ['shop', 'create', '--name', 'Durable']);
  shop = JSON.parse(created.stdout[0]!) as typeof shop;
});
afterAll(async () => storage?.dispose());

function kill(server: Server) {
  process.kill(-server.process.child.pid!, 'SIGKILL');
  return server.process.exited;
}

/** Creates tokens, several in flight at once, until `commits` were answered 201; then SIGKILLs mid-flight. */
async function writeThenKill(server: Server, commits: number): Promise<string[]> {
  const committed: string[] = [];
  let killed = false;
  const writer = async () => {
    while (!killed) {
      try {
        const response = await api(server, 'POST', '/api/tokens', shop.token, {
          name: `t${committed.length}`,
          kind: 'api',
          role: 'reader',
        });
        if (response.status === 201) committed.push((response.body.details as { id: string }).id);
      } catch {
        return; // the connection died with the process: that request was not acknowledged
      }
      if (committed.length >= commits && !killed) {
        killed = true;
        await kill(server);
      }
    }
  };
  await Promise.all([writer(), writer(), writer(), writer()]);
  return committed;
}

async function allEvents(
  server: Server,
): Promise<{ sequence: number; name: string; payload: { tokenId?: string } }[]> {
  const events: { sequence: number; name: string; payload: { tokenId?: string } }[] = [];
  let after = 0;
  for (;;) {
    const page = await api(server, 'GET', `/api/events?limit=100&after=${after}`, shop.token);
    events.push(...(page.body.items as typeof events));
    if (page.body.next === null) return events;
    after = page.body.next as number;
  }
}

/** Polls until the projection has caught up with the outbox (the worker in `start` runs it). */
async function caughtUp(server: Server) {
  for (;;) {
    const status = await api(server, 'GET', '/api/events/status', shop.token);
    const consumer = (status.body.consumers as { consumer: string; lag: number }[]).find(
      (entry) => entry.consumer === 'event-statistics',
    );
    if (consumer && consumer.lag === 0) return status.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('SIGKILL at any point', () => {
  it('loses no committed event, and the restarted service processes every event exactly once', async () => {
    const committed: string[] = [];
    for (const commits of [5, 17, 31]) {
      const server = await startServer(storage, FAST);
      committed.push(...(await writeThenKill(server, commits)));
    }
    // A kill while the worker is mid-backlog: start, let it begin, kill again.
    const busy = await startServer(storage, FAST);
    await kill(busy);

    const server = await startServer(storage, FAST);
    try {
      const events = await allEvents(server);
      expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
      const announced = new Set(
        events.filter((e) => e.name === 'token.created').map((e) => e.payload.tokenId),
      );
      for (const id of committed) expect(announced.has(id)).toBe(true);

      const status = await caughtUp(server);
      const counts = Object.fromEntries(
        (status.counts as { name: string; count: number }[]).map((row) => [row.name, row.count]),
      );
      const expected: Record<string, number> = {};
      for (const event of events) expected[event.name] = (expected[event.name] ?? 0) + 1;
      expect(counts).toEqual(expected);
    } finally {
      server.process.child.kill('SIGTERM');
      await server.process.exited;
    }
  });
});
