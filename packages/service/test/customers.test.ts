import {
  type Database,
  findCustomer,
  findCustomerHistory,
  listChannels,
  listEvents,
  saveBasis,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoreContext, resolveStoreContext } from '../src/customers/contexts.ts';
import { hashPassword, verifyPassword } from '../src/customers/passwords.ts';
import {
  type CreatedShop,
  consumeOnce,
  createServices,
  createShop,
  customerHistoryProjection,
  invokeOperation,
  invokeStoreOperation,
  type Principal,
  type Result,
  recordEvent,
  type Services,
  type Storefront,
} from '../src/index.ts';
import { operationNamed, principalOf, successOf, testActor } from './principals.ts';

let database: Database;
let services: Services;
let now = new Date('2025-06-01T12:00:00.000Z');
let shop: CreatedShop;
let owner: Principal;
let storefront: Storefront;

const address = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: 'Main Street 1',
  zipcode: '80331',
  city: 'Munich',
  country: 'DE',
};

async function saveCountry(tenantId: string, code: string, subdivisions: string[] = []) {
  await database.transaction((tx) =>
    saveBasis(
      tx,
      'countries',
      tenantId,
      code,
      0,
      {
        code,
        translations: { en: { name: code } },
        subdivisions: subdivisions.map((subdivision) => ({
          code: subdivision,
          translations: { en: { name: subdivision } },
        })),
        active: true,
      },
      now,
    ),
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database, { clock: { now: () => now } });
  shop = await createShop(services, { name: 'Customers', ownerEmail: 'owner@customers.test' });
  owner = await principalOf(services, shop.token);
  const [main] = await listChannels(database.db, shop.tenantId);
  storefront = { tenantId: shop.tenantId, channelId: main!.id, contextToken: undefined };
  await saveCountry(shop.tenantId, 'DE', ['DE-BY', 'DE-BE']);
});
afterAll(async () => database?.close());

function call(name: string, input: Record<string, unknown>): Promise<Result<unknown>> {
  return invokeOperation(services, operationNamed(name), owner, input);
}

function storeCall(name: string, contextToken: string | undefined, input: Record<string, unknown> = {}) {
  const operation = operationNamed(name);
  if (operation.audience !== 'store') throw new Error(`${name} is not a storefront operation`);
  return invokeStoreOperation(services, operation, { ...storefront, contextToken }, input);
}

interface CustomerOut {
  id: string;
  revision: number;
  email: string;
  group: string;
  active: boolean;
  tags: string[];
  hasPassword: boolean;
  createdByAdmin: boolean;
  defaultBillingAddressId: string | null;
  defaultShippingAddressId: string | null;
  addresses: { id: string; address: { country: string } }[];
  history: {
    orderCount: number;
    totalSpent: Record<string, number>;
    lastOrderAt: string | null;
    reviewCount: number;
  };
}

async function createCustomer(input: Record<string, unknown>): Promise<CustomerOut> {
  return successOf(
    await call('customers.create', { firstName: 'Ada', lastName: 'Lovelace', ...input }),
  ) as CustomerOut;
}

function failureOf(result: Result<unknown>) {
  if (result.ok) throw new Error('expected a failure');
  return result;
}

function pointersOf(result: Result<unknown>): string[] {
  return (failureOf(result).errors ?? []).map((error) => error.pointer);
}

async function eventsNamed(name: string) {
  return listEvents(database.db, shop.tenantId, { name, limit: 1000 });
}

describe('passwords', () => {
  it('hashes with scrypt in the stored format, salted anew each time', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('correct horse', first)).toBe(true);
    expect(await verifyPassword('correct horse', second)).toBe(true);
    expect(await verifyPassword('correct hors', first)).toBe(false);
  });

  it('answers false for a missing or malformed hash', async () => {
    for (const stored of [null, undefined, '', 'scrypt$1$2', 'plain-text-password']) {
      expect(await verifyPassword('plain-text-password', stored)).toBe(false);
    }
  });
});

describe('customers.create', () => {
  it('creates a customer with a hashed password, cleaned tags and default addresses', async () => {
    const created = await createCustomer({
      email: 'ada@example.test',
      password: 'analytical-engine',
      tags: [' vip ', 'vip', 'newsletter'],
      addresses: [
        { address },
        { address: { ...address, city: 'Berlin', subdivision: 'DE-BE' }, defaultShipping: true },
      ],
    });
    expect(created).toMatchObject({
      email: 'ada@example.test',
      group: 'consumer',
      tags: ['vip', 'newsletter'],
      hasPassword: true,
      createdByAdmin: true,
      revision: 1,
      history: { orderCount: 0, totalSpent: {}, lastOrderAt: null, reviewCount: 0 },
    });
    expect(created.defaultBillingAddressId).toBe(created.addresses[0]!.id);
    expect(created.defaultShippingAddressId).toBe(created.addresses[1]!.id);
    expect(JSON.stringify(created)).not.toMatch(/passwordHash|scrypt\$/);
    const row = await findCustomer(database.db, shop.tenantId, created.id);
    expect(await verifyPassword('analytical-engine', row!.passwordHash)).toBe(true);
    expect(await eventsNamed('customer.created')).toContainEqual(
      expect.objectContaining({
        payload: expect.objectContaining({ customerId: created.id, createdByAdmin: true }),
      }),
    );
  });

  it('keeps emails unique among registered customers, case-insensitively; guests may repeat', async () => {
    await createCustomer({ email: 'Grace@Example.test', password: 'cobol-rules' });
    const taken = await call('customers.create', {
      email: 'grace@example.TEST',
      firstName: 'G',
      lastName: 'H',
    });
    expect(failureOf(taken).code).toBe('EMAIL_TAKEN');
    expect(pointersOf(taken)).toEqual(['/email']);
    const guestOne = await createCustomer({ email: 'grace@example.test', guest: true });
    const guestTwo = await createCustomer({ email: 'GRACE@example.test', guest: true });
    expect(guestTwo.id).not.toBe(guestOne.id);
    const other = await createCustomer({ email: 'grace2@example.test' });
    const renamed = await call('customers.update', {
      id: other.id,
      revision: 1,
      email: 'GRACE@EXAMPLE.TEST',
    });
    expect(failureOf(renamed).code).toBe('EMAIL_TAKEN');
  });

  it('lets exactly one of two concurrent registrations of an email through', async () => {
    const input = { email: 'race@example.test', firstName: 'R', lastName: 'Ace', password: 'long-enough' };
    const results = await Promise.all([call('customers.create', input), call('customers.create', input)]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok).map((result) => !result.ok && result.code)).toEqual([
      'EMAIL_TAKEN',
    ]);
  });

  it('validates the group, birthday, addresses and password with pointers', async () => {
    const business = await call('customers.create', {
      email: 'b@example.test',
      firstName: 'B',
      lastName: 'C',
      group: 'business',
    });
    expect(pointersOf(business)).toEqual(['/company']);
    const future = await call('customers.create', {
      email: 'f@example.test',
      firstName: 'F',
      lastName: 'G',
      birthday: '2025-06-02',
    });
    expect(pointersOf(future)).toEqual(['/birthday']);
    const notADay = await call('customers.create', {
      email: 'f@example.test',
      firstName: 'F',
      lastName: 'G',
      birthday: '2001-02-30',
    });
    expect(pointersOf(notADay)).toEqual(['/birthday']);
    const shortPassword = await call('customers.create', {
      email: 's@example.test',
      firstName: 'S',
      lastName: 'T',
      password: 'short',
    });
    expect(pointersOf(shortPassword)).toEqual(['/password']);
    const places = await call('customers.create', {
      email: 'p@example.test',
      firstName: 'P',
      lastName: 'Q',
      addresses: [
        { address: { ...address, country: 'FR' } },
        { address: { ...address, subdivision: 'DE-XX' } },
        { address },
      ],
    });
    expect(pointersOf(places)).toEqual(['/addresses/0/address/country', '/addresses/1/address/subdivision']);
    const listed = successOf(await call('customers.list', { search: 'p@example.test' })) as {
      items: unknown[];
    };
    expect(listed.items).toEqual([]);
  });

  it('says so when the shop has no countries set up', async () => {
    const bare = await createShop(services, { name: 'Bare' });
    const result = await invokeOperation(
      services,
      operationNamed('customers.create'),
      await principalOf(services, bare.token),
      { email: 'x@example.test', firstName: 'X', lastName: 'Y', addresses: [{ address }] },
    );
    const failure = failureOf(result);
    expect(failure.code).toBe('VALIDATION_FAILED');
    expect(failure.errors).toEqual([
      { pointer: '/addresses/0/address/country', message: expect.stringContaining('no countries set up') },
    ]);
  });
});

describe('customers.update and customers.delete', () => {
  it('binds an update to the stored revision and reports expected and actual', async () => {
    const created = await createCustomer({ email: 'rev@example.test' });
    const updated = successOf(
      await call('customers.update', { id: created.id, revision: 1, lastName: 'Byron' }),
    );
    expect(updated).toMatchObject({ lastName: 'Byron', revision: 2 });
    const stale = failureOf(
      await call('customers.update', { id: created.id, revision: 1, lastName: 'King' }),
    );
    expect(stale).toMatchObject({ code: 'STALE_REVISION', extensions: { expected: 1, actual: 2 } });
    expect((await findCustomer(database.db, shop.tenantId, created.id))?.lastName).toBe('Byron');
  });

  it('refuses to delete a customer that orders reference, and deletes one without', async () => {
    const ordered = await createCustomer({ email: 'ordered@example.test', addresses: [{ address }] });
    const orderId = '0190f0c8-0000-7000-8000-00000000d001';
    await database.db.execute(sql`
      insert into orders (tenant_id, id, number, channel_id, customer_id, currency, language, price, lines,
        customer, billing_address, shipping_address, shipping_method, payment_method, settings_snapshot, placed_at)
      values (${shop.tenantId}, ${orderId}, 1, ${storefront.channelId}, ${ordered.id}, 'EUR', 'en', '{}', '[]',
        '{}', '{}', '{}', '{}', '{}', '{}', now())`);
    const refused = failureOf(await call('customers.delete', { id: ordered.id, revision: 1 }));
    expect(refused).toMatchObject({
      code: 'REFERENCED',
      extensions: { references: [{ kind: 'order', id: orderId, number: 1 }] },
    });
    expect(await findCustomer(database.db, shop.tenantId, ordered.id)).toBeDefined();

    const loose = await createCustomer({ email: 'loose@example.test', addresses: [{ address }] });
    const stale = failureOf(await call('customers.delete', { id: loose.id, revision: 7 }));
    expect(stale).toMatchObject({ code: 'STALE_REVISION', extensions: { expected: 7, actual: 1 } });
    const opened = await database.transaction((tx) =>
      openStoreContext(tx, services, storefront, { customerId: loose.id }),
    );
    expect(successOf(await call('customers.delete', { id: loose.id, revision: 1 }))).toEqual({
      id: loose.id,
      deleted: true,
    });
    expect(failureOf(await call('customers.get', { id: loose.id })).code).toBe('NOT_FOUND');
    const visitor = { ...storefront, contextToken: opened.token };
    expect(await resolveStoreContext(database.db, services, visitor)).toBeNull();
    expect((await eventsNamed('customer.deleted')).map((event) => event.payload)).toContainEqual({
      customerId: loose.id,
    });
  });

  it('ends every session of the customer when the group changes', async () => {
    const created = await createCustomer({ email: 'session@example.test', password: 'long-enough' });
    const opened = await database.transaction((tx) =>
      openStoreContext(tx, services, storefront, { customerId: created.id }),
    );
    const visitor = { ...storefront, contextToken: opened.token };
    expect((await resolveStoreContext(database.db, services, visitor))?.id).toBe(opened.context.id);
    const changed = successOf(
      await call('customers.update', {
        id: created.id,
        revision: 1,
        group: 'business',
        company: 'Engines Ltd',
      }),
    );
    expect(changed).toMatchObject({ group: 'business', groupId: '01900000-0000-7000-8000-000000000002' });
    expect(await resolveStoreContext(database.db, services, visitor)).toBeNull();
    expect((await eventsNamed('customer.group_changed')).map((event) => event.payload)).toContainEqual({
      customerId: created.id,
      from: 'consumer',
      to: 'business',
    });
    expect((await eventsNamed('customer.updated')).map((event) => event.payload)).toContainEqual({
      customerId: created.id,
      revision: 2,
      changed: ['company', 'group'],
    });
  });

  it('ends every session when the customer is deactivated, and refuses their login', async () => {
    await createCustomer({ email: 'status@example.test', password: 'long-enough' });
    const login = successOf(
      await storeCall('store.account.login', undefined, {
        email: 'status@example.test',
        password: 'long-enough',
      }),
    ) as { contextToken: string; customer: { id: string } };
    const visitor = { ...storefront, contextToken: login.contextToken };
    expect(await resolveStoreContext(database.db, services, visitor)).not.toBeNull();
    const current = successOf(await call('customers.get', { id: login.customer.id })) as CustomerOut;
    successOf(
      await call('customers.update', { id: login.customer.id, revision: current.revision, active: false }),
    );
    expect(await resolveStoreContext(database.db, services, visitor)).toBeNull();
    expect((await eventsNamed('customer.status_changed')).map((event) => event.payload)).toContainEqual({
      customerId: login.customer.id,
      active: false,
    });
    const again = await storeCall('store.account.login', undefined, {
      email: 'status@example.test',
      password: 'long-enough',
    });
    expect(failureOf(again).code).toBe('UNAUTHENTICATED');
  });

  it('ends every session when staff set a new password; only the new one logs in', async () => {
    const created = await createCustomer({ email: 'reset@example.test', password: 'old-password' });
    const login = successOf(
      await storeCall('store.account.login', undefined, {
        email: 'reset@example.test',
        password: 'old-password',
      }),
    ) as { contextToken: string };
    const visitor = { ...storefront, contextToken: login.contextToken };
    successOf(await call('customers.update', { id: created.id, revision: 1, password: 'new-password' }));
    expect(await resolveStoreContext(database.db, services, visitor)).toBeNull();
    const old = await storeCall('store.account.login', undefined, {
      email: 'reset@example.test',
      password: 'old-password',
    });
    expect(failureOf(old).code).toBe('UNAUTHENTICATED');
    const fresh = await storeCall('store.account.login', undefined, {
      email: 'reset@example.test',
      password: 'new-password',
    });
    expect(fresh.ok).toBe(true);
  });
});

describe('store contexts', () => {
  it('resolve only in their own channel, while neither revoked nor expired', async () => {
    const opened = await database.transaction((tx) => openStoreContext(tx, services, storefront));
    expect(opened.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opened.context.tokenHash).not.toContain(opened.token);
    expect(opened.context.expiresAt.getTime() - now.getTime()).toBe(30 * 24 * 60 * 60 * 1000);
    expect(opened.context).toMatchObject({ language: 'en', currency: 'EUR', customerId: null });
    const visitor = { ...storefront, contextToken: opened.token };
    expect(await resolveStoreContext(database.db, services, visitor)).not.toBeNull();
    const elsewhere = { ...visitor, channelId: '0190f0c8-0000-7000-8000-00000000e001' };
    expect(await resolveStoreContext(database.db, services, elsewhere)).toBeNull();
    expect(await resolveStoreContext(database.db, services, { ...visitor, contextToken: 'x' })).toBeNull();

    const saved = now;
    now = new Date(saved.getTime() + 30 * 24 * 60 * 60 * 1000);
    try {
      expect(await resolveStoreContext(database.db, services, visitor)).toBeNull();
    } finally {
      now = saved;
    }
    successOf(await storeCall('store.account.logout', opened.token));
    expect(await resolveStoreContext(database.db, services, visitor)).toBeNull();
  });

  it('answers the same UNAUTHENTICATED for a wrong password, an unknown email and a guest', async () => {
    await createCustomer({ email: 'known@example.test', password: 'the-password' });
    await createCustomer({ email: 'guest@example.test', guest: true });
    const attempts = [
      { email: 'known@example.test', password: 'not-the-password' },
      { email: 'nobody@example.test', password: 'the-password' },
      { email: 'guest@example.test', password: 'the-password' },
    ];
    const answers = [];
    for (const attempt of attempts)
      answers.push(failureOf(await storeCall('store.account.login', undefined, attempt)));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]?.code).toBe('UNAUTHENTICATED');
  });

  it('records the first login once and the last login every time, without moving the revision', async () => {
    const created = await createCustomer({ email: 'logins@example.test', password: 'the-password' });
    const credentials = { email: 'LOGINS@example.test', password: 'the-password' };
    successOf(await storeCall('store.account.login', undefined, credentials));
    const first = now;
    now = new Date(first.getTime() + 60_000);
    try {
      successOf(await storeCall('store.account.login', undefined, credentials));
    } finally {
      now = first;
    }
    const row = await findCustomer(database.db, shop.tenantId, created.id);
    expect(row).toMatchObject({
      firstLoginAt: first,
      lastLoginAt: new Date(first.getTime() + 60_000),
      revision: 1,
    });
  });
});

describe('the customer-history projection', () => {
  const all = { owner: 'history-test', leaseMs: 30_000, batchSize: 100, maxBatches: 100 };

  async function drain() {
    let applied = 0;
    for (;;) {
      const report = await consumeOnce(services, customerHistoryProjection, all);
      if (!report.tenantId) return applied;
      applied += report.applied;
    }
  }

  it('counts orders, spending per currency, the last order and reviews, exactly once', async () => {
    const customer = await createCustomer({ email: 'history@example.test' });
    const order = (number: number, currency: string, totalGross: number, placedAt: string) => ({
      orderId: `0190f0c8-0000-7000-8000-0000000f000${number}`,
      number,
      customerId: customer.id,
      currency,
      totalGross,
      placedAt,
    });
    await database.transaction(async (tx) => {
      const emit = (name: string, payload: Record<string, unknown>) =>
        recordEvent(tx, services, shop.tenantId, testActor, name, payload);
      await emit('order.placed', order(1, 'EUR', 12_990, '2025-05-01T10:00:00.000Z'));
      await emit('order.placed', order(2, 'EUR', 1_010, '2025-05-20T10:00:00.000Z'));
      await emit('order.placed', order(3, 'USD', 500, '2025-05-10T10:00:00.000Z'));
      await emit('order.placed', { ...order(4, 'EUR', 99, '2025-05-30T10:00:00.000Z'), customerId: null });
      await emit('review.approved', { customerId: customer.id });
      await emit('customer.updated', { customerId: customer.id });
    });
    await drain();
    const expected = {
      orderCount: 3,
      totalSpent: { EUR: 14_000, USD: 500 },
      lastOrderAt: '2025-05-20T10:00:00.000Z',
      reviewCount: 1,
    };
    const detail = successOf(await call('customers.get', { id: customer.id })) as CustomerOut;
    expect(detail.history).toEqual(expected);

    await database.db.execute(sql`update outbox_cursors set position = 0 where tenant_id = ${shop.tenantId}
      and consumer = ${customerHistoryProjection.name}`);
    expect(await drain()).toBe(0);
    const replayed = await findCustomerHistory(database.db, shop.tenantId, customer.id);
    expect(replayed).toMatchObject({ orderCount: 3, totalSpent: { EUR: 14_000, USD: 500 }, reviewCount: 1 });
  });
});
