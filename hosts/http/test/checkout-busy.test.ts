import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// A checkout whose transaction keeps failing as a deadlock victim, after the transaction runner's
// retries: the shopper gets 503 BUSY with `retryAfterSeconds`, never a 500, and nothing is placed.

let h: Harness;
let channelKey: string;
let productId: string;

beforeAll(async () => {
  h = await createHarness();
  ({ productId, channelKey } = await h.sellableTea());
});
afterAll(async () => h?.close());

async function forceDeadlocks(on: boolean) {
  if (!on) {
    await h.database.db.execute(sql.raw('drop trigger deadlock_every_reservation on stock_reservations'));
    return;
  }
  await h.database.db.execute(
    sql.raw(`create or replace function deadlock_every_reservation() returns trigger language plpgsql as $$
      begin raise exception 'forced deadlock' using errcode = '40P01'; end $$`),
  );
  await h.database.db.execute(
    sql.raw(`create trigger deadlock_every_reservation before insert on stock_reservations
      for each row execute function deadlock_every_reservation()`),
  );
}

describe('POST /store-api/checkout while deadlocks persist', () => {
  it('answers 503 BUSY with retryAfterSeconds; the same request succeeds once they clear', async () => {
    const token = await h.visitorWithCart(channelKey, [{ productId, quantity: 2 }]);
    const checkout = () =>
      h.call('POST', '/store-api/checkout', {
        headers: { 'x-channel-key': channelKey, 'x-context-token': token, 'idempotency-key': 'busy-0001' },
      });
    const before = await h.digest();
    await forceDeadlocks(true);
    const busy = await checkout();
    const raw = await h.app.request('/store-api/checkout', {
      method: 'POST',
      headers: { 'x-channel-key': channelKey, 'x-context-token': token, 'idempotency-key': 'busy-0001' },
    });
    await forceDeadlocks(false);
    expect(raw.headers.get('retry-after')).toBe('1');
    expect(busy.status).toBe(503);
    expect(busy.type).toContain('application/problem+json');
    expect(busy.body).toMatchObject({ status: 503, code: 'BUSY', retryAfterSeconds: 1 });
    expect(JSON.stringify(busy.body)).not.toMatch(/40P01|forced deadlock|stock_reservations/);
    expect(await h.digest()).toBe(before);

    const placed = await checkout();
    expect(placed.status).toBe(201);
    expect(placed.body.state).toBe('open');
  });

  it('answers the MCP tool with an isError result carrying BUSY', async () => {
    const token = await h.visitorWithCart(channelKey, [{ productId, quantity: 1 }]);
    const call = await h.mcp(h.shopA.token);
    await forceDeadlocks(true);
    const busy = await call('store.checkout', { contextToken: token }).finally(() => forceDeadlocks(false));
    expect(busy.isError).toBe(true);
    expect(busy.structuredContent).toMatchObject({ code: 'BUSY', retryAfterSeconds: 1 });
  });
});
