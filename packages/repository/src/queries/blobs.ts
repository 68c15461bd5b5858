import { eq } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { blobs } from '../schema.ts';
import { deleteRows, findRow } from './tenant-rows.ts';

export type BlobRow = typeof blobs.$inferSelect;
export type BlobMetadata = Omit<BlobRow, 'bytes'>;

export async function insertBlob(tx: Executor, blob: typeof blobs.$inferInsert): Promise<BlobMetadata> {
  const [row] = await tx.insert(blobs).values(blob).returning({
    tenantId: blobs.tenantId,
    id: blobs.id,
    contentType: blobs.contentType,
    size: blobs.size,
    sha256: blobs.sha256,
    createdAt: blobs.createdAt,
  });
  return row!;
}

/** The blob with its bytes, if this shop has it. */
export function findBlob(tx: Executor, tenantId: string, id: string): Promise<BlobRow | undefined> {
  return findRow(tx, blobs, tenantId, [eq(blobs.id, id)]);
}

/** Removes a blob; true when it existed. */
export async function deleteBlob(tx: Executor, tenantId: string, id: string): Promise<boolean> {
  return (await deleteRows(tx, blobs, tenantId, [eq(blobs.id, id)])) === 1;
}
