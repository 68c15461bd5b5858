import {
  type DocumentWithFile,
  type Executor,
  findCompanyIdentity,
  findOrder,
  insertDocument,
  insertOrderActivity,
  nextCounterValue,
} from '@cartwright/repository';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import type { Services } from '../kernel/services.ts';
import { type DocumentType, documentLabels, documentTitle } from './labels.ts';
import { documentOrderOf } from './order-snapshot.ts';
import { renderDocumentPdf } from './render.ts';

export type { DocumentType } from './labels.ts';

const FILE_PREFIX: Record<DocumentType, string> = { invoice: 'invoice', delivery_note: 'delivery-note' };

/**
 * Renders, numbers and stores a document of an order in the caller's transaction, with its
 * activity entry and `document.created` event. Numbers count per shop and type without gaps: the
 * counter row stays locked until the transaction ends, and a rollback takes the number back.
 * The staff operation and the flow action "generate document" both call this; a flow passes its
 * step key, kept on the activity entry so a replayed step finds the document it already made.
 */
export async function createDocument(
  tx: Executor,
  services: Services,
  tenantId: string,
  request: {
    readonly orderId: string;
    readonly type: DocumentType;
    readonly actor: Actor;
    readonly stepKey?: string;
  },
): Promise<Result<DocumentWithFile>> {
  const { orderId, type, actor } = request;
  const order = await findOrder(tx, tenantId, orderId);
  if (!order) return fail('NOT_FOUND', 'No such order exists in this shop.');
  const identity = await findCompanyIdentity(tx, tenantId);
  if (!identity) {
    return fail('CONFLICT', 'Set the company identity first: documents print the seller details.');
  }
  const documentOrder = documentOrderOf(order);
  const labels = documentLabels(order.language);
  const issuedAt = services.clock.now();

  // Taken as late as possible: the counter row stays locked until the transaction ends.
  const number = await nextCounterValue(tx, tenantId, `document:${type}`);
  const bytes = await renderDocumentPdf({
    type,
    number,
    issuedAt,
    seller: identity.data,
    order: documentOrder,
    labels,
  });
  const contentType = 'application/pdf';
  const blob = await services.blobs.put(tx, tenantId, { bytes, contentType });
  const document = await insertDocument(tx, {
    tenantId,
    id: services.ids.next(),
    orderId,
    type,
    number,
    blobId: blob.id,
    fileName: `${FILE_PREFIX[type]}-${number}.pdf`,
    snapshot: {
      issuedAt: issuedAt.toISOString(),
      language: order.language,
      seller: { ...identity.data },
      sellerRevision: identity.revision,
      order: documentOrder,
    },
    createdAt: issuedAt,
  });
  await insertOrderActivity(tx, {
    tenantId,
    id: services.ids.next(),
    orderId,
    kind: 'document',
    author: actor,
    text: `${documentTitle(documentLabels('en'), type)} ${number} created`,
    data: { documentId: document.id, type, number, ...(request.stepKey ? { stepKey: request.stepKey } : {}) },
    createdAt: issuedAt,
  });
  await recordEvent(tx, services, tenantId, actor, 'document.created', {
    documentId: document.id,
    orderId,
    orderNumber: order.number,
    type,
    number,
  });
  return ok({ ...document, size: blob.size, contentType });
}
