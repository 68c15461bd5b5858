import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { type EffectScope, effectReceipts } from '../schema.ts';

export type { EffectScope } from '../schema.ts';
export type EffectReceiptRow = typeof effectReceipts.$inferSelect;

/** The receipts of these effect keys in one shop. */
export async function findEffectReceipts(
  tx: Executor,
  tenantId: string,
  keys: readonly string[],
): Promise<EffectReceiptRow[]> {
  if (keys.length === 0) return [];
  return tx
    .select()
    .from(effectReceipts)
    .where(and(eq(effectReceipts.tenantId, tenantId), inArray(effectReceipts.key, [...keys])));
}

/** An effect's receipt to write before the effect runs. */
export interface NewEffectReceipt {
  readonly tenantId: string;
  /** Stable for the effect and starting with its scope: `flow:<job_id>:<node_id>`. */
  readonly key: string;
  readonly scope: EffectScope;
  /** What the effect belongs to in its scope (a flow job's id). */
  readonly scopeId: string;
  /** The part of it (a flow's node id). */
  readonly step?: string | null;
}

/**
 * Writes the pending receipts of effects before they run, in one statement. Answers the keys
 * written (`tenantId:key`); an effect missing from it already had a receipt.
 */
export async function insertPendingEffectReceipts(
  tx: Executor,
  receipts: readonly NewEffectReceipt[],
): Promise<Set<string>> {
  if (receipts.length === 0) return new Set();
  const rows = await tx
    .insert(effectReceipts)
    .values(receipts.map((receipt) => ({ ...receipt, status: 'pending' as const })))
    .onConflictDoNothing()
    .returning({ tenantId: effectReceipts.tenantId, key: effectReceipts.key });
  return new Set(rows.map((row) => `${row.tenantId}:${row.key}`));
}

export interface ReceiptSettlement {
  readonly tenantId: string;
  readonly key: string;
  /** `confirmed` with the effect's result, or `failed` with its error. */
  readonly status: 'confirmed' | 'failed';
  readonly result: unknown;
}

/** Settles pending receipts with their effects' results or errors, in one statement. */
export async function settleReceipts(tx: Executor, settlements: readonly ReceiptSettlement[]): Promise<void> {
  if (settlements.length === 0) return;
  const records = settlements.map((settlement) => ({
    tenant_id: settlement.tenantId,
    key: settlement.key,
    status: settlement.status,
    result: settlement.result ?? null,
  }));
  await tx.execute(sql`
    update ${effectReceipts} r set status = x.status, result = x.result, settled_at = clock_timestamp()
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as x(tenant_id uuid, key text, status text, result jsonb)
    where r.tenant_id = x.tenant_id and r.key = x.key`);
}

/**
 * Deletes the pending and failed receipts of one scope's effects so they may run again (an
 * explicit retry); confirmed effects keep theirs and replay their result.
 */
export async function deleteUnsettledEffectReceipts(
  tx: Executor,
  tenantId: string,
  scope: EffectScope,
  scopeId: string,
): Promise<void> {
  await tx
    .delete(effectReceipts)
    .where(
      and(
        eq(effectReceipts.tenantId, tenantId),
        eq(effectReceipts.scopeId, scopeId),
        eq(effectReceipts.scope, scope),
        sql`${effectReceipts.status} in ('pending', 'failed')`,
      ),
    );
}
