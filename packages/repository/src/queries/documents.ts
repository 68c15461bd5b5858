import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { blobs, documents } from '../schema.ts';
import { insertRow, inTenant } from './tenant-rows.ts';

export type DocumentRow = typeof documents.$inferSelect;
/** A document with the size and content type of its file. */
export type DocumentWithFile = DocumentRow & { readonly size: number; readonly contentType: string };

export function insertDocument(tx: Executor, document: typeof documents.$inferInsert): Promise<DocumentRow> {
  return insertRow(tx, documents, document);
}

const withFile = { document: documents, size: blobs.size, contentType: blobs.contentType };
const blobOfDocument = and(eq(blobs.tenantId, documents.tenantId), eq(blobs.id, documents.blobId));

function flatten(row: { document: DocumentRow; size: number; contentType: string }): DocumentWithFile {
  return { ...row.document, size: row.size, contentType: row.contentType };
}

export async function findDocument(
  tx: Executor,
  tenantId: string,
  id: string,
): Promise<DocumentWithFile | undefined> {
  const [row] = await tx
    .select(withFile)
    .from(documents)
    .innerJoin(blobs, blobOfDocument)
    .where(inTenant(documents, tenantId, eq(documents.id, id)));
  return row && flatten(row);
}

/** The documents of an order, oldest first. */
export async function listOrderDocuments(
  tx: Executor,
  tenantId: string,
  orderId: string,
): Promise<DocumentWithFile[]> {
  const rows = await tx
    .select(withFile)
    .from(documents)
    .innerJoin(blobs, blobOfDocument)
    .where(inTenant(documents, tenantId, eq(documents.orderId, orderId)))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  return rows.map(flatten);
}
