import { type DocumentWithFile, findDocument, findOrder, listOrderDocuments } from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { defineOperation, FileContent } from '../kernel/registry.ts';
import { iso, Timestamp, Uuid } from '../kernel/schemas.ts';
import { createDocument } from './create.ts';

const DocumentType = v.picklist(['invoice', 'delivery_note']);

const Document = v.object({
  id: Uuid,
  orderId: Uuid,
  type: DocumentType,
  number: v.number(),
  fileName: v.string(),
  contentType: v.string(),
  size: v.number(),
  createdAt: Timestamp,
});
type Document = v.InferOutput<typeof Document>;

function documentView(row: DocumentWithFile): Document {
  return {
    id: row.id,
    orderId: row.orderId,
    type: row.type,
    number: row.number,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    createdAt: iso(row.createdAt),
  };
}

export const createOrderDocument = defineOperation({
  name: 'orders.documents.create',
  summary:
    'Renders an invoice or delivery note of the order as a PDF, numbered per shop and type without gaps. Documents are immutable.',
  http: { method: 'POST', path: '/api/orders/:orderId/documents', status: 201 },
  permission: 'documents.write',
  readOnly: false,
  input: v.object({ orderId: Uuid, type: DocumentType }),
  output: Document,
  async handler({ services, tenantId, principal }, input) {
    const created = await services.database.transaction((tx) =>
      createDocument(tx, services, tenantId, {
        orderId: input.orderId,
        type: input.type,
        actor: actorOf(principal),
      }),
    );
    return created.ok ? ok(documentView(created.value)) : created;
  },
});

export const listOrderDocumentsOperation = defineOperation({
  name: 'orders.documents.list',
  summary: 'The invoices and delivery notes of an order, oldest first.',
  http: { method: 'GET', path: '/api/orders/:orderId/documents' },
  permission: 'documents.read',
  readOnly: true,
  input: v.object({ orderId: Uuid }),
  output: v.object({ items: v.array(Document) }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    if (!(await findOrder(db, tenantId, input.orderId)))
      return fail('NOT_FOUND', 'No such order exists in this shop.');
    const rows = await listOrderDocuments(db, tenantId, input.orderId);
    return ok({ items: rows.map(documentView) });
  },
});

export const downloadDocument = defineOperation({
  name: 'documents.download',
  summary: 'The PDF of a document, exactly as it was created.',
  http: { method: 'GET', path: '/api/documents/:documentId/file' },
  permission: 'documents.read',
  readOnly: true,
  file: true,
  input: v.object({ documentId: Uuid }),
  output: FileContent,
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    const document = await findDocument(db, tenantId, input.documentId);
    if (!document) return fail('NOT_FOUND', 'No such document exists in this shop.');
    const blob = await services.blobs.get(db, tenantId, document.blobId);
    if (!blob) throw new Error(`document ${document.id} names a missing blob ${document.blobId}`);
    return ok({ fileName: document.fileName, contentType: blob.contentType, bytes: blob.bytes });
  },
});

export const documentOperations = [createOrderDocument, listOrderDocumentsOperation, downloadDocument];
