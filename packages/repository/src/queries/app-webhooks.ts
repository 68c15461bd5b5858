import { eq } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { appWebhookReceipts } from '../schema.ts';
import { findRow } from './tenant-rows.ts';

export type AppWebhookReceiptRow = typeof appWebhookReceipts.$inferSelect;

/** The receipt the shop's app gave for the sender's event id, if it accepted one. */
export function findAppWebhookReceipt(
  tx: Executor,
  tenantId: string,
  appId: string,
  eventId: string,
): Promise<AppWebhookReceiptRow | undefined> {
  return findRow(tx, appWebhookReceipts, tenantId, [
    eq(appWebhookReceipts.appId, appId),
    eq(appWebhookReceipts.eventId, eventId),
  ]);
}

/**
 * Stores a receipt unless one for the same (shop, app, event id) exists: answers the stored row,
 * or undefined when another request holds that event id (a concurrent one is waited for first).
 */
export async function insertAppWebhookReceipt(
  tx: Executor,
  receipt: typeof appWebhookReceipts.$inferInsert,
): Promise<AppWebhookReceiptRow | undefined> {
  const [row] = await tx.insert(appWebhookReceipts).values(receipt).onConflictDoNothing().returning();
  return row;
}
