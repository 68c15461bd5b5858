import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;

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
  for (const shop of [h.shopA, h.shopB]) {
    const saved = await h.call('PUT', '/api/basis/countries/DE', {
      token: shop.token,
      body: {
        revision: 0,
        translations: { en: { name: 'Germany' } },
        subdivisions: [{ code: 'DE-BY', translations: {} }],
      },
    });
    if (saved.status !== 200) throw new Error(JSON.stringify(saved.body));
  }
});
afterAll(async () => h?.close());

const as = (token: string) => ({
  get: (path: string) => h.call('GET', path, { token }),
  post: (path: string, body: unknown) => h.call('POST', path, { token, body }),
  put: (path: string, body: unknown) => h.call('PUT', path, { token, body }),
  patch: (path: string, body: unknown) => h.call('PATCH', path, { token, body }),
  del: (path: string, body?: unknown) => h.call('DELETE', path, { token, body }),
});

function pointers(body: Record<string, unknown>): string[] {
  return ((body.errors ?? []) as { pointer: string }[]).map((error) => error.pointer);
}

describe('admin customers over HTTP', () => {
  it('creates, reads, lists and filters customers without ever showing the password hash', async () => {
    const a = as(h.shopA.token);
    const shown: unknown[] = [];
    const created = await a.post('/api/customers', {
      email: 'list-ada@example.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      password: 'analytical-engine',
      tags: ['vip'],
      addresses: [{ address: { ...address, subdivision: 'DE-BY' } }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ createdByAdmin: true, hasPassword: true, revision: 1 });
    const business = await a.post('/api/customers', {
      email: 'list-bob@example.test',
      firstName: 'Bob',
      lastName: 'Builder',
      group: 'business',
      company: 'Bob & Co',
      active: false,
    });
    const guest = await a.post('/api/customers', {
      email: 'list-ada@example.test',
      firstName: 'Ada',
      lastName: 'Guest',
      guest: true,
    });
    expect([business.status, guest.status]).toEqual([201, 201]);
    shown.push(created.body, business.body, guest.body);

    const detail = await a.get(`/api/customers/${created.body.id}`);
    expect(detail.body).toMatchObject({
      email: 'list-ada@example.test',
      addresses: [{ address: { country: 'DE', subdivision: 'DE-BY' } }],
      history: { orderCount: 0, totalSpent: {}, lastOrderAt: null, reviewCount: 0 },
    });
    shown.push(detail.body);

    const ids = (response: { body: Record<string, unknown> }) =>
      (response.body.items as { id: string }[]).map((item) => item.id);
    const bySearch = await a.get('/api/customers?search=LIST-ADA');
    expect(ids(bySearch)).toEqual([created.body.id, guest.body.id]);
    expect(ids(await a.get('/api/customers?search=builder'))).toEqual([business.body.id]);
    expect(ids(await a.get('/api/customers?search=list-&group=business'))).toEqual([business.body.id]);
    expect(ids(await a.get('/api/customers?search=list-&active=false'))).toEqual([business.body.id]);
    expect(ids(await a.get('/api/customers?search=list-&guest=true'))).toEqual([guest.body.id]);
    expect(ids(await a.get('/api/customers?tag=vip'))).toEqual([created.body.id]);
    expect(ids(await a.get('/api/customers?search=50%25'))).toEqual([]);

    const first = await a.get('/api/customers?search=list-&limit=2');
    expect(ids(first)).toEqual([created.body.id, business.body.id]);
    expect(first.body.next).toBe(business.body.id);
    const second = await a.get(`/api/customers?search=list-&limit=2&after=${first.body.next}`);
    expect(ids(second)).toEqual([guest.body.id]);
    expect(second.body.next).toBeNull();
    shown.push(first.body, second.body);

    const updated = await a.patch(`/api/customers/${created.body.id}`, {
      revision: 1,
      password: 'new-password',
    });
    shown.push(updated.body);
    for (const body of shown) expect(JSON.stringify(body)).not.toMatch(/passwordHash|scrypt\$/);
  });

  it('answers problems with pointers, EMAIL_TAKEN and STALE_REVISION', async () => {
    const a = as(h.shopA.token);
    const invalid = await a.post('/api/customers', {
      email: 'not-an-email',
      firstName: '',
      lastName: 'X',
      birthday: '1990-13-01',
      addresses: [{ address: { ...address, zipcode: '' } }],
    });
    expect(invalid.status).toBe(422);
    expect(invalid.type).toContain('application/problem+json');
    expect(pointers(invalid.body).sort()).toEqual([
      '/addresses/0/address/zipcode',
      '/birthday',
      '/email',
      '/firstName',
    ]);

    const country = await a.post('/api/customers', {
      email: 'country@example.test',
      firstName: 'C',
      lastName: 'D',
      addresses: [{ address: { ...address, country: 'AT' } }],
    });
    expect(country.status).toBe(422);
    expect(pointers(country.body)).toEqual(['/addresses/0/address/country']);

    await a.post('/api/customers', { email: 'taken@example.test', firstName: 'T', lastName: 'U' });
    const taken = await a.post('/api/customers', {
      email: 'TAKEN@example.test',
      firstName: 'T',
      lastName: 'U',
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'EMAIL_TAKEN', title: 'Email already registered' });

    const created = await a.post('/api/customers', {
      email: 'stale@example.test',
      firstName: 'S',
      lastName: 'T',
    });
    await a.patch(`/api/customers/${created.body.id}`, { revision: 1, newsletter: true });
    const stale = await a.patch(`/api/customers/${created.body.id}`, { revision: 1, newsletter: false });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_REVISION', expected: 1, actual: 2 });
  });

  it('saves and deletes addresses, keeping defaults consistent', async () => {
    const a = as(h.shopA.token);
    const created = await a.post('/api/customers', {
      email: 'addresses@example.test',
      firstName: 'A',
      lastName: 'B',
    });
    const id = created.body.id as string;
    const home = '0190f0c8-0000-7000-8000-00000000a101';
    const office = '0190f0c8-0000-7000-8000-00000000a102';
    const first = await a.put(`/api/customers/${id}/addresses/${home}`, { address });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      defaultBillingAddressId: home,
      defaultShippingAddressId: home,
      revision: 2,
    });
    const second = await a.put(`/api/customers/${id}/addresses/${office}`, {
      address: { ...address, city: 'Nuremberg' },
      defaultShipping: true,
    });
    expect(second.body).toMatchObject({ defaultBillingAddressId: home, defaultShippingAddressId: office });
    const replaced = await a.put(`/api/customers/${id}/addresses/${office}`, {
      address: { ...address, city: 'Augsburg' },
    });
    expect(
      (replaced.body.addresses as { address: { city: string } }[]).map((item) => item.address.city),
    ).toEqual(['Munich', 'Augsburg']);
    const badSubdivision = await a.put(`/api/customers/${id}/addresses/${office}`, {
      address: { ...address, subdivision: 'DE-BE' },
    });
    expect(badSubdivision.status).toBe(422);
    expect(pointers(badSubdivision.body)).toEqual(['/address/subdivision']);

    const refused = await a.del(`/api/customers/${id}/addresses/${office}`);
    expect(refused.status).toBe(409);
    const moved = await a.patch(`/api/customers/${id}`, {
      revision: replaced.body.revision,
      defaultShippingAddressId: home,
    });
    expect(moved.status).toBe(200);
    const deleted = await a.del(`/api/customers/${id}/addresses/${office}`);
    expect(deleted.status).toBe(200);
    expect((deleted.body.addresses as { id: string }[]).map((item) => item.id)).toEqual([home]);
  });

  it('answers 404 to another shop naming this shop’s customer, and changes nothing', async () => {
    const a = as(h.shopA.token);
    const b = as(h.shopB.token);
    const created = await a.post('/api/customers', {
      email: 'private@example.test',
      firstName: 'P',
      lastName: 'R',
      addresses: [{ address }],
    });
    const id = created.body.id as string;
    const addressId = (created.body.addresses as { id: string }[])[0]!.id;
    const attempts = [
      await b.get(`/api/customers/${id}`),
      await b.patch(`/api/customers/${id}`, { revision: 1, firstName: 'Mallory' }),
      await b.del(`/api/customers/${id}`, { revision: 1 }),
      await b.put(`/api/customers/${id}/addresses/${addressId}`, { address }),
      await b.del(`/api/customers/${id}/addresses/${addressId}`),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(404);
      expect(JSON.stringify(attempt.body)).not.toContain('private@example.test');
    }
    expect(((await b.get('/api/customers?search=private')).body.items as unknown[]).length).toBe(0);
    const after = await a.get(`/api/customers/${id}`);
    expect(after.body).toMatchObject({ firstName: 'P', revision: 1, addresses: [{ id: addressId }] });
  });
});
