import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminSessionClient, adminSession, formFields } from './admin-session.ts';
import { createCustomersShop, storedCustomer } from './customers-fixture.ts';
import type { Harness } from './harness.ts';

// The admin's customers area without a browser (decision 0047; the walk is
// admin-customers.e2e.test.ts): the list with search and cursor pages, adding a customer
// (problems pinned to their fields, 422, entries kept, nothing changed), editing at a revision
// (an untouched save writes nothing, a stale one is 409), addresses added, refused, edited and
// removed, the customer's orders, deletion behind a confirmation box with the operation's
// refusal, no password or hash on any page, a reader's replayed posts refused (403) and another
// shop's session reaching nothing (404).

let h: Harness;
let owner: AdminSessionClient;
let readerSession: AdminSessionClient;
let buyerId: string;
let orderId: string;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

const stored = (id: string) => storedCustomer(h, id);

/**
 * What a browser would post from the customer form, from an address form and from any form, without
 * the page's CSRF token: each session posts its own (a reader's replay is then refused by the
 * operation, not by the token check).
 */
function fieldsOf(html: string, opening: string): Record<string, string> {
  const { csrf: _csrf, ...fields } = formFields(html, opening);
  return fields;
}
const customerForm = (html: string) => fieldsOf(html, 'class="customer-form"');
const addressForm = (html: string, addressId?: string) =>
  fieldsOf(html, addressId ? `data-address="${addressId}"` : 'class="address-form"');
/** The action of the page's first address form whose opening tag contains `opening`. */
function actionOf(html: string, opening: string): string {
  const tag = [...html.matchAll(/<form\b[^>]*>/g)]
    .map(([found]) => found)
    .find((found) => found.includes(opening));
  return /action="([^"]+)"/.exec(tag ?? '')![1]!;
}

/** The text of a field's pinned error, if any. */
function errorOf(html: string, id: string): string | undefined {
  return new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
}

async function createCustomer(fields: Record<string, unknown>): Promise<string> {
  const created = await staff('POST', '/api/customers', fields);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

beforeAll(async () => {
  ({ h, buyerId, orderId } = await createCustomersShop());
  owner = await adminSession(h, h.shopA.token, 'en');
  readerSession = await adminSession(h, await h.readerToken('reader@customers.test'), 'en');
});
afterAll(async () => h?.close());

describe('the customer list', () => {
  it('is in the navigation, searches by name and e-mail and pages 25 at a time', async () => {
    for (let index = 0; index < 26; index += 1) {
      await createCustomer({
        email: `bulk${index}@list.test`,
        firstName: 'Bulk',
        lastName: `Number ${index}`,
      });
    }
    const first = await owner.get('/admin/customers');
    expect(first.status).toBe(200);
    expect(first.html).toContain('href="/admin/customers"');
    expect(first.html.match(/<tr data-customer=/g)).toHaveLength(25);
    const next = /<a href="(\/admin\/customers\?after=[0-9a-f-]{36})" rel="next">/.exec(first.html)?.[1];
    expect(next).toBeDefined();
    const second = await owner.get(next!);
    expect(second.html.match(/<tr data-customer=/g)).toHaveLength(2);
    expect(second.html).not.toContain('rel="next"');
    // The list follows the operation's order: what the API's first page lists, the page lists.
    const api = (await staff('GET', '/api/customers?limit=25')).body.items as { id: string }[];
    expect([...first.html.matchAll(/<tr data-customer="([^"]+)"/g)].map((match) => match[1])).toEqual(
      api.map((item) => item.id),
    );

    const byName = await owner.get('/admin/customers?search=lovelace');
    expect(byName.html).toContain(`href="/admin/customers/${buyerId}"`);
    expect(byName.html.match(/<tr data-customer=/g)).toHaveLength(1);
    const byMail = await owner.get('/admin/customers?search=bulk25%40list');
    expect(byMail.html).toContain('bulk25@list.test');
    expect(byMail.html.match(/<tr data-customer=/g)).toHaveLength(1);
    const none = await owner.get('/admin/customers?search=nobody-here');
    expect(none.html).toContain('No customer matches this search.');
    // A search pages with its term kept.
    const bulk = await owner.get('/admin/customers?search=bulk');
    expect(bulk.html).toMatch(/href="\/admin\/customers\?search=bulk&amp;after=[0-9a-f-]{36}" rel="next"/);
  });
});

describe('adding a customer', () => {
  it('pins every problem to its field (422), keeps the entries and changes nothing', async () => {
    const form = customerForm((await owner.get('/admin/customers/new')).html);
    const before = await h.digest();
    const refused = await owner.post('/admin/customers/new', {
      ...form,
      email: 'not-an-address',
      firstName: '',
      lastName: 'Hopper',
      password: 'short',
    });
    expect(refused.status).toBe(422);
    expect(errorOf(refused.html, 'f-email')).toBeDefined();
    expect(errorOf(refused.html, 'f-firstName')).toBeDefined();
    expect(errorOf(refused.html, 'f-password')).toBeDefined();
    expect(refused.html).toContain('aria-invalid="true"');
    // The entries are kept, except the password, which is never written back into a page.
    expect(customerForm(refused.html)).toMatchObject({
      email: 'not-an-address',
      lastName: 'Hopper',
      password: '',
    });
    expect(refused.html).not.toContain('value="short"');
    // A business customer without a company: the operation's own rule, pinned to the company.
    const business = await owner.post('/admin/customers/new', {
      ...form,
      email: 'grace@new.test',
      firstName: 'Grace',
      lastName: 'Hopper',
      group: 'business',
    });
    expect(business.status).toBe(422);
    expect(errorOf(business.html, 'f-company')).toBe('required for the business group');
    expect(await h.digest()).toEqual(before);
  });

  it('adds a customer with a password and shows neither the password nor its hash', async () => {
    const form = customerForm((await owner.get('/admin/customers/new')).html);
    expect(form).toMatchObject({ group: 'consumer', active: 'on', password: '' });
    const added = await owner.post('/admin/customers/new', {
      ...form,
      email: 'grace@new.test',
      salutation: 'Dr.',
      firstName: 'Grace',
      lastName: 'Hopper',
      tags: 'vip, navy , vip',
      birthday: '1906-12-09',
      password: 'correct horse battery',
    });
    expect(added.status, added.html).toBe(303);
    const id = /^\/admin\/customers\/([0-9a-f-]{36})\?done=created$/.exec(added.location ?? '')![1]!;
    expect(await stored(id)).toMatchObject({
      email: 'grace@new.test',
      firstName: 'Grace',
      group: 'consumer',
      active: true,
      tags: ['vip', 'navy'],
      hasPassword: true,
    });
    const page = await owner.get(added.location!);
    expect(page.html).toContain('The customer was added.');
    expect(page.html).not.toContain('correct horse battery');
    expect(page.html).not.toContain('scrypt$');
    expect(page.html).not.toMatch(/passwordHash/i);
    expect(customerForm(page.html).password).toBe('');
  });
});

describe('editing a customer', () => {
  it('saves changed fields at the revision shown; an untouched save writes nothing; a stale one is 409', async () => {
    const id = await createCustomer({ email: 'edit@customers.test', firstName: 'Edit', lastName: 'Me' });
    const form = customerForm((await owner.get(`/admin/customers/${id}`)).html);
    expect(form).toMatchObject({ email: 'edit@customers.test', revision: '1', group: 'consumer' });

    const untouched = await owner.post(`/admin/customers/${id}`, form);
    expect(untouched.status).toBe(303);
    expect(untouched.location).toBe(`/admin/customers/${id}?done=unchanged`);
    expect((await stored(id)).revision).toBe(1);

    const saved = await owner.post(`/admin/customers/${id}`, {
      ...form,
      firstName: 'Edited',
      group: 'business',
      company: 'Acme',
      active: '',
    });
    expect(saved.status, saved.html).toBe(303);
    expect(saved.location).toBe(`/admin/customers/${id}?done=saved`);
    expect(await stored(id)).toMatchObject({
      firstName: 'Edited',
      group: 'business',
      company: 'Acme',
      active: false,
      revision: 2,
    });

    // The form opened at revision 1, saved again: stale, the current values shown, nothing changed.
    const before = await h.digest();
    const stale = await owner.post(`/admin/customers/${id}`, { ...form, lastName: 'Late' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('was changed by someone else');
    expect(stale.html).toContain('Last name: yours “Late”, now “Me”');
    expect(customerForm(stale.html)).toMatchObject({ firstName: 'Edited', revision: '2' });
    expect(await h.digest()).toEqual(before);
  });

  it('pins a refused edit to its field, keeps the entries and the revision', async () => {
    const id = await createCustomer({ email: 'pin@customers.test', firstName: 'Pin', lastName: 'Me' });
    await createCustomer({ email: 'taken@customers.test', firstName: 'Taken', lastName: 'Already' });
    const form = customerForm((await owner.get(`/admin/customers/${id}`)).html);
    const before = await h.digest();
    const refused = await owner.post(`/admin/customers/${id}`, {
      ...form,
      email: 'taken@customers.test',
      firstName: 'Changed',
      birthday: '2999-01-01',
    });
    expect(refused.status).toBe(422);
    // The operation stops at its first rule: the birthday in the future.
    expect(errorOf(refused.html, 'f-birthday')).toBe('in the future');
    expect(customerForm(refused.html)).toMatchObject({ firstName: 'Changed', revision: '1' });
    const taken = await owner.post(`/admin/customers/${id}`, { ...form, email: 'taken@customers.test' });
    expect(taken.status).toBe(422);
    expect(errorOf(taken.html, 'f-email')).toBe('already registered');
    expect(await h.digest()).toEqual(before);
  });
});

describe('addresses', () => {
  it('adds, refuses, edits and removes addresses; a default address is not removed', async () => {
    const id = await createCustomer({ email: 'home@customers.test', firstName: 'Home', lastName: 'Owner' });
    const page = await owner.get(`/admin/customers/${id}`);
    expect(page.html).toContain('No addresses yet.');
    const action = actionOf(page.html, 'class="address-form"');
    const addressId = /\/addresses\/([0-9a-f-]{36})$/.exec(action)![1]!;
    const fields = addressForm(page.html);
    // The shop's countries are offered (Germany, set up by the basis).
    expect(fields.country).toBe('DE');
    /** Home Owner's address in Berlin, 10115, at `street` in `country`, posted with the new address's form. */
    const postAddress = (street: string, country: string) =>
      owner.post(action, {
        ...fields,
        firstName: 'Home',
        lastName: 'Owner',
        street,
        zipcode: '10115',
        city: 'Berlin',
        country,
      });

    const before = await h.digest();
    const refused = await postAddress('', 'FR');
    expect(refused.status).toBe(422);
    expect(errorOf(refused.html, `a-${addressId}-street`)).toBe('must not be empty');
    // The form stays open with its entries and the same id, so a corrected post adds this address.
    expect(actionOf(refused.html, 'class="address-form"')).toBe(action);
    expect(addressForm(refused.html)).toMatchObject({ zipcode: '10115', city: 'Berlin' });
    expect(await h.digest()).toEqual(before);
    const country = await postAddress('Main 1', 'FR');
    expect(country.status).toBe(422);
    expect(errorOf(country.html, `a-${addressId}-country`)).toContain('FR');

    const added = await postAddress('Main 1', 'DE');
    expect(added.status, added.html).toBe(303);
    expect(added.location).toBe(`/admin/customers/${id}?done=address`);
    // The same form posted again replaces the same address: still one.
    expect((await postAddress('Main 1', 'DE')).status).toBe(303);
    const withOne = await stored(id);
    expect(withOne.addresses).toHaveLength(1);
    expect(withOne.addresses[0]).toMatchObject({
      id: addressId,
      address: { street: 'Main 1', country: 'DE' },
    });
    expect(withOne.defaultBillingAddressId).toBe(addressId);

    // A second address, edited, then removed.
    const second = await owner.get(`/admin/customers/${id}`);
    expect(second.html).toContain('Main 1');
    const forms = [
      ...second.html.matchAll(/action="(\/admin\/customers\/[^"]+\/addresses\/[0-9a-f-]{36})"/g),
    ].map((match) => match[1]!);
    const fresh = forms.find((path) => !path.endsWith(addressId))!;
    expect(
      (
        await owner.post(fresh, {
          firstName: 'Work',
          lastName: 'Place',
          street: 'Office 2',
          zipcode: '80331',
          city: 'München',
          country: 'DE',
        })
      ).status,
    ).toBe(303);
    const secondId = /\/addresses\/([0-9a-f-]{36})$/.exec(fresh)![1]!;
    const edit = await owner.get(`/admin/customers/${id}`);
    const edited = await owner.post(`/admin/customers/${id}/addresses/${secondId}`, {
      ...addressForm(edit.html, secondId),
      city: 'Munich',
    });
    expect(edited.status).toBe(303);
    expect((await stored(id)).addresses.find((entry) => entry.id === secondId)?.address.city).toBe('Munich');

    const removed = await owner.post(`/admin/customers/${id}/addresses/${secondId}/remove`, {});
    expect(removed.status).toBe(303);
    expect(removed.location).toBe(`/admin/customers/${id}?done=removed`);
    expect((await stored(id)).addresses.map((entry) => entry.id)).toEqual([addressId]);

    // The default address: the operation's refusal is shown, nothing changed.
    const kept = await h.digest();
    const refusedRemove = await owner.post(`/admin/customers/${id}/addresses/${addressId}/remove`, {});
    expect(refusedRemove.status).toBe(409);
    expect(refusedRemove.html).toContain('The address was not removed');
    expect(await h.digest()).toEqual(kept);
  });
});

describe('orders and deletion', () => {
  it("lists the customer's orders and shows the refusal to delete a customer with orders", async () => {
    const page = await owner.get(`/admin/customers/${buyerId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`href="/admin/orders/${orderId}"`);
    const revision = customerForm(page.html).revision!;
    const before = await h.digest();
    const unconfirmed = await owner.post(`/admin/customers/${buyerId}/delete`, { revision });
    expect(unconfirmed.status).toBe(422);
    expect(unconfirmed.html).toContain('Tick the box to confirm');
    const refused = await owner.post(`/admin/customers/${buyerId}/delete`, { revision, confirm: 'on' });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('The customer was not deleted');
    expect(refused.html).toMatch(/<li>Order \d+<\/li>/);
    expect(await h.digest()).toEqual(before);
  });

  it('deletes a customer without orders after the confirmation box', async () => {
    const id = await createCustomer({ email: 'gone@customers.test', firstName: 'Gone', lastName: 'Soon' });
    const page = await owner.get(`/admin/customers/${id}`);
    const fields = fieldsOf(page.html, `action="/admin/customers/${id}/delete"`);
    expect(fields.confirm).toBeUndefined();
    const stale = await owner.post(`/admin/customers/${id}/delete`, {
      ...fields,
      revision: '7',
      confirm: 'on',
    });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('nothing was deleted');
    const deleted = await owner.post(`/admin/customers/${id}/delete`, { ...fields, confirm: 'on' });
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe('/admin/customers?deleted=1');
    expect((await staff('GET', `/api/customers/${id}`)).status).toBe(404);
    expect((await owner.get(`/admin/customers/${id}`)).status).toBe(404);
  });
});

describe('a reader', () => {
  it('sees text only, and a replayed owner post is refused (403) with nothing changed', async () => {
    const id = await createCustomer({ email: 'read@customers.test', firstName: 'Read', lastName: 'Only' });
    const ownerPage = await owner.get(`/admin/customers/${id}`);
    const form = customerForm(ownerPage.html);
    const address = addressForm(ownerPage.html);
    const addressAction = actionOf(ownerPage.html, 'class="address-form"');

    const page = await readerSession.get(`/admin/customers/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Your role may read customers but not change them.');
    expect(page.html).toContain('read@customers.test');
    expect(page.html).not.toContain('class="customer-form"');
    expect(page.html).not.toContain('class="address-form"');
    expect(page.html).not.toContain('/delete"');
    expect((await readerSession.get('/admin/customers')).html).not.toContain('href="/admin/customers/new"');
    expect((await readerSession.get('/admin/customers/new')).status).toBe(403);

    const before = await h.digest();
    const replays = [
      await readerSession.post(`/admin/customers/${id}`, { ...form, firstName: 'Intruder' }),
      await readerSession.post(`/admin/customers/${id}`, form),
      await readerSession.post('/admin/customers/new', { ...form, email: 'reader-made@customers.test' }),
      await readerSession.post(addressAction, {
        ...address,
        firstName: 'X',
        lastName: 'Y',
        street: 'Z 1',
        zipcode: '1',
        city: 'C',
      }),
      await readerSession.post(`/admin/customers/${id}/delete`, { revision: form.revision!, confirm: 'on' }),
    ];
    expect(replays.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403]);
    // Refused by the role (the operation's permission), not by the form check.
    for (const answer of replays) expect(answer.html).toContain('Your role does not allow this change.');
    expect(await h.digest()).toEqual(before);
  });
});

describe('another shop', () => {
  it("neither reads nor changes shop A's customers", async () => {
    const id = await createCustomer({ email: 'mine@shop-a.test', firstName: 'Shop', lastName: 'A' });
    const form = customerForm((await owner.get(`/admin/customers/${id}`)).html);
    const intruder = await adminSession(h, h.shopB.token, 'en');
    const before = await h.digest();
    expect((await intruder.get(`/admin/customers/${id}`)).status).toBe(404);
    expect((await intruder.get('/admin/customers?search=mine')).html).not.toContain('mine@shop-a.test');
    const answers = [
      await intruder.post(`/admin/customers/${id}`, { ...form, firstName: 'Intruder' }),
      await intruder.post(`/admin/customers/${id}/addresses/${crypto.randomUUID()}`, {
        firstName: 'X',
        lastName: 'Y',
        street: 'Z 1',
        zipcode: '1',
        city: 'C',
        country: 'DE',
      }),
      await intruder.post(`/admin/customers/${id}/delete`, { revision: form.revision!, confirm: 'on' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404]);
    for (const answer of answers) expect(answer.html).not.toContain('mine@shop-a.test');
    expect(await h.digest()).toEqual(before);
  });
});
