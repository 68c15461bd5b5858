import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminSessionClient, adminSession, formFields } from './admin-session.ts';
import { createHarness, type Harness } from './harness.ts';

// The admin's shipping and payment methods without a browser (decision 0047; the walk is
// admin-methods.e2e.test.ts): add with amounts as the UI language writes them, problems pinned to
// their fields (422, entries kept, nothing changed), edit, a stale save (409, current values),
// activation, removal with its dependencies and the operation's refusal, and a reader's replayed
// posts refused (403, nothing changed).

let h: Harness;
let channelKey: string;
let owner: AdminSessionClient;
let readerSession: AdminSessionClient;

const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });

function ok(answer: { status: number; body: unknown }, status = 200) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as Record<string, unknown>;
}

interface StoredMethod {
  id: string;
  revision: number;
  active: boolean;
  translations: Record<string, { name?: string | null; description?: string | null }>;
  prices?: { currency: string; gross: number; net: number }[];
  taxClassId?: string | null;
  handler?: string;
  appId?: string | null;
}

async function stored(area: 'shipping' | 'payment', id: string): Promise<StoredMethod | undefined> {
  const listed = ok(await staff('GET', `/api/basis/${area}-methods`)) as { items: StoredMethod[] };
  return listed.items.find((item) => item.id === id);
}

/** What a browser would post from the page's method form. */
const methodForm = (html: string) => formFields(html, 'class="method-form"');

/** The text of a field's pinned error, if any. */
function errorOf(html: string, id: string): string | undefined {
  return new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1];
}

beforeAll(async () => {
  h = await createHarness();
  ({ channelKey } = await h.sellableTea());
  ok(await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch', active: true }));
  ok(
    await staff('PUT', '/api/basis/currencies/CHF', {
      revision: 0,
      precision: 2,
      symbol: 'CHF',
      active: true,
    }),
  );
  owner = await adminSession(h, h.shopA.token, 'de');
  readerSession = await adminSession(h, await h.readerToken('reader@methods.test'), 'en');
});
afterAll(async () => h?.close());

describe('adding a method', () => {
  it('adds a shipping method with prices typed in German, lists it, and the API reads it', async () => {
    const form = await owner.get('/admin/settings/methods/shipping/new');
    expect(form.status).toBe(200);
    // The shop's main language (en) and the UI language (de, enabled) each have a name.
    expect(form.html).toContain('name="name.en"');
    expect(form.html).toContain('name="name.de"');
    expect(form.html).toContain('name="price.CHF.gross"');
    const fields = methodForm(form.html);
    const id = fields.id!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const added = await owner.post('/admin/settings/methods/shipping/new', {
      ...fields,
      'name.en': 'Express',
      'name.de': 'Eilversand',
      'description.de': 'Am nächsten Tag',
      'price.EUR.gross': '1.005,90',
      'price.EUR.net': '845,29',
      taxClassId: SELLABLE.standardTax,
      position: '5',
    });
    expect(added.status, added.html).toBe(303);
    expect(added.location).toBe(`/admin/settings/methods/shipping/${id}?created=1`);
    const method = await stored('shipping', id);
    expect(method).toMatchObject({
      active: true,
      prices: [{ currency: 'EUR', gross: 100_590, net: 84_529 }],
      taxClassId: SELLABLE.standardTax,
      translations: {
        en: { name: 'Express', description: null },
        de: { name: 'Eilversand', description: 'Am nächsten Tag' },
      },
    });
    // The list in German shows the German name, in English the English one.
    const list = await owner.get('/admin/settings/methods');
    expect(list.html).toContain('Eilversand');
    expect(list.html).toContain('1.005,90');
    const english = await readerSession.get('/admin/settings/methods');
    expect(english.html).toContain('Express');
    expect(english.html).not.toContain('Eilversand');
  });

  it('pins every problem to its field (422), keeps the entries and changes nothing', async () => {
    const form = methodForm((await owner.get('/admin/settings/methods/shipping/new')).html);
    const before = await h.digest();
    const refused = await owner.post('/admin/settings/methods/shipping/new', {
      ...form,
      'name.en': '',
      'name.de': 'Nur Deutsch',
      'price.EUR.gross': '5,9x',
      'price.CHF.gross': '4,90',
      'price.CHF.net': '',
      position: 'vorne',
    });
    expect(refused.status).toBe(422);
    expect(errorOf(refused.html, 'f-name-en')).toContain('Englisch');
    expect(errorOf(refused.html, 'f-price-EUR-gross')).toContain('4,90');
    expect(errorOf(refused.html, 'f-price-CHF-net')).toBeDefined();
    expect(errorOf(refused.html, 'f-position')).toBeDefined();
    expect(refused.html).toMatch(/id="f-price-EUR-gross"[^>]*aria-invalid="true"/);
    // What was typed stays in the form, with the same id.
    const kept = methodForm(refused.html);
    expect(kept).toMatchObject({ 'name.de': 'Nur Deutsch', 'price.EUR.gross': '5,9x', position: 'vorne' });
    expect(kept.id).toBe(form.id);
    expect(await h.digest()).toBe(before);

    // What the operation refuses is pinned by its pointer the same way.
    const byOperation = await owner.post('/admin/settings/methods/shipping/new', {
      ...form,
      'name.en': 'Keyed',
      key: 'Not A Key!',
      appId: 'no-such-app',
    });
    expect(byOperation.status).toBe(422);
    expect(errorOf(byOperation.html, 'f-key')).toContain('a-z, 0-9 and _');
    expect(methodForm(byOperation.html)).toMatchObject({ key: 'Not A Key!', 'name.en': 'Keyed' });
    expect(await h.digest()).toBe(before);
    const appOnly = await owner.post('/admin/settings/methods/shipping/new', {
      ...form,
      'name.en': 'App priced',
      appId: 'no-such-app',
    });
    expect(appOnly.status).toBe(422);
    expect(errorOf(appOnly.html, 'f-appId')).toContain('not an installed app');
    expect(await h.digest()).toBe(before);
  });

  it('adds a payment method; handler App without an app is refused at the app field', async () => {
    const form = methodForm((await owner.get('/admin/settings/methods/payments/new')).html);
    expect(form.handler).toBe('invoice');
    const before = await h.digest();
    const refused = await owner.post('/admin/settings/methods/payments/new', {
      ...form,
      'name.en': 'Pay by app',
      handler: 'app',
    });
    expect(refused.status).toBe(422);
    expect(errorOf(refused.html, 'f-appId')).toBeDefined();
    expect(await h.digest()).toBe(before);
    const added = await owner.post('/admin/settings/methods/payments/new', {
      ...form,
      'name.en': 'Prepayment',
      'name.de': 'Vorkasse',
      handler: 'prepayment',
    });
    expect(added.status, added.html).toBe(303);
    expect(await stored('payment', form.id!)).toMatchObject({
      handler: 'prepayment',
      appId: null,
      active: true,
    });
  });
});

describe('editing a method', () => {
  it('saves the form at its revision; a stale save answers 409 with the current values', async () => {
    const path = `/admin/settings/methods/shipping/${SELLABLE.parcel}`;
    const page = await owner.get(path);
    expect(page.status).toBe(200);
    const fields = methodForm(page.html);
    expect(fields['price.EUR.gross']).toBe('4,90');
    const saved = await owner.post(path, { ...fields, 'name.de': 'Paket', 'price.EUR.gross': '5,50' });
    expect(saved.status, saved.html).toBe(303);
    const after = (await stored('shipping', SELLABLE.parcel))!;
    expect(after.revision).toBe(Number(fields.revision) + 1);
    expect(after.translations.de?.name).toBe('Paket');
    expect(after.prices).toEqual([{ currency: 'EUR', gross: 550, net: 412 }]);
    // The channel still offers it, following the shop.
    expect((await owner.get(path)).html).toContain('folgt dem Shop');

    // Someone else saves through the API; the form opened before is stale.
    const opened = methodForm((await owner.get(path)).html);
    ok(
      await staff('PUT', `/api/basis/shipping-methods/${SELLABLE.parcel}`, {
        revision: after.revision,
        translations: { en: { name: 'Parcel' }, de: { name: 'Paketdienst' } },
        prices: [{ currency: 'EUR', gross: 600, net: 504 }],
        taxClassId: null,
      }),
    );
    const before = await h.digest();
    const stale = await owner.post(path, { ...opened, 'name.de': 'Mein Paket' });
    expect(stale.status).toBe(409);
    expect(await h.digest()).toBe(before);
    const current = methodForm(stale.html);
    expect(current['name.de']).toBe('Paketdienst');
    expect(current['price.EUR.gross']).toBe('6,00');
    expect(Number(current.revision)).toBe(after.revision + 1);
    expect(stale.html).toContain('„Mein Paket“');
    // Saving again from the current values goes through.
    const again = await owner.post(path, { ...current, 'name.de': 'Mein Paket' });
    expect(again.status, again.html).toBe(303);
    expect((await stored('shipping', SELLABLE.parcel))!.translations.de?.name).toBe('Mein Paket');
  });

  it('keeps a refused edit’s revision, so the next save is still checked', async () => {
    const path = `/admin/settings/methods/shipping/${SELLABLE.parcel}`;
    const opened = methodForm((await owner.get(path)).html);
    const refused = await owner.post(path, { ...opened, 'name.en': '' });
    expect(refused.status).toBe(422);
    expect(methodForm(refused.html).revision).toBe(opened.revision);
  });
});

describe('activation and removal', () => {
  it('switches a method off and on at its revision; a stale switch changes nothing', async () => {
    const method = (await stored('payment', SELLABLE.invoice))!;
    const off = await owner.post(`/admin/settings/methods/payments/${SELLABLE.invoice}/active`, {
      revision: String(method.revision),
      active: 'off',
    });
    expect(off.status).toBe(303);
    expect(off.location).toBe(`/admin/settings/methods?deactivated=${SELLABLE.invoice}`);
    expect((await owner.get(off.location!)).html).toContain('ist jetzt inaktiv');
    const after = (await stored('payment', SELLABLE.invoice))!;
    expect(after).toMatchObject({ active: false, handler: 'invoice', revision: method.revision + 1 });
    expect(after.translations).toEqual(method.translations);
    const before = await h.digest();
    const stale = await owner.post(`/admin/settings/methods/payments/${SELLABLE.invoice}/active`, {
      revision: String(method.revision),
      active: 'on',
    });
    expect(stale.status).toBe(409);
    expect(await h.digest()).toBe(before);
    const on = await owner.post(`/admin/settings/methods/payments/${SELLABLE.invoice}/active`, {
      revision: String(after.revision),
      active: 'on',
    });
    expect(on.status).toBe(303);
    expect((await stored('payment', SELLABLE.invoice))!.active).toBe(true);
  });

  it('shows what uses a method before removing it, and the refusal when something does', async () => {
    const tea = ((await staff('GET', '/api/catalog/products?search=TEA')).body.items as { id: string }[])[0]!;
    await h.visitorWithCart(channelKey, [{ productId: tea.id, quantity: 1 }]);
    const path = `/admin/settings/methods/shipping/${SELLABLE.parcel}/remove`;
    const page = await owner.get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Offener Warenkorb');
    expect(page.html).not.toContain(`action="${path}"`);
    // A post anyway (a page rendered before the cart existed): the operation refuses with its detail.
    const method = (await stored('shipping', SELLABLE.parcel))!;
    const before = await h.digest();
    const refused = await owner.post(path, { revision: String(method.revision) });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('still referenced');
    expect(refused.html).toContain('Offener Warenkorb');
    expect(await h.digest()).toBe(before);
  });

  it('removes an unused method at its revision; a stale removal changes nothing', async () => {
    const form = methodForm((await owner.get('/admin/settings/methods/shipping/new')).html);
    expect(
      (await owner.post('/admin/settings/methods/shipping/new', { ...form, 'name.en': 'Gone soon' })).status,
    ).toBe(303);
    const path = `/admin/settings/methods/shipping/${form.id}/remove`;
    const page = await owner.get(path);
    expect(page.html).toContain('Nichts verwendet diese Art');
    expect(page.html).toContain(`action="${path}"`);
    const before = await h.digest();
    const stale = await owner.post(path, { revision: '7' });
    expect(stale.status).toBe(409);
    expect(await h.digest()).toBe(before);
    const removed = await owner.post(path, { revision: '1' });
    expect(removed.status).toBe(303);
    expect(removed.location).toBe('/admin/settings/methods?removed=1');
    expect(await stored('shipping', form.id!)).toBeUndefined();
    expect((await owner.get(`/admin/settings/methods/shipping/${form.id}`)).status).toBe(404);
  });
});

describe('a reader', () => {
  it('sees text only, and the owner’s replayed posts are refused with 403 and nothing changed', async () => {
    const list = await readerSession.get('/admin/settings/methods');
    expect(list.status).toBe(200);
    expect(list.html).toContain('Parcel');
    expect(list.html).not.toContain('method="post" action="/admin/settings/methods');
    expect(list.html).not.toContain('/admin/settings/methods/shipping/new');
    const detail = await readerSession.get(`/admin/settings/methods/shipping/${SELLABLE.parcel}`);
    expect(detail.status).toBe(200);
    expect(detail.html).not.toContain('name="name.en"');
    expect(detail.html).toContain('Mein Paket');
    expect((await readerSession.get('/admin/settings/methods/shipping/new')).status).toBe(403);

    const ownerForm = methodForm(
      (await owner.get(`/admin/settings/methods/shipping/${SELLABLE.parcel}`)).html,
    );
    const newForm = methodForm((await owner.get('/admin/settings/methods/payments/new')).html);
    const parcel = (await stored('shipping', SELLABLE.parcel))!;
    const before = await h.digest();
    const replays = [
      readerSession.post(`/admin/settings/methods/shipping/${SELLABLE.parcel}`, {
        ...ownerForm,
        'name.en': 'Hijacked',
      }),
      readerSession.post('/admin/settings/methods/payments/new', { ...newForm, 'name.en': 'Hijacked' }),
      readerSession.post(`/admin/settings/methods/shipping/${SELLABLE.parcel}/active`, {
        revision: String(parcel.revision),
        active: 'off',
      }),
      readerSession.post(`/admin/settings/methods/payments/${newForm.id}/remove`, { revision: '0' }),
    ];
    for (const replay of await Promise.all(replays))
      expect(replay.status, replay.html.slice(0, 300)).toBe(403);
    expect(await h.digest()).toBe(before);
  });
});

describe('another shop', () => {
  it('sees none of shop A’s methods and changes none of them', async () => {
    const other = await adminSession(h, h.shopB.token, 'en');
    const parcel = (await stored('shipping', SELLABLE.parcel))!;
    const list = await other.get('/admin/settings/methods');
    expect(list.status).toBe(200);
    expect(list.html).not.toContain(SELLABLE.parcel);
    const path = `/admin/settings/methods/shipping/${SELLABLE.parcel}`;
    expect((await other.get(path)).status).toBe(404);
    expect((await other.get(`${path}/remove`)).status).toBe(404);
    // The owner's form without the owner's CSRF token: shop B's session sends its own.
    const { csrf: _ownerCsrf, ...ownerForm } = methodForm((await owner.get(path)).html);
    const before = await h.digest();
    const attempts = [
      other.post(path, { ...ownerForm, 'name.en': 'Taken over' }),
      other.post(`${path}/active`, { revision: String(parcel.revision), active: 'off' }),
      other.post(`${path}/remove`, { revision: String(parcel.revision) }),
    ];
    for (const attempt of await Promise.all(attempts)) expect(attempt.status).toBe(404);
    expect(await h.digest()).toBe(before);
  });
});
