import { findStoreContextByTokenHash, listChannels } from '@cartwright/repository';
import { hashToken } from '@cartwright/service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let keyA: string;
let keyB: string;
let channelA: string;

const address = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: 'Main Street 1',
  zipcode: '80331',
  city: 'Munich',
  country: 'DE',
};

beforeAll(async () => {
  h = await createHarness();
  const [mainA] = await listChannels(h.database.db, h.shopA.tenantId);
  const [mainB] = await listChannels(h.database.db, h.shopB.tenantId);
  keyA = mainA!.accessKey;
  keyB = mainB!.accessKey;
  channelA = mainA!.id;
  const saved = await h.call('PUT', '/api/basis/countries/DE', {
    token: h.shopA.token,
    body: { revision: 0, translations: { en: { name: 'Germany' } } },
  });
  if (saved.status !== 200) throw new Error(JSON.stringify(saved.body));
});
afterAll(async () => h?.close());

/** Calls a storefront route with a channel key and, when given, the visitor's context token. */
function store(
  method: string,
  path: string,
  options: { key?: string; context?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = { 'x-channel-key': options.key ?? keyA };
  if (options.context) headers['x-context-token'] = options.context;
  return h.call(method, path, { headers, body: options.body });
}

async function contextIdOf(token: string): Promise<string> {
  const context = await findStoreContextByTokenHash(h.database.db, h.shopA.tenantId, hashToken(token));
  if (!context) throw new Error('no such context');
  return context.id;
}

describe('the storefront account', () => {
  it('registers, logs in, shows the account, and after logout answers 401', async () => {
    const registered = await store('POST', '/store-api/account/register', {
      body: {
        email: 'shopper@example.test',
        password: 'correct horse',
        firstName: 'Sam',
        lastName: 'Shopper',
        billingAddress: address,
      },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.customer).toMatchObject({
      email: 'shopper@example.test',
      group: 'consumer',
      guest: false,
      addresses: [{ address: { city: 'Munich' } }],
    });
    expect(JSON.stringify(registered.body)).not.toMatch(/passwordHash|scrypt\$|tags|createdByAdmin/);

    const login = await store('POST', '/store-api/account/login', {
      body: { email: 'SHOPPER@example.test', password: 'correct horse' },
    });
    expect(login.status).toBe(200);
    const token = login.body.contextToken as string;
    expect(token).not.toBe(registered.body.contextToken);

    const account = await store('GET', '/store-api/account', { context: token });
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ email: 'shopper@example.test', firstName: 'Sam' });
    const context = await store('GET', '/store-api/context', { context: token });
    expect(context.body).toEqual({
      channelId: channelA,
      customer: {
        id: account.body.id,
        email: 'shopper@example.test',
        firstName: 'Sam',
        lastName: 'Shopper',
        group: 'consumer',
      },
      language: 'en',
      currency: 'EUR',
    });

    const logout = await store('POST', '/store-api/account/logout', { context: token });
    expect(logout.status).toBe(200);
    const after = await store('GET', '/store-api/account', { context: token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('UNAUTHENTICATED');
    expect((await store('GET', '/store-api/context', { context: token })).status).toBe(401);
  });

  it('moves the anonymous cart to the logged-in context and retires the anonymous token', async () => {
    await store('POST', '/store-api/account/register', {
      body: { email: 'cart@example.test', password: 'correct horse', firstName: 'C', lastName: 'Art' },
    });
    const anonymous = await store('POST', '/store-api/context');
    expect(anonymous.status).toBe(201);
    const anonymousToken = anonymous.body.contextToken as string;
    const anonymousView = await store('GET', '/store-api/context', { context: anonymousToken });
    expect(anonymousView.body).toMatchObject({ customer: null, language: 'en', currency: 'EUR' });
    const cartId = '0190f0c8-0000-7000-8000-00000000ca01';
    await h.database.db.execute(sql`
      insert into carts (tenant_id, id, context_id, channel_id, currency, language)
      values (${h.shopA.tenantId}, ${cartId}, ${await contextIdOf(anonymousToken)}, ${channelA}, 'EUR', 'en')`);

    const login = await store('POST', '/store-api/account/login', {
      context: anonymousToken,
      body: { email: 'cart@example.test', password: 'correct horse' },
    });
    expect(login.status).toBe(200);
    const loggedIn = login.body.contextToken as string;
    const [cart] = await h.database.rows<{ context_id: string; customer_id: string; status: string }>(
      sql`select context_id, customer_id, status from carts where tenant_id = ${h.shopA.tenantId} and id = ${cartId}`,
    );
    expect(cart).toEqual({
      context_id: await contextIdOf(loggedIn),
      customer_id: (login.body.customer as { id: string }).id,
      status: 'open',
    });
    expect((await store('GET', '/store-api/context', { context: anonymousToken })).status).toBe(401);

    const [customer] = await h.database.rows<{ first_login_at: unknown; last_login_at: unknown }>(
      sql`select first_login_at, last_login_at from customers where tenant_id = ${h.shopA.tenantId}
          and email = 'cart@example.test'`,
    );
    expect(customer?.first_login_at).not.toBeNull();
    expect(customer?.last_login_at).not.toBeNull();
  });

  it('lets guests register repeatedly but a registered email only once', async () => {
    const guest = { email: 'guest@example.test', guest: true, firstName: 'G', lastName: 'Uest' };
    expect((await store('POST', '/store-api/account/register', { body: guest })).status).toBe(201);
    expect((await store('POST', '/store-api/account/register', { body: guest })).status).toBe(201);
    const guestLogin = await store('POST', '/store-api/account/login', {
      body: { email: 'guest@example.test', password: 'anything-at-all' },
    });
    expect(guestLogin.status).toBe(401);

    const body = { email: 'once@example.test', password: 'correct horse', firstName: 'O', lastName: 'Nce' };
    expect((await store('POST', '/store-api/account/register', { body })).status).toBe(201);
    const again = await store('POST', '/store-api/account/register', {
      body: { ...body, email: 'ONCE@example.test' },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('EMAIL_TAKEN');
  });

  it('points at invalid registration fields', async () => {
    const invalid = await store('POST', '/store-api/account/register', {
      body: { email: 'nope', password: 'short', firstName: 'X', lastName: '' },
    });
    expect(invalid.status).toBe(422);
    expect(
      ((invalid.body.errors as { pointer: string }[]) ?? []).map((error) => error.pointer).sort(),
    ).toEqual(['/email', '/lastName', '/password']);
    const noPassword = await store('POST', '/store-api/account/register', {
      body: { email: 'pw@example.test', firstName: 'P', lastName: 'W' },
    });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body.errors).toEqual([{ pointer: '/password', message: 'required' }]);
    const country = await store('POST', '/store-api/account/register', {
      body: {
        email: 'fr@example.test',
        password: 'correct horse',
        firstName: 'F',
        lastName: 'R',
        shippingAddress: { ...address, country: 'FR' },
      },
    });
    expect(country.status).toBe(422);
    expect((country.body.errors as { pointer: string }[]).map((error) => error.pointer)).toEqual([
      '/shippingAddress/country',
    ]);
  });

  it('answers 401 without a valid context, and to another shop’s channel carrying this shop’s token', async () => {
    expect((await store('GET', '/store-api/context')).status).toBe(401);
    expect((await store('GET', '/store-api/account', { context: 'made-up' })).status).toBe(401);
    expect((await store('POST', '/store-api/account/logout')).status).toBe(401);
    const login = await store('POST', '/store-api/account/register', {
      body: { email: 'crossing@example.test', password: 'correct horse', firstName: 'X', lastName: 'Ing' },
    });
    const token = login.body.contextToken as string;
    for (const path of ['/store-api/context', '/store-api/account']) {
      const foreign = await store('GET', path, { key: keyB, context: token });
      expect(foreign.status).toBe(401);
    }
    expect((await store('POST', '/store-api/account/logout', { key: keyB, context: token })).status).toBe(
      401,
    );
    expect((await store('GET', '/store-api/account', { context: token })).status).toBe(200);
    const wrongShop = await store('POST', '/store-api/account/login', {
      key: keyB,
      body: { email: 'crossing@example.test', password: 'correct horse' },
    });
    expect(wrongShop.status).toBe(401);
    const noKey = await h.call('POST', '/store-api/context', { headers: { 'x-channel-key': 'cwk_nope' } });
    expect(noKey.status).toBe(401);
  });
});
