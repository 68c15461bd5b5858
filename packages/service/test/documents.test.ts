import {
  type Database,
  findDocument,
  listEvents,
  listOrderActivities,
  listOrderDocuments,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  createDocument,
  createServices,
  createShop,
  invokeOperation,
  type Principal,
  type Services,
} from '@cartwright/service';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestOrder } from '../src/testing.ts';
import { drawnText } from './pdf-text.ts';
import { apiPrincipal, operationNamed, principalOf, successOf, testActor } from './principals.ts';

let database: Database;
let services: Services;
let owner: Principal;
let tenantId: string;
let other: Principal;

const seller = {
  name: 'Musterfirma GmbH',
  street: 'Hauptstraße 5',
  zipcode: '10115',
  city: 'Berlin',
  country: 'DE',
  vatId: 'DE123456789',
  email: 'billing@musterfirma.example',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  legalNotice: 'Registered at Amtsgericht Berlin, HRB 12345. Managing director: Erika Muster. Łowicz office.',
};

const call = (name: string, input: unknown, principal = owner) =>
  invokeOperation(services, operationNamed(name), principal, input);

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  const shop = await createShop(services, { name: 'Documents shop', ownerEmail: 'owner@documents.test' });
  tenantId = shop.tenantId;
  owner = await principalOf(services, shop.token);
  const otherShop = await createShop(services, { name: 'Other shop', ownerEmail: 'owner@other.test' });
  other = await principalOf(services, otherShop.token);
});
afterAll(async () => database?.close());

describe('company identity', () => {
  it('is unset at revision 0, created at revision 0 and replaced at the stored revision', async () => {
    expect(successOf(await call('company.get', {}))).toEqual({ data: null, revision: 0 });
    const created = successOf(await call('company.save', { revision: 0, data: { name: 'Draft GmbH' } }));
    expect(created).toEqual({ data: { name: 'Draft GmbH' }, revision: 1 });
    const stale = await call('company.save', { revision: 0, data: { name: 'Other' } });
    expect(stale).toMatchObject({
      ok: false,
      code: 'STALE_REVISION',
      extensions: { expected: 0, actual: 1 },
    });
    const replaced = successOf(await call('company.save', { revision: 1, data: seller }));
    expect(replaced).toEqual({ data: seller, revision: 2 });
    expect(successOf(await call('company.get', {}))).toEqual({ data: seller, revision: 2 });
    const events = await listEvents(database.db, tenantId, { name: 'company.saved', limit: 10 });
    expect(events.map((event) => event.payload)).toEqual([{ revision: 1 }, { revision: 2 }]);
  });

  it('needs a name, an ISO country and known fields, and points at each problem', async () => {
    const result = await call('company.save', {
      revision: 2,
      data: { name: ' ', country: 'Germany', email: 'nope', zipCode: '1' },
    });
    if (result.ok) throw new Error('expected a validation failure');
    expect(result.code).toBe('VALIDATION_FAILED');
    expect(result.errors?.map((error) => error.pointer).sort()).toEqual([
      '/data/country',
      '/data/email',
      '/data/name',
      '/data/zipCode',
    ]);
    expect(successOf(await call('company.get', {}))).toMatchObject({ revision: 2 });
  });

  it('belongs to its shop', async () => {
    expect(successOf(await call('company.get', {}, other))).toEqual({ data: null, revision: 0 });
  });

  it('needs settings.read and settings.write', async () => {
    const reader = await apiPrincipal(services, tenantId, 'reader');
    expect((await call('company.get', {}, reader)).ok).toBe(true);
    expect(await call('company.save', { revision: 2, data: { name: 'X' } }, reader)).toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});

describe('documents', () => {
  it('refuses to render before the shop has a company identity', async () => {
    const order = await insertTestOrder(services, other.tenantId);
    const result = await call('orders.documents.create', { orderId: order.id, type: 'invoice' }, other);
    expect(result).toMatchObject({ ok: false, code: 'CONFLICT' });
    if (!result.ok) expect(result.detail).toMatch(/company identity first/i);
    expect(await listOrderDocuments(database.db, other.tenantId, order.id)).toEqual([]);
  });

  it('renders an invoice PDF from the order snapshot and the seller details', async () => {
    const order = await insertTestOrder(services, tenantId);
    const created = successOf(await call('orders.documents.create', { orderId: order.id, type: 'invoice' }));
    expect(created).toMatchObject({
      orderId: order.id,
      type: 'invoice',
      number: 1,
      fileName: 'invoice-1.pdf',
      contentType: 'application/pdf',
    });
    const file = successOf(await call('documents.download', { documentId: (created as { id: string }).id }));
    const { bytes, fileName, contentType } = file as {
      bytes: Uint8Array;
      fileName: string;
      contentType: string;
    };
    expect({ fileName, contentType }).toEqual({ fileName: 'invoice-1.pdf', contentType: 'application/pdf' });
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect((created as { size: number }).size).toBe(bytes.byteLength);

    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe('Invoice 1');
    expect(pdf.getSubject()).toBe(`Order no. ${order.number} · Musterfirma GmbH`);
    expect(pdf.getAuthor()).toBe('Musterfirma GmbH');

    const text = await drawnText(bytes);
    for (const expected of [
      'Musterfirma GmbH',
      String(order.number),
      'EBOOK-1',
      'The Cartwright Handbook (e-b…',
      'Erika Mustermann',
      'Heidestraße 17',
      '19.99 EUR',
      '25.00 EUR',
      '4.99 EUR',
      'VAT 19 % (42.00 EUR)',
      '7.98 EUR',
      '49.98 EUR',
      'VAT ID DE123456789',
      'IBAN DE89370400440532013000',
      // Ł is outside the standard fonts' WinAnsi: it prints as "?" instead of failing the render.
      '?owicz office.',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('renders a delivery note without prices, to the shipping address, in the order’s language', async () => {
    const order = await insertTestOrder(services, tenantId, { language: 'de-CH' });
    const created = successOf(
      await call('orders.documents.create', { orderId: order.id, type: 'delivery_note' }),
    );
    expect(created).toMatchObject({ type: 'delivery_note', number: 1, fileName: 'delivery-note-1.pdf' });
    const file = successOf(await call('documents.download', { documentId: (created as { id: string }).id }));
    const bytes = (file as { bytes: Uint8Array }).bytes;
    expect((await PDFDocument.load(bytes)).getTitle()).toBe('Lieferschein 1');
    const text = await drawnText(bytes);
    expect(text).toContain('Am Markt 1');
    expect(text).toContain('Enamel mug “Cartwright” (blue)');
    expect(text).not.toContain('EUR');
  });

  it('writes the activity entry and the document.created event with the document', async () => {
    const order = await insertTestOrder(services, tenantId);
    const created = successOf(
      await call('orders.documents.create', { orderId: order.id, type: 'invoice' }),
    ) as {
      id: string;
      number: number;
    };
    const activities = await listOrderActivities(database.db, tenantId, order.id);
    expect(activities).toEqual([
      expect.objectContaining({
        kind: 'document',
        author: { kind: 'token', tokenId: owner.tokenId, userId: owner.userId },
        data: { documentId: created.id, type: 'invoice', number: created.number },
      }),
    ]);
    const events = await listEvents(database.db, tenantId, { name: 'document.created', limit: 100 });
    expect(events.at(-1)).toMatchObject({
      payload: { documentId: created.id, orderId: order.id, orderNumber: order.number, type: 'invoice' },
      actor: { kind: 'token', tokenId: owner.tokenId },
    });
    const stored = await findDocument(database.db, tenantId, created.id);
    expect(stored?.snapshot).toMatchObject({
      seller: { name: 'Musterfirma GmbH' },
      order: { number: order.number },
    });
  });

  it('lists an order’s documents and allows several invoices, each with a new number', async () => {
    const order = await insertTestOrder(services, tenantId);
    const first = successOf(await call('orders.documents.create', { orderId: order.id, type: 'invoice' }));
    const second = successOf(await call('orders.documents.create', { orderId: order.id, type: 'invoice' }));
    const note = successOf(
      await call('orders.documents.create', { orderId: order.id, type: 'delivery_note' }),
    );
    const listed = successOf(await call('orders.documents.list', { orderId: order.id })) as {
      items: { id: string; number: number; type: string }[];
    };
    expect(listed.items).toEqual([first, second, note]);
    const [a, b] = [first, second] as { number: number }[];
    expect(b!.number).toBe(a!.number + 1);
  });

  it('answers the same bytes on every download', async () => {
    const order = await insertTestOrder(services, tenantId);
    const created = successOf(
      await call('orders.documents.create', { orderId: order.id, type: 'invoice' }),
    ) as {
      id: string;
    };
    const once = successOf(await call('documents.download', { documentId: created.id })) as {
      bytes: Uint8Array;
    };
    const twice = successOf(await call('documents.download', { documentId: created.id })) as {
      bytes: Uint8Array;
    };
    expect(Buffer.from(twice.bytes).equals(Buffer.from(once.bytes))).toBe(true);
  });

  it('keeps the numbering gapless when a creating transaction rolls back', async () => {
    const order = await insertTestOrder(services, tenantId);
    const before = await listOrderDocuments(database.db, tenantId, order.id);
    expect(before).toEqual([]);
    let rolledBack = 0;
    await expect(
      database.transaction(async (tx) => {
        const created = await createDocument(tx, services, tenantId, {
          orderId: order.id,
          type: 'delivery_note',
          actor: testActor,
        });
        rolledBack = successOf(created).number;
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const next = successOf(
      await call('orders.documents.create', { orderId: order.id, type: 'delivery_note' }),
    );
    expect((next as { number: number }).number).toBe(rolledBack);
  });

  it('numbers concurrent creations 1…n per type without gaps or duplicates', async () => {
    const shop = await createShop(services, { name: 'Concurrent shop', ownerEmail: 'owner@concurrent.test' });
    const principal = await principalOf(services, shop.token);
    successOf(await call('company.save', { revision: 0, data: { name: 'Concurrent GmbH' } }, principal));
    const orders = await Promise.all(
      Array.from({ length: 5 }, () => insertTestOrder(services, shop.tenantId)),
    );
    const requests = Array.from({ length: 10 }, (_, index) => ({
      orderId: orders[index % orders.length]!.id,
      type: index % 2 === 0 ? 'invoice' : 'delivery_note',
    }));
    const results = await Promise.all(
      [...requests, ...requests].map((input) => call('orders.documents.create', input, principal)),
    );
    const created = results.map((result) => successOf(result) as { type: string; number: number });
    for (const type of ['invoice', 'delivery_note']) {
      const numbers = created.filter((document) => document.type === type).map((document) => document.number);
      expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
    }
  });

  it('hides another shop’s orders and documents', async () => {
    const order = await insertTestOrder(services, tenantId);
    const created = successOf(
      await call('orders.documents.create', { orderId: order.id, type: 'invoice' }),
    ) as {
      id: string;
    };
    expect(await call('documents.download', { documentId: created.id }, other)).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await call('orders.documents.list', { orderId: order.id }, other)).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(
      await call('orders.documents.create', { orderId: order.id, type: 'invoice' }, other),
    ).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('needs documents.read to read and documents.write to create', async () => {
    const reader = await apiPrincipal(services, tenantId, 'reader');
    const order = await insertTestOrder(services, tenantId);
    expect((await call('orders.documents.list', { orderId: order.id }, reader)).ok).toBe(true);
    expect(
      await call('orders.documents.create', { orderId: order.id, type: 'invoice' }, reader),
    ).toMatchObject({
      code: 'FORBIDDEN',
      extensions: { permission: 'documents.write' },
    });
  });
});
