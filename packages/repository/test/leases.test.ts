import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advanceCursor,
  appendEvents,
  claimCursor,
  claimDueJobs,
  type Database,
  ensureCursors,
  findFlowJob,
  insertFlowJobs,
  insertTenant,
  listCursors,
  releaseAllLeases,
  releaseJobLeases,
  saveLeasedJobs,
} from '../src/index.ts';
import { flowJobLease } from '../src/queries/leases.ts';
import { flowJobs } from '../src/schema.ts';
import { createTestDatabase } from '../src/testing.ts';

// The one lease mechanism, through the kinds that use it (flow jobs, outbox cursors). Expiry is
// simulated by moving `lease_expires_at` into the past: the mechanism compares it with the
// database clock, so no test waits.

let database: Database;
const shop = '0190f0c9-0000-7000-8000-00000000000a';
const otherShop = '0190f0c9-0000-7000-8000-00000000000b';
const id = (n: number) => `0190f0c9-0000-7000-8000-${String(n).padStart(12, '0')}`;
let sequence = 0;

/** Queues one flow job per id, due now, in this order. */
async function queueJobs(ids: readonly string[]): Promise<void> {
  for (const jobId of ids) {
    await insertFlowJobs(database.db, [
      {
        tenantId: shop,
        id: jobId,
        flowId: id(900),
        flowRevision: 1,
        eventSequence: ++sequence,
        eventName: 'test.happened',
        subject: {},
        definition: { flow: {}, rules: [] },
        actor: { kind: 'system' },
        status: 'queued',
      },
    ]);
  }
}

/** Moves a job's lease expiry into the past, as if its holder had stopped renewing it. */
async function expireJob(jobId: string): Promise<void> {
  await database.db
    .update(flowJobs)
    .set({ leaseExpiresAt: sql`clock_timestamp() - interval '1 second'` })
    .where(and(eq(flowJobs.tenantId, shop), eq(flowJobs.id, jobId)));
}

const running = (jobId: string) => ({
  tenantId: shop,
  id: jobId,
  status: 'running' as const,
  currentNode: 'next',
  trace: [],
});

beforeAll(async () => {
  database = await createTestDatabase();
  await insertTenant(database.db, { id: shop, name: 'Leases' });
  await insertTenant(database.db, { id: otherShop, name: 'Other' });
});
afterAll(async () => database?.close());

describe('the lease mechanism', () => {
  it('claims due jobs in order, and skips a job leased by another owner until its lease expires', async () => {
    await queueJobs([id(1), id(2), id(3)]);
    const first = await claimDueJobs(database.db, 'w1', 60_000, 2);
    // The earliest due jobs (RETURNING gives them in no particular order).
    expect(first.map((job) => job.id).sort()).toEqual([id(1), id(2)]);
    expect(first.every((job) => job.status === 'running' && job.leaseOwner === 'w1')).toBe(true);
    expect(first[0]!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);

    const second = await claimDueJobs(database.db, 'w2', 60_000, 10);
    expect(second.map((job) => job.id)).toEqual([id(3)]);
    expect(await claimDueJobs(database.db, 'w2', 60_000, 10)).toEqual([]);

    await expireJob(id(1));
    const taken = await claimDueJobs(database.db, 'w2', 60_000, 10);
    expect(taken.map((job) => [job.id, job.leaseOwner])).toEqual([[id(1), 'w2']]);
  });

  it('writes nothing for an owner whose job was taken over (the fence)', async () => {
    const before = await findFlowJob(database.db, shop, id(1));
    const written = await saveLeasedJobs(database.db, 'w1', 60_000, [
      { ...running(id(1)), currentNode: 'stale' },
      running(id(2)),
    ]);
    expect([...written]).toEqual([`${shop}:${id(2)}`]);
    const after = await findFlowJob(database.db, shop, id(1));
    expect(after).toEqual(before);
    expect(
      await flowJobLease.save(database.db, {
        owner: 'w1',
        where: and(eq(flowJobs.tenantId, shop), eq(flowJobs.id, id(1)))!,
        set: { currentNode: 'stale' },
        lease: 'release',
      }),
    ).toBe(0);
    expect(await findFlowJob(database.db, shop, id(1))).toEqual(before);
  });

  it('renews a lease only for its holder', async () => {
    const job = and(eq(flowJobs.tenantId, shop), eq(flowJobs.id, id(2)))!;
    const { leaseExpiresAt: before } = (await findFlowJob(database.db, shop, id(2)))!;
    expect(await flowJobLease.renew(database.db, 'w2', 600_000, job)).toBe(0);
    expect((await findFlowJob(database.db, shop, id(2)))!.leaseExpiresAt).toEqual(before);
    expect(await flowJobLease.renew(database.db, 'w1', 600_000, job)).toBe(1);
    const { leaseExpiresAt: after } = (await findFlowJob(database.db, shop, id(2)))!;
    expect(after!.getTime()).toBeGreaterThan(before!.getTime() + 500_000);
  });

  it('gives a job back on release: queued again and claimable at once', async () => {
    await releaseJobLeases(database.db, 'w1');
    const released = await findFlowJob(database.db, shop, id(2));
    expect(released).toMatchObject({ status: 'queued', leaseOwner: null, leaseExpiresAt: null });
    // Another owner's jobs keep their leases.
    expect((await findFlowJob(database.db, shop, id(1)))!.leaseOwner).toBe('w2');
    const taken = await claimDueJobs(database.db, 'w3', 60_000, 10);
    expect(taken.map((job) => job.id)).toEqual([id(2)]);
  });

  it('fences a cursor move by the lease expiry too, and lets an expired cursor be taken over', async () => {
    const event = { id: id(500), name: 'test.happened', payload: {}, actor: {}, occurredAt: new Date() };
    await appendEvents(database.db, otherShop, [event]);
    await ensureCursors(database.db, 'leases');
    const claimed = await claimCursor(database.db, 'leases', 'w1', 60_000);
    expect(claimed).toEqual({ tenantId: otherShop, position: 0 });
    expect(await claimCursor(database.db, 'leases', 'w2', 60_000)).toBeUndefined();
    // Its own lease the owner may claim again.
    expect(await claimCursor(database.db, 'leases', 'w1', 60_000)).toEqual(claimed);

    const move = { consumer: 'leases', tenantId: otherShop, owner: 'w1', from: 0, to: 1, leaseMs: 60_000 };
    await database.db.execute(
      sql`update outbox_cursors set lease_expires_at = clock_timestamp() - interval '1 second' where consumer = 'leases'`,
    );
    // Nobody took it over yet, but the lease ran out: the move is refused.
    expect(await advanceCursor(database.db, move)).toBe(false);
    expect(await claimCursor(database.db, 'leases', 'w2', 60_000)).toEqual(claimed);
    expect(await advanceCursor(database.db, move)).toBe(false);
    expect(await advanceCursor(database.db, { ...move, owner: 'w2' })).toBe(true);
  });

  it('releases every kind of lease an owner holds, and only that owner’s', async () => {
    // w2 now holds jobs 1 and 3 and the `leases` cursor of the other shop; w3 holds job 2.
    await releaseAllLeases(database.db, 'w2');
    for (const jobId of [id(1), id(3)]) {
      expect(await findFlowJob(database.db, shop, jobId)).toMatchObject({
        status: 'queued',
        leaseOwner: null,
      });
    }
    const [cursor] = (await listCursors(database.db, otherShop)).filter((row) => row.consumer === 'leases');
    expect(cursor).toMatchObject({ leaseOwner: null, leaseExpiresAt: null, position: 1 });
    expect((await findFlowJob(database.db, shop, id(2)))!.leaseOwner).toBe('w3');
    const taken = await claimDueJobs(database.db, 'w4', 60_000, 10);
    expect(taken.map((job) => job.id).sort()).toEqual([id(1), id(3)]);
  });
});
