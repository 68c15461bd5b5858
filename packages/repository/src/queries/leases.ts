import { and, eq, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn, type PgTable, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../database.ts';
import {
  appDeliveries,
  appDeliveryCircuits,
  appSchedules,
  apps,
  flowJobs,
  mediaDrafts,
  outboxCursors,
  paymentJobs,
  tenantCounters,
  tenants,
} from '../schema.ts';

// The one lease mechanism. Work that workers take (outbox cursors, flow jobs, payment jobs; later
// app deliveries, schedule ticks, image drafts) lives in a table that spreads `leaseColumns()`.
// A claim leases due rows in one statement, skipping rows other transactions hold (FOR UPDATE
// SKIP LOCKED); a fenced write lands only while the row is still leased to its writer; expiry is
// always computed by the database clock, so replicas never compare their own clocks. A new kind
// of work is one `defineLease` declaration below, added to `LEASES`.

/** A table whose rows workers lease: it spreads `leaseColumns()`. */
export type LeasedTable = PgTable & {
  readonly leaseOwner: PgColumn;
  readonly leaseExpiresAt: PgColumn;
};

/** What every claim names; a kind may ask for more (outbox cursors: the consumer). */
export interface ClaimArguments {
  readonly owner: string;
  readonly leaseMs: number;
  /** How many rows at most. */
  readonly limit: number;
}

/** One kind of leased work. */
export interface LeaseDeclaration<T extends LeasedTable, A> {
  readonly table: T;
  /** The row's key, tenant_id first: a claim names the rows it takes by it. */
  readonly key: (t: T) => readonly [PgColumn, ...PgColumn[]];
  /** The rows a claim may take. `t` is the table under the alias `due`. */
  readonly due: (t: T, claim: A & { readonly owner: string }) => SQL;
  /** The order a claim takes due rows in. */
  readonly order: (t: T) => PgColumn | SQL;
  /** What the row's state also says while it is leased (flow jobs: running); part of every fence and release. */
  readonly held?: (t: T) => SQL;
  /** A fenced write is refused too once the lease's time has passed, before anyone took the row over. */
  readonly fencesExpiry?: boolean;
  /** More columns a claim sets (flow jobs: status running). */
  readonly onClaim?: PgUpdateSetSource<T>;
  /** More columns a release sets (flow jobs: queued again). */
  readonly onRelease?: PgUpdateSetSource<T>;
}

/** What a fenced write does with the lease: renew it for `renewMs`, or give it up. */
export type LeaseOutcome = { readonly renewMs: number } | 'release';

/** The operations over one kind of leased work. */
export interface Lease<T extends LeasedTable, A> {
  readonly table: T;
  /**
   * Leases up to `limit` due rows to `owner` in one statement, in the kind's order, skipping rows
   * other transactions hold; answers them as the claim left them.
   */
  claim(tx: Executor, claim: A & ClaimArguments): Promise<T['$inferSelect'][]>;
  /** Extends the lease of the rows `where` names that `owner` still holds; answers how many. */
  renew(tx: Executor, owner: string, leaseMs: number, where: SQL): Promise<number>;
  /**
   * Writes `set` to the rows `where` names that `owner` still holds (the fence), renewing or
   * giving up the lease with it, in one statement. Answers how many rows were written: fewer than
   * named means a lease was lost, and the caller must roll its transaction back.
   */
  save(
    tx: Executor,
    write: { owner: string; where: SQL; set: PgUpdateSetSource<T>; lease: LeaseOutcome },
  ): Promise<number>;
  /** Gives up the leases `owner` holds (only of the rows `where` names, when given). */
  release(tx: Executor, owner: string, where?: SQL): Promise<void>;
  /** The fence as a condition, for statements that write many rows at once; `row` may be an alias of the table. */
  heldBy(owner: string, row?: LeasedTable): SQL;
}

/** A lease's expiry `leaseMs` from now by the database clock. */
export function leaseExpiry(leaseMs: number): SQL {
  return sql`clock_timestamp() + make_interval(secs => ${leaseMs / 1000})`;
}

/** Whether the row's lease has run out by the database clock (its holder may be lost). */
export function isLeaseExpired(t: LeasedTable): SQL {
  return sql`${t.leaseExpiresAt} < clock_timestamp()`;
}

/** The lease columns of a row nobody holds. */
export const noLease = { leaseOwner: null, leaseExpiresAt: null } as const;

/** Declares one kind of leased work and answers its claim, renew, fenced save and release. */
export function defineLease<T extends LeasedTable, A = unknown>(
  declaration: LeaseDeclaration<T, A>,
): Lease<T, A> {
  const { table, key, held, fencesExpiry } = declaration;
  // Drizzle's builders cannot check a generic table's columns; the declaration's types did.
  const update = (tx: Executor) => tx.update(table as PgTable);
  const keyOf = (t: T) => sql.join([...key(t)], sql`, `);
  const heldBy = (owner: string, row: LeasedTable = table) =>
    and(
      eq(row.leaseOwner, owner),
      held?.(row as T),
      fencesExpiry ? sql`${row.leaseExpiresAt} >= clock_timestamp()` : undefined,
    )!;
  const counted = { key: key(table)[0] };
  return {
    table,
    heldBy,
    async claim(tx, claim) {
      const due = alias(table as PgTable, 'due') as unknown as T;
      const rows = await update(tx)
        .set({
          ...declaration.onClaim,
          leaseOwner: claim.owner,
          leaseExpiresAt: leaseExpiry(claim.leaseMs),
        } as never)
        .where(
          sql`(${keyOf(table)}) in (
            select ${keyOf(due)} from ${table} ${due}
            where ${declaration.due(due, claim)}
            order by ${declaration.order(due)}
            limit ${claim.limit}
            for update of ${due} skip locked)`,
        )
        .returning();
      return rows as T['$inferSelect'][];
    },
    async renew(tx, owner, leaseMs, where) {
      const rows = await update(tx)
        .set({ leaseExpiresAt: leaseExpiry(leaseMs) } as never)
        .where(and(where, heldBy(owner)))
        .returning(counted);
      return rows.length;
    },
    async save(tx, { owner, where, set, lease }) {
      const rows = await update(tx)
        .set({
          ...set,
          ...(lease === 'release' ? noLease : { leaseExpiresAt: leaseExpiry(lease.renewMs) }),
        } as never)
        .where(and(where, heldBy(owner)))
        .returning(counted);
      return rows.length;
    },
    async release(tx, owner, where) {
      await update(tx)
        .set({ ...declaration.onRelease, ...noLease } as never)
        .where(and(eq(table.leaseOwner, owner), held?.(table), where));
    },
  };
}

/**
 * Outbox cursors: a consumer leases one shop's cursor at a time, while that shop has events past
 * it; its own lease it may claim again at once. The least recently moved cursor goes first.
 */
export const outboxCursorLease = defineLease({
  table: outboxCursors,
  key: (t) => [t.tenantId, t.consumer],
  due: (
    t,
    claim: { readonly consumer: string; readonly owner: string },
  ) => sql`${t.consumer} = ${claim.consumer}
    and exists (select 1 from ${tenantCounters} k
      where k.tenant_id = ${t.tenantId} and k.name = 'outbox' and ${t.position} < k.value)
    and (${t.leaseOwner} is null or ${t.leaseOwner} = ${claim.owner} or ${isLeaseExpired(t)})`,
  order: (t) => t.updatedAt,
  fencesExpiry: true,
  onClaim: { updatedAt: sql`clock_timestamp()` },
});

/**
 * Flow jobs, across shops: queued or waiting jobs whose `available_at` has come, and running jobs
 * whose lease expired (their worker was lost), earliest first. A leased job is `running`; given
 * back, it is queued again.
 */
export const flowJobLease = defineLease({
  table: flowJobs,
  key: (t) => [t.tenantId, t.id],
  due: (t) => sql`(${t.status} in ('queued', 'waiting') and ${t.availableAt} <= clock_timestamp())
    or (${t.status} = 'running' and ${isLeaseExpired(t)})`,
  order: (t) => t.availableAt,
  held: (t) => sql`${t.status} = 'running'`,
  onClaim: { status: 'running', updatedAt: sql`clock_timestamp()` },
  onRelease: { status: 'queued', updatedAt: sql`clock_timestamp()` },
});

/**
 * Payment jobs, across shops: queued jobs whose `available_at` has come, and running jobs whose
 * lease expired (their worker was lost mid-call: the job's handler reconciles with the provider
 * before it repeats anything), earliest first. Every fenced write is refused once the lease's time
 * has passed, so a slow provider answer never lands after another worker took the job over.
 */
export const paymentJobLease = defineLease({
  table: paymentJobs,
  key: (t) => [t.tenantId, t.id],
  due: (t) => sql`(${t.status} = 'queued' and ${t.availableAt} <= clock_timestamp())
    or (${t.status} = 'running' and ${isLeaseExpired(t)})`,
  order: (t) => t.availableAt,
  held: (t) => sql`${t.status} = 'running'`,
  fencesExpiry: true,
  onClaim: { status: 'running', tries: sql`${paymentJobs.tries} + 1`, updatedAt: sql`clock_timestamp()` },
  onRelease: { status: 'queued', updatedAt: sql`clock_timestamp()` },
});

/**
 * App deliveries, across shops, one lease per delivery: pending deliveries whose `available_at` has
 * come (backoff) and that nobody holds, or whose holder's lease expired (a lost worker: the
 * delivery is sent again, at least once), while the app is installed in that shop and its circuit
 * there is not open. Earliest first. A fenced write is refused once the lease's time has passed.
 */
export const appDeliveryLease = defineLease({
  table: appDeliveries,
  key: (t) => [t.tenantId, t.id],
  due: (t) => sql`${t.status} = 'pending' and ${t.availableAt} <= clock_timestamp()
    and (${t.leaseOwner} is null or ${isLeaseExpired(t)})
    and exists (select 1 from ${apps} a where a.tenant_id = ${t.tenantId} and a.app_id = ${t.appId})
    and not exists (select 1 from ${appDeliveryCircuits} c
      where c.tenant_id = ${t.tenantId} and c.app_id = ${t.appId} and c.opened_at is not null)`,
  order: (t) => t.availableAt,
  held: (t) => sql`${t.status} = 'pending'`,
  fencesExpiry: true,
  onClaim: { updatedAt: sql`clock_timestamp()` },
});

/**
 * App schedules, across live shops (a private sandbox shop never runs them): enabled schedules
 * whose next tick has come by the claim's `now` (the service clock, so tests and replicas agree on
 * dueness through one injected clock), not leased or leased past expiry (database clock), earliest
 * tick first. A write is refused once the lease's time has passed; the tick's unique key guards
 * the rest.
 */
export const appScheduleLease = defineLease({
  table: appSchedules,
  key: (t) => [t.tenantId, t.appId, t.scheduleId],
  due: (t, claim: { readonly now: Date; readonly owner: string }) => sql`${t.enabled}
    and ${t.nextTickAt} <= ${claim.now.toISOString()}::timestamptz
    and (${t.leaseOwner} is null or ${isLeaseExpired(t)})
    and exists (select 1 from ${tenants} s where s.id = ${t.tenantId} and s.stage = 'live')`,
  order: (t) => t.nextTickAt,
  fencesExpiry: true,
});

/**
 * Image drafts, across shops: pending drafts nobody holds, or whose holder's lease expired (a lost
 * worker: the draft's effect receipt then says whether its provider call had started, and such a
 * draft fails rather than being sent again), oldest first. A fenced write is refused once the
 * lease's time has passed, so an answer arriving after the lease never lands.
 */
export const mediaDraftLease = defineLease({
  table: mediaDrafts,
  key: (t) => [t.tenantId, t.id],
  due: (t) => sql`${t.status} = 'pending' and (${t.leaseOwner} is null or ${isLeaseExpired(t)})`,
  order: (t) => t.createdAt,
  held: (t) => sql`${t.status} = 'pending'`,
  fencesExpiry: true,
  onClaim: { updatedAt: sql`clock_timestamp()` },
});

/** Every kind of leased work: what `releaseAllLeases` gives back. */
const LEASES: readonly Lease<LeasedTable, never>[] = [
  outboxCursorLease,
  flowJobLease,
  paymentJobLease,
  appDeliveryLease,
  appScheduleLease,
  mediaDraftLease,
];

/**
 * Gives back every lease `owner` holds, of every kind (graceful shutdown): one statement per kind.
 * A flow job stopped inside an action keeps its pending receipt, so the next worker reports it
 * uncertain.
 */
export async function releaseAllLeases(tx: Executor, owner: string): Promise<void> {
  for (const lease of LEASES) await lease.release(tx, owner);
}
