import { randomBytes } from 'node:crypto';
import {
  type Database,
  type FlowJobRow,
  findCustomer,
  findCustomerGroup,
  findOrder,
  findProposal,
  findStoreContextByTokenHash,
  listChannels,
  listCustomerGroups,
  listEvents,
  listOrderActivities,
  listOrderDocuments,
  listOrderEntitlements,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { ACTIONS } from '@cartwright/rules-engine';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogProduct } from '../src/catalog/operations.ts';
import { openStoreContext } from '../src/customers/contexts.ts';
import { createCustomer } from '../src/customers/customer.ts';
import { createProductAsset } from '../src/downloads/operations.ts';
import { ACTION_HANDLERS } from '../src/flows/actions.ts';
import type { FlowActor, FlowSubject } from '../src/flows/model.ts';
// Straight from the modules: the service's index also loads the flow executor and its packages.
import { authenticate, hashToken, type Principal } from '../src/kernel/auth.ts';
import type { Result } from '../src/kernel/errors.ts';
import type { Actor } from '../src/kernel/events.ts';
import { type AnyOperation, invokeOperation } from '../src/kernel/registry.ts';
import { createServices, type Services } from '../src/kernel/services.ts';
import { addOrderNote, updateShopOrder } from '../src/orders/operations.ts';
import { saveCompany } from '../src/settings/company.operations.ts';
import { createShop } from '../src/shop/shops.ts';
import { NATIVE_CUSTOMER_GROUPS } from '../src/shop/starter-definitions.ts';
import { insertTestOrder } from '../src/testing.ts';

let database: Database;
let services: Services;
let tenantId: string;
let channelId: string;
let owner: Principal;

const setupActor: Actor = { kind: 'system', process: 'test' };
const flowOwner: FlowActor = { kind: 'system' };

function successOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.detail}`);
  return result.value;
}

const call = (operation: unknown, input: unknown) =>
  invokeOperation(services, operation as AnyOperation, owner, input);

function fakeJob(subject: FlowSubject, id = services.ids.next()): FlowJobRow {
  const now = services.clock.now();
  return {
    tenantId,
    id,
    flowId: '0190f0c8-0000-7000-8000-00000000f10a',
    flowRevision: 1,
    eventSequence: 1,
    eventName: 'order.placed',
    subject: { ...subject },
    definition: { flow: {}, rules: [] },
    actor: flowOwner,
    status: 'running',
    currentNode: 'n1',
    trace: [],
    availableAt: now,
    leaseOwner: 'test',
    leaseExpiresAt: null,
    error: null,
    finishedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Runs one action the way the executor does: inside a transaction, as a step of a job. */
async function run(
  action: string,
  config: Record<string, unknown>,
  subject: FlowSubject,
  step: { jobId?: string; nodeId?: string } = {},
): Promise<Result<unknown>> {
  const handler = ACTION_HANDLERS[action];
  if (!handler) throw new Error(`no handler for ${action}`);
  const job = fakeJob(subject, step.jobId);
  const nodeId = step.nodeId ?? 'n1';
  return database.transaction((tx) =>
    handler(
      {
        tx,
        services,
        tenantId,
        job,
        nodeId,
        subject,
        actor: flowOwner,
        stepKey: `flow:${job.id}:${nodeId}`,
      },
      config,
    ),
  );
}

async function newCustomer(
  email: string,
  extra: { company?: string | null; tags?: string[]; group?: 'consumer' | 'business' } = {},
): Promise<string> {
  return database.transaction(async (tx) => {
    const created = await createCustomer(
      tx,
      services,
      tenantId,
      setupActor,
      {
        email,
        passwordHash: null,
        guest: false,
        group: extra.group ?? 'consumer',
        salutation: null,
        firstName: 'Erika',
        lastName: 'Mustermann',
        birthday: null,
        company: extra.company ?? null,
        vatId: null,
        tags: extra.tags ?? [],
        customFields: {},
        affiliateCode: null,
        campaignCode: null,
        active: true,
        newsletter: false,
        createdByAdmin: true,
        addresses: [],
      },
      { channelId: null, requireActiveCountries: false },
    );
    return successOf(created).row.id;
  });
}

async function eventsNamed(name: string) {
  const events = await listEvents(database.db, tenantId, { name, limit: 1000 });
  return events.map((event) => ({ ...event, payload: event.payload as Record<string, unknown> }));
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  const shop = await createShop(services, { name: 'Flow actions shop', ownerEmail: 'owner@flows.test' });
  tenantId = shop.tenantId;
  owner = successOf(await authenticate(services, shop.token));
  const [main] = await listChannels(database.db, tenantId);
  channelId = main!.id;
});
afterAll(async () => database?.close());

describe('the action handlers', () => {
  it('cover exactly the catalog’s actions', () => {
    expect(Object.keys(ACTION_HANDLERS).sort()).toEqual(ACTIONS.map((action) => action.name).sort());
  });
});

describe('order metadata', () => {
  it('adds and removes order tags through orders.update, recording the flow as actor', async () => {
    const order = await insertTestOrder(services, tenantId);
    const added = successOf(
      await run('action.add.order.tag', { tags: ['vip', 'gift'] }, { orderId: order.id }),
    );
    expect(added).toEqual({ tags: ['vip', 'gift'] });
    const again = successOf(
      await run('action.add.order.tag', { tags: ['gift', 'b2b'] }, { orderId: order.id }),
    );
    expect(again).toEqual({ tags: ['vip', 'gift', 'b2b'] });
    const removed = successOf(
      await run('action.remove.order.tag', { tags: ['vip', 'absent'] }, { orderId: order.id }),
    );
    expect(removed).toEqual({ tags: ['gift', 'b2b'] });
    const row = await findOrder(database.db, tenantId, order.id);
    expect(row?.tags).toEqual(['gift', 'b2b']);
    expect(row?.revision).toBe(order.revision + 3);
    const updates = (await eventsNamed('order.updated')).filter(
      (event) => event.payload.orderId === order.id,
    );
    expect(updates).toHaveLength(3);
    expect(updates[0]!.actor).toMatchObject({
      kind: 'flow',
      flowId: '0190f0c8-0000-7000-8000-00000000f10a',
      nodeId: 'n1',
      onBehalfOf: { kind: 'system' },
    });
  });

  it('sets and removes an order custom field and sets codes', async () => {
    const order = await insertTestOrder(services, tenantId);
    const set = successOf(
      await run(
        'action.set.order.custom.field',
        { field: 'priority', value: { level: 2, urgent: true } },
        { orderId: order.id },
      ),
    );
    expect(set).toEqual({ field: 'priority', value: { level: 2, urgent: true } });
    successOf(
      await run('action.set.order.custom.field', { field: 'note', value: 'x' }, { orderId: order.id }),
    );
    successOf(
      await run('action.set.order.custom.field', { field: 'note', value: null }, { orderId: order.id }),
    );
    expect((await findOrder(database.db, tenantId, order.id))?.customFields).toEqual({
      priority: { level: 2, urgent: true },
    });

    const codes = successOf(
      await run(
        'action.add.order.affiliate.and.campaign.code',
        { affiliateCode: 'partner-7', campaignCode: 'spring' },
        { orderId: order.id },
      ),
    );
    expect(codes).toEqual({ affiliateCode: 'partner-7', campaignCode: 'spring' });
    const cleared = successOf(
      await run(
        'action.add.order.affiliate.and.campaign.code',
        { campaignCode: null },
        { orderId: order.id },
      ),
    );
    expect(cleared).toEqual({ affiliateCode: 'partner-7', campaignCode: null });
    const row = await findOrder(database.db, tenantId, order.id);
    expect(row).toMatchObject({ affiliateCode: 'partner-7', campaignCode: null });
  });

  it('fails with NOT_FOUND when the subject names no order', async () => {
    const customerId = await newCustomer('no-order@example.test');
    const missing = await run('action.add.order.tag', { tags: ['x'] }, { customerId });
    expect(missing).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const gone = await run('note', { text: 'hi' }, { orderId: services.ids.next() });
    expect(gone).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});

describe('customer metadata', () => {
  it('changes the order’s customer: tags, custom fields and codes, identity unchanged', async () => {
    const customerId = await newCustomer('tags@example.test', { tags: ['old'] });
    const order = await insertTestOrder(services, tenantId, { customerId });
    expect(
      successOf(await run('action.add.customer.tag', { tags: ['loyal'] }, { orderId: order.id })),
    ).toEqual({
      tags: ['old', 'loyal'],
    });
    expect(successOf(await run('action.remove.customer.tag', { tags: ['old'] }, { customerId }))).toEqual({
      tags: ['loyal'],
    });
    successOf(
      await run('action.set.customer.custom.field', { field: 'tier', value: 'gold' }, { customerId }),
    );
    successOf(
      await run(
        'action.add.customer.affiliate.and.campaign.code',
        { affiliateCode: 'aff-1' },
        { orderId: order.id },
      ),
    );
    const row = await findCustomer(database.db, tenantId, customerId);
    expect(row).toMatchObject({
      email: 'tags@example.test',
      firstName: 'Erika',
      tags: ['loyal'],
      customFields: { tier: 'gold' },
      affiliateCode: 'aff-1',
      campaignCode: null,
    });
    const updated = (await eventsNamed('customer.updated')).filter(
      (event) => event.payload.customerId === customerId,
    );
    expect(updated.map((event) => event.payload.changed)).toEqual([
      ['tags'],
      ['tags'],
      ['customFields'],
      ['affiliateCode'],
    ]);
  });

  it('fails with NOT_FOUND for an order without a customer account', async () => {
    const order = await insertTestOrder(services, tenantId, { customerId: null });
    const result = await run('action.add.customer.tag', { tags: ['x'] }, { orderId: order.id });
    expect(result).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});

describe('customer-group custom fields', () => {
  const action = 'action.set.customer.group.custom.field';
  const groupEvents = async () =>
    (await eventsNamed('customer_group.updated')).map((event) => ({
      payload: event.payload,
      actor: event.actor,
    }));
  const groupRevision = async (group: 'consumer' | 'business') =>
    (await findCustomerGroup(database.db, tenantId, group))?.revision ?? 0;

  it('stores the field on the customer’s native group: consumer and business', async () => {
    const consumerId = await newCustomer('group-field-consumer@example.test');
    const businessId = await newCustomer('group-field-business@example.test', {
      group: 'business',
      company: 'Engines Ltd',
    });
    const businessOrder = await insertTestOrder(services, tenantId, { customerId: businessId });
    const before = { consumer: await groupRevision('consumer'), business: await groupRevision('business') };

    const consumer = successOf(
      await run(
        action,
        { field: 'tier', value: { discount: 5, labels: ['retail'] } },
        { customerId: consumerId },
      ),
    );
    expect(consumer).toEqual({
      group: 'consumer',
      groupId: NATIVE_CUSTOMER_GROUPS.consumer,
      field: 'tier',
      value: { discount: 5, labels: ['retail'] },
    });
    // An order's flow acts on the order's customer, so on their group.
    const business = successOf(
      await run(action, { field: 'tier', value: 'b2b' }, { orderId: businessOrder.id }),
    );
    expect(business).toEqual({
      group: 'business',
      groupId: NATIVE_CUSTOMER_GROUPS.business,
      field: 'tier',
      value: 'b2b',
    });
    successOf(await run(action, { field: 'terms', value: 30 }, { customerId: consumerId }));
    const unset = successOf(await run(action, { field: 'terms', value: null }, { customerId: consumerId }));
    expect(unset).toMatchObject({ group: 'consumer', field: 'terms', value: null });

    const consumerRow = await findCustomerGroup(database.db, tenantId, 'consumer');
    expect(consumerRow).toMatchObject({
      group: 'consumer',
      customFields: { tier: { discount: 5, labels: ['retail'] } },
      revision: before.consumer + 3,
    });
    expect(consumerRow?.customFields).not.toHaveProperty('terms');
    expect(await findCustomerGroup(database.db, tenantId, 'business')).toMatchObject({
      customFields: { tier: 'b2b' },
      revision: before.business + 1,
    });
    expect((await listCustomerGroups(database.db, tenantId)).map((row) => row.group)).toEqual([
      'business',
      'consumer',
    ]);
    // The group changes, not the customers in it.
    expect(await findCustomer(database.db, tenantId, consumerId)).toMatchObject({
      customFields: {},
      revision: 1,
    });
    expect(await findCustomer(database.db, tenantId, businessId)).toMatchObject({
      customFields: {},
      revision: 1,
    });

    const events = await groupEvents();
    expect(events.slice(-4).map((event) => event.payload)).toEqual([
      {
        group: 'consumer',
        groupId: NATIVE_CUSTOMER_GROUPS.consumer,
        revision: before.consumer + 1,
        changed: ['customFields'],
      },
      {
        group: 'business',
        groupId: NATIVE_CUSTOMER_GROUPS.business,
        revision: before.business + 1,
        changed: ['customFields'],
      },
      {
        group: 'consumer',
        groupId: NATIVE_CUSTOMER_GROUPS.consumer,
        revision: before.consumer + 2,
        changed: ['customFields'],
      },
      {
        group: 'consumer',
        groupId: NATIVE_CUSTOMER_GROUPS.consumer,
        revision: before.consumer + 3,
        changed: ['customFields'],
      },
    ]);
    expect(events.at(-1)?.actor).toMatchObject({
      kind: 'flow',
      nodeId: 'n1',
      onBehalfOf: { kind: 'system' },
    });
  });

  it('writes once per step: running the same step again replays its result', async () => {
    const customerId = await newCustomer('group-field-replay@example.test');
    const jobId = services.ids.next();
    const step = { jobId, nodeId: 'group-field' };
    const before = await groupRevision('consumer');
    const eventsBefore = (await groupEvents()).length;

    const first = successOf(await run(action, { field: 'segment', value: 'loyal' }, { customerId }, step));
    const replay = successOf(await run(action, { field: 'segment', value: 'loyal' }, { customerId }, step));
    expect(replay).toEqual(first);
    expect(await groupRevision('consumer')).toBe(before + 1);
    expect(await groupEvents()).toHaveLength(eventsBefore + 1);
    expect((await findCustomerGroup(database.db, tenantId, 'consumer'))?.lastStepKey).toBe(
      `flow:${jobId}:group-field`,
    );

    // Another step is another write, even of the same value.
    successOf(await run(action, { field: 'segment', value: 'loyal' }, { customerId }));
    expect(await groupRevision('consumer')).toBe(before + 2);
    expect(await groupEvents()).toHaveLength(eventsBefore + 2);
  });

  it('refuses a group that is not native and a malformed field or value, changing nothing', async () => {
    const customerId = await newCustomer('group-field-refused@example.test');
    const groupsBefore = await listCustomerGroups(database.db, tenantId);
    const eventsBefore = (await groupEvents()).length;

    const malformed: Record<string, unknown>[] = [
      { field: 'x', value: Number.NaN },
      { field: 'x', value: { at: new Date(0) } },
      { field: 'x', value: () => 1 },
      { field: 'x' },
      { field: '', value: 1 },
      { field: 'x'.repeat(101), value: 1 },
      { value: 1 },
    ];
    for (const config of malformed) {
      const refused = await run(action, config, { customerId });
      expect(refused, JSON.stringify(config)).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' });
    }

    // A group outside the two native ones (arbitrary customer groups are unsupported).
    const imported = await newCustomer('group-field-imported@example.test');
    await database.db.execute(
      sql`update customers set customer_group = 'wholesale' where tenant_id = ${tenantId} and id = ${imported}`,
    );
    const unknown = await run(action, { field: 'x', value: 1 }, { customerId: imported });
    expect(unknown).toMatchObject({ ok: false, code: 'UNSUPPORTED_ACTION' });
    if (!unknown.ok) expect(unknown.detail).toContain('wholesale');

    const guestOrder = await insertTestOrder(services, tenantId, { customerId: null });
    expect(await run(action, { field: 'x', value: 1 }, { orderId: guestOrder.id })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });

    expect(await listCustomerGroups(database.db, tenantId)).toEqual(groupsBefore);
    expect(await groupEvents()).toHaveLength(eventsBefore);
  });
});

describe('customer group and status', () => {
  async function loggedIn(customerId: string) {
    const opened = await database.transaction((tx) =>
      openStoreContext(tx, services, { tenantId, channelId }, { customerId }),
    );
    return opened.token;
  }
  const contextOf = (token: string) => findStoreContextByTokenHash(database.db, tenantId, hashToken(token));

  it('changes the group and revokes the customer’s sessions', async () => {
    const customerId = await newCustomer('group@example.test', { company: 'Engines Ltd' });
    const token = await loggedIn(customerId);
    const changed = successOf(
      await run('action.change.customer.group', { groupId: 'business' }, { customerId }),
    );
    expect(changed).toEqual({ customerId, group: 'business' });
    expect((await findCustomer(database.db, tenantId, customerId))?.group).toBe('business');
    expect((await contextOf(token))?.revokedAt).not.toBeNull();
    const events = (await eventsNamed('customer.group_changed')).map((event) => event.payload);
    expect(events).toContainEqual({ customerId, from: 'consumer', to: 'business' });
    const same = successOf(
      await run('action.change.customer.group', { groupId: 'business' }, { customerId }),
    );
    expect(same).toEqual({ customerId, group: 'business', unchanged: true });
  });

  it('keeps customers.update’s guards: a business customer needs a company', async () => {
    const customerId = await newCustomer('no-company@example.test');
    const refused = await run('action.change.customer.group', { groupId: 'business' }, { customerId });
    expect(refused).toMatchObject({ ok: false, code: 'VALIDATION_FAILED' });
  });

  it('deactivates a customer and revokes their sessions', async () => {
    const customerId = await newCustomer('status@example.test');
    const token = await loggedIn(customerId);
    const order = await insertTestOrder(services, tenantId, { customerId });
    const result = successOf(
      await run('action.change.customer.status', { active: false }, { orderId: order.id }),
    );
    expect(result).toEqual({ customerId, active: false });
    expect((await findCustomer(database.db, tenantId, customerId))?.active).toBe(false);
    expect((await contextOf(token))?.revokedAt).not.toBeNull();
    const events = (await eventsNamed('customer.status_changed')).map((event) => event.payload);
    expect(events).toContainEqual({ customerId, active: false });
  });
});

describe('order state', () => {
  it('moves a machine with the real transition event and activity', async () => {
    const order = await insertTestOrder(services, tenantId);
    const moved = successOf(
      await run('action.set.order.state', { kind: 'delivery', state: 'shipped' }, { orderId: order.id }),
    );
    expect(moved).toEqual({ machine: 'delivery', from: 'open', to: 'shipped' });
    expect((await findOrder(database.db, tenantId, order.id))?.deliveryState).toBe('shipped');
    const events = (await eventsNamed('order_delivery.shipped')).filter(
      (event) => event.payload.orderId === order.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.actor).toMatchObject({ kind: 'flow' });
    const activities = await listOrderActivities(database.db, tenantId, order.id);
    expect(activities.find((row) => row.kind === 'transition')?.data).toMatchObject({
      machine: 'delivery',
      to: 'shipped',
      source: 'flow',
    });
  });

  it('answers unchanged when the order is already in the target state', async () => {
    const order = await insertTestOrder(services, tenantId);
    const same = successOf(
      await run('action.set.order.state', { kind: 'order', state: 'open' }, { orderId: order.id }),
    );
    expect(same).toEqual({ machine: 'order', state: 'open', unchanged: true });
    expect((await findOrder(database.db, tenantId, order.id))?.revision).toBe(order.revision);
  });

  it('fails with the transition’s code when a guard refuses', async () => {
    const order = await insertTestOrder(services, tenantId);
    const paid = await run(
      'action.set.order.state',
      { kind: 'payment', state: 'paid' },
      { orderId: order.id },
    );
    expect(paid).toMatchObject({
      ok: false,
      code: 'TRANSITION_REFUSED',
      extensions: { reason: 'PAYMENT_GUARD', machine: 'payment' },
    });
    const notAllowed = await run(
      'action.set.order.state',
      { kind: 'order', state: 'completed' },
      { orderId: order.id },
    );
    expect(notAllowed).toMatchObject({
      ok: false,
      code: 'TRANSITION_REFUSED',
      extensions: { reason: 'TRANSITION_NOT_ALLOWED' },
    });
    expect((await findOrder(database.db, tenantId, order.id))?.paymentState).toBe('open');
  });
});

describe('documents', () => {
  it('generates a document once per step key', async () => {
    successOf(await call(saveCompany, { revision: 0, data: { name: 'Musterfirma GmbH', country: 'DE' } }));
    const order = await insertTestOrder(services, tenantId);
    const jobId = services.ids.next();
    const first = successOf(
      await run(
        'action.generate.document',
        { kind: 'invoice' },
        { orderId: order.id },
        { jobId, nodeId: 'doc' },
      ),
    ) as { documentId: string; number: number; type: string };
    expect(first).toMatchObject({ type: 'invoice', number: expect.any(Number) });
    const replay = successOf(
      await run(
        'action.generate.document',
        { kind: 'invoice' },
        { orderId: order.id },
        { jobId, nodeId: 'doc' },
      ),
    );
    expect(replay).toEqual(first);
    expect((await listOrderDocuments(database.db, tenantId, order.id)).map((row) => row.id)).toEqual([
      first.documentId,
    ]);
    const other = successOf(
      await run(
        'action.generate.document',
        { kind: 'delivery_note' },
        { orderId: order.id },
        { nodeId: 'doc' },
      ),
    ) as { documentId: string };
    expect(other.documentId).not.toBe(first.documentId);
    expect(await listOrderDocuments(database.db, tenantId, order.id)).toHaveLength(2);
  });
});

describe('download access', () => {
  it('grants and revokes the entitlements of the ordered products', async () => {
    const productId = services.ids.next();
    successOf(
      await call(createCatalogProduct, {
        id: productId,
        sku: 'FLOW-DL-1',
        translations: { en: { name: 'Flow download' } },
      }),
    );
    successOf(
      await call(createProductAsset, {
        productId,
        fileName: 'book.epub',
        contentType: 'application/epub+zip',
        contentBase64: randomBytes(300).toString('base64'),
      }),
    );
    const customerId = await newCustomer('downloads@example.test');
    const order = await insertTestOrder(services, tenantId, {
      customerId,
      productIds: [productId, services.ids.next()],
    });
    const granted = successOf(
      await run('action.grant.download.access', { value: true }, { orderId: order.id }),
    );
    expect(granted).toEqual({ value: true, granted: 1, entitlements: 1 });
    const [entitlement] = await listOrderEntitlements(database.db, tenantId, order.id);
    expect(entitlement).toMatchObject({ customerId, revokedAt: null });
    const revoked = successOf(
      await run('action.grant.download.access', { value: false }, { orderId: order.id }),
    );
    expect(revoked).toEqual({ value: false, granted: 0, entitlements: 1 });
    expect((await listOrderEntitlements(database.db, tenantId, order.id))[0]?.revokedAt).not.toBeNull();
  });
});

describe('notes and proposals', () => {
  it('writes a note in the order’s language, once per step key', async () => {
    const order = await insertTestOrder(services, tenantId, { language: 'de' });
    const jobId = services.ids.next();
    const text = { en: 'Order placed.', de: 'Bestellung eingegangen.' };
    const first = successOf(await run('note', { text }, { orderId: order.id }, { jobId })) as {
      noteId: string;
    };
    const replay = successOf(await run('note', { text }, { orderId: order.id }, { jobId }));
    expect(replay).toEqual(first);
    const notes = (await listOrderActivities(database.db, tenantId, order.id)).filter(
      (row) => row.kind === 'note',
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      id: first.noteId,
      text: 'Bestellung eingegangen.',
      author: { kind: 'flow' },
    });
    const events = (await eventsNamed('order.note_added')).map((event) => event.payload);
    expect(events).toContainEqual({ orderId: order.id, activityId: first.noteId });
  });

  it('falls back to the shop’s main language, then English', async () => {
    const order = await insertTestOrder(services, tenantId, { language: 'fr' });
    const written = successOf(
      await run('note', { text: { de: 'Hallo', en: 'Hello' } }, { orderId: order.id }),
    ) as { noteId: string };
    const plain = successOf(await run('note', { text: 'Plain text' }, { orderId: order.id })) as {
      noteId: string;
    };
    const activities = await listOrderActivities(database.db, tenantId, order.id);
    expect(activities.find((row) => row.id === written.noteId)?.text).toBe('Hello');
    expect(activities.find((row) => row.id === plain.noteId)?.text).toBe('Plain text');
  });

  it('stores an AI proposal for review once per step, without calling a model', async () => {
    const order = await insertTestOrder(services, tenantId);
    const jobId = services.ids.next();
    // The older config: a plan with the instruction as its summary and no operations.
    const config = { instruction: 'Suggest a thank-you coupon for this customer.' };
    const proposal = successOf(await run('ai_proposal', config, { orderId: order.id }, { jobId })) as {
      proposalId: string;
      status: string;
    };
    expect(proposal.status).toBe('pending');
    expect(successOf(await run('ai_proposal', config, { orderId: order.id }, { jobId }))).toEqual(proposal);
    const stored = await findProposal(database.db, tenantId, proposal.proposalId);
    expect(stored).toMatchObject({
      status: 'pending',
      summary: config.instruction,
      operations: [],
      sourceKey: `flow:${jobId}:n1`,
      subject: { orderId: order.id },
      createdBy: { kind: 'flow', jobId, nodeId: 'n1' },
    });
    const entries = (await listOrderActivities(database.db, tenantId, order.id)).filter(
      (row) => row.kind === 'proposal',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      text: config.instruction,
      data: { proposalId: proposal.proposalId, operations: 0 },
    });
  });

  it('refuses a proposal whose plan names a rule revision that is not current', async () => {
    const config = {
      summary: 'Change a rule',
      operations: [
        {
          kind: 'automation.save_rule',
          ruleId: services.ids.next(),
          revision: 4,
          data: { name: { en: 'R' }, condition: { type: 'alwaysValid' } },
        },
      ],
    };
    const result = await run('ai_proposal', config, {});
    expect(result).toMatchObject({ ok: false, code: 'PROPOSAL_STALE' });
  });
});

describe('app-backed and control actions', () => {
  it('fail with APP_NOT_INSTALLED for mail and app actions', async () => {
    const order = await insertTestOrder(services, tenantId);
    const mail = await run('action.mail.send', { templateId: 'order_confirmation' }, { orderId: order.id });
    expect(mail).toMatchObject({ ok: false, code: 'APP_NOT_INSTALLED' });
    if (!mail.ok) expect(mail.detail).toContain('Email Delivery app');
    const app = await run('app_action', { appId: 'erp', action: 'sync' }, { orderId: order.id });
    expect(app).toMatchObject({ ok: false, code: 'APP_NOT_INSTALLED' });
  });

  it('stop answers stopped', async () => {
    expect(successOf(await run('action.stop.flow', {}, {}))).toEqual({ stopped: true });
  });
});

describe('the staff operations the actions share', () => {
  it('orders.update stays revision-bound and de-duplicates tags; orders.notes.add writes a note', async () => {
    const order = await insertTestOrder(services, tenantId);
    const stale = await call(updateShopOrder, {
      orderId: order.id,
      revision: order.revision + 1,
      tags: ['a'],
    });
    expect(stale).toMatchObject({
      ok: false,
      code: 'STALE_REVISION',
      extensions: { expected: order.revision + 1, actual: order.revision },
    });
    const updated = successOf(
      await call(updateShopOrder, { orderId: order.id, revision: order.revision, tags: ['a', 'a', 'b'] }),
    );
    expect(updated).toMatchObject({ tags: ['a', 'b'], revision: order.revision + 1 });
    const note = successOf(await call(addOrderNote, { orderId: order.id, text: ' Called the customer. ' }));
    expect(note).toMatchObject({ kind: 'note', text: 'Called the customer.', author: { kind: 'token' } });
    const missing = await call(addOrderNote, { orderId: services.ids.next(), text: 'x' });
    expect(missing).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});
