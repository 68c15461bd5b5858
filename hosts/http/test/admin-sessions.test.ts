import { findTokenByHash, listTokens } from '@cartwright/repository';
import { hashToken, setAdminPassword } from '@cartwright/service';
import { SELLABLE } from '@cartwright/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formFields } from './admin-session.ts';
import { createHarness, type Harness } from './harness.ts';

// The admin UI's sessions and its channel form, in process (the browser walk is
// admin-ui.e2e.test.ts): password sign-in, the shop switcher, what ends a session, cookie
// attributes, and the form's writes (only what changed, reset to inherited, an empty description).

let h: Harness;
let mainChannel: string;
const parcel = SELLABLE.parcel;

/** A browser of one: keeps the cookies the admin UI sets and sends them back. */
function browser(headers: Record<string, string> = {}) {
  const jar = new Map<string, string>();
  const request = async (method: string, path: string, form?: Record<string, string>) => {
    const response = await h.app.request(path, {
      method,
      headers: {
        ...headers,
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form
          ? {
              'content-type': 'application/x-www-form-urlencoded',
              origin: headers['x-forwarded-proto'] === 'https' ? 'https://localhost' : 'http://localhost',
            }
          : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
      cookies: response.headers.getSetCookie(),
    };
  };
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return {
    jar,
    request,
    csrfOf,
    async signIn(fields: Record<string, string>) {
      const page = await request('GET', '/admin/sign-in');
      return request('POST', '/admin/sign-in', { csrf: csrfOf(page.html), ...fields });
    },
    /** Posts a form of the page at `from` with that page's CSRF token. */
    async post(from: string, action: string, fields: Record<string, string>) {
      const page = await request('GET', from);
      return request('POST', action, { csrf: csrfOf(page.html), ...fields });
    },
  };
}

const staff = (method: string, path: string, body?: unknown, token = h.shopA.token) =>
  h.call(method, path, { token, body });

async function channelRead(language: string) {
  const read = await staff('GET', `/api/merchant/commerce/channels/${mainChannel}?language=${language}`);
  return read.body as {
    revision: number;
    overrides: Record<string, unknown>;
    effective: { shippingMethods: Record<string, { name: string; description: string | null }> };
    provenance: Record<string, string>;
  };
}

beforeAll(async () => {
  h = await createHarness();
  await h.sellableTea();
  expect((await staff('PUT', '/api/basis/languages/de', { revision: 0, name: 'Deutsch' })).status).toBe(200);
  const channels = (await staff('GET', '/api/automation')).body.channels as { id: string; isMain: boolean }[];
  mainChannel = channels.find((channel) => channel.isMain)!.id;
});
afterAll(() => h?.close());

describe('signing in', () => {
  it('with e-mail and password: a session token per shop, revoked at sign-out', async () => {
    expect((await setAdminPassword(h.services, 'owner@a.test', 'short')).ok).toBe(false);
    expect((await setAdminPassword(h.services, 'owner@a.test', 'correct horse battery staple')).ok).toBe(
      true,
    );
    const b = browser();
    const wrong = await b.signIn({ email: 'owner@a.test', password: 'wrong horse battery staple' });
    expect(wrong.status).toBe(401);
    expect(b.jar.has('cw_admin')).toBe(false);
    const unknown = await b.signIn({ email: 'nobody@a.test', password: 'correct horse battery staple' });
    expect(unknown.status).toBe(401);

    const signed = await b.signIn({ email: 'OWNER@a.test', password: 'correct horse battery staple' });
    expect(signed.status).toBe(303);
    expect(signed.location).toBe('/admin');
    const cookie = signed.cookies.find((line) => line.startsWith('cw_admin='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/admin/);
    expect(cookie).not.toMatch(/Secure/);
    // Only the secret's hash is stored; the session acts through a personal token made for it.
    const secret = b.jar.get('cw_admin')!;
    const rows = await h.database.rows<{ secret_hash: string }>(
      (await import('drizzle-orm')).sql`select secret_hash from admin_sessions`,
    );
    expect(rows.map((row) => row.secret_hash)).toContain(hashToken(secret));
    expect(rows.map((row) => row.secret_hash)).not.toContain(secret);
    const tokens = await listTokens(h.database.db, h.shopA.tenantId, { limit: 100 });
    const minted = tokens.find((token) => token.name === 'Admin sign-in' && !token.revokedAt);
    expect(minted?.kind).toBe('personal');
    expect(minted?.expiresAt).not.toBeNull();

    const home = await b.request('GET', '/admin');
    expect(home.status).toBe(200);
    const out = await b.post('/admin', '/admin/sign-out', {});
    expect(out.status).toBe(303);
    const after = await listTokens(h.database.db, h.shopA.tenantId, { limit: 100 });
    expect(after.find((token) => token.id === minted!.id)?.revokedAt).not.toBeNull();
    const again = await h.app.request('/admin', { headers: { cookie: `cw_admin=${secret}` } });
    expect(again.status).toBe(303);
  });

  it('refuses an address after 10 failed password sign-ins in 15 minutes, even with the right password', async () => {
    // No person, no password.
    expect((await setAdminPassword(h.services, 'nobody@throttle.test', 'x'.repeat(12))).ok).toBe(false);
    const member = await staff('POST', '/api/members', { email: 'throttled@a.test', role: 'reader' });
    expect(member.status).toBe(201);
    expect((await setAdminPassword(h.services, 'throttled@a.test', 'the right passphrase')).ok).toBe(true);
    const b = browser();
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await b.signIn({ email: 'throttled@a.test', password: `wrong passphrase ${attempt}` });
      expect(wrong.status).toBe(401);
      expect(wrong.html).toContain('is wrong');
    }
    const refused = await b.signIn({ email: 'Throttled@a.test', password: 'the right passphrase' });
    expect(refused.status).toBe(401);
    expect(refused.html).toContain('Too many failed sign-ins');
    // Another address is not affected.
    expect((await b.signIn({ email: 'owner@a.test', password: 'correct horse battery staple' })).status).toBe(
      303,
    );
  });

  it('refuses an API token and an unknown token; marks the cookie Secure behind https', async () => {
    const api = await staff('POST', '/api/tokens', { name: 'robot', kind: 'api', role: 'owner' });
    const b = browser({ 'x-forwarded-proto': 'https' });
    const refused = await b.signIn({ token: (api.body as { token: string }).token });
    expect(refused.status).toBe(401);
    expect(refused.html).toContain('personal token');
    expect((await b.signIn({ token: 'cw_pat_nothing' })).status).toBe(401);
    const ok = await b.signIn({ token: h.shopA.token });
    expect(ok.status).toBe(303);
    expect(ok.cookies.find((line) => line.startsWith('cw_admin='))).toMatch(/Secure/);
  });

  it('ends the session’s access to a shop when its token is revoked', async () => {
    const created = await staff('POST', '/api/tokens', { name: 'laptop', kind: 'personal' });
    const { token, details } = created.body as { token: string; details: { id: string } };
    const b = browser();
    expect((await b.signIn({ token })).status).toBe(303);
    expect((await b.request('GET', '/admin/settings')).status).toBe(200);
    expect((await staff('DELETE', `/api/tokens/${details.id}`)).status).toBe(200);
    const after = await b.request('GET', '/admin/settings');
    expect(after.status).toBe(303);
    expect(after.location).toBe('/admin/sign-in');
    expect(await findTokenByHash(h.database.db, h.shopA.tenantId, hashToken(token))).toBeDefined();
  });
});

describe('the interface language', () => {
  it('follows Accept-Language until one is chosen in the header, before and after sign-in', async () => {
    const b = browser({ 'accept-language': 'fr-FR,fr;q=0.9' });
    const first = await b.request('GET', '/admin/sign-in');
    expect(first.html).toContain('<html lang="fr">');
    expect(first.html).toContain('Connexion');
    const chosen = await b.request('POST', '/admin/locale', { csrf: b.csrfOf(first.html), locale: 'es' });
    expect(chosen.status).toBe(303);
    expect((await b.request('GET', '/admin/sign-in')).html).toContain('<html lang="es">');
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const home = await b.request('GET', '/admin');
    expect(home.html).toContain('Resumen');
    const german = await b.request('POST', '/admin/locale', { csrf: b.csrfOf(home.html), locale: 'de' });
    expect(german.status).toBe(303);
    expect((await b.request('GET', '/admin')).html).toContain('Übersicht');
    // An unknown choice falls back to English, not to an error.
    await b.post('/admin', '/admin/locale', { locale: 'xx' });
    expect((await b.request('GET', '/admin')).html).toContain('<html lang="en">');
  });
});

describe('shops apart', () => {
  it('shows a session of shop B nothing of shop A', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopB.token })).status).toBe(303);
    const page = await b.request('GET', `/admin/settings/channels/${mainChannel}`);
    expect(page.status).toBe(404);
    expect(page.html).not.toContain('Parcel');
    const post = await b.post('/admin', `/admin/settings/channels/${mainChannel}?language=en`, {
      revision: '1',
      baseRevision: '1',
    });
    expect(post.status).toBe(404);
    const list = await b.request('GET', '/admin/settings');
    expect(list.html).not.toContain(mainChannel);
  });
});

describe('the shop switcher', () => {
  it('offers the shops a session holds and acts in the chosen one with that shop’s rights', async () => {
    // Shop A's owner becomes a reader of shop B, with a personal token there.
    const added = await staff(
      'POST',
      '/api/members',
      { email: 'owner@a.test', role: 'reader' },
      h.shopB.token,
    );
    expect(added.status).toBe(201);
    const inB = await staff(
      'POST',
      '/api/tokens',
      { name: 'a in b', kind: 'personal', userId: h.shopA.userId },
      h.shopB.token,
    );
    const tokenB = (inB.body as { token: string }).token;
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const single = await b.request('GET', '/admin');
    expect(single.html).not.toContain('name="tenantId"');
    // Signed in, the sign-in page adds a shop to the same session, under a new secret.
    const unrotated = b.jar.get('cw_admin');
    const add = await b.post('/admin/sign-in', '/admin/sign-in', { token: tokenB });
    expect(add.status).toBe(303);
    expect(b.jar.get('cw_admin')).not.toBe(unrotated);
    expect((await h.app.request('/admin', { headers: { cookie: `cw_admin=${unrotated}` } })).status).toBe(
      303,
    );
    const home = await b.request('GET', '/admin');
    expect(home.html).toContain(`value="${h.shopA.tenantId}"`);
    expect(home.html).toContain(`value="${h.shopB.tenantId}"`);
    expect(home.html).toMatch(/Signed in as reader/);

    const switched = await b.post('/admin', '/admin/shop', { tenantId: h.shopA.tenantId });
    expect(switched.status).toBe(303);
    expect((await b.request('GET', '/admin')).html).toMatch(/Signed in as owner/);
    // A shop the session holds no token for is not offered and cannot be chosen.
    const foreign = await b.post('/admin', '/admin/shop', {
      tenantId: '0190f0c8-0000-7000-8000-0000000000ff',
    });
    expect(foreign.status).toBe(404);
    // Another person's token starts a new session: the first person's session ends.
    const before = b.jar.get('cw_admin');
    expect((await b.post('/admin/sign-in', '/admin/sign-in', { token: h.shopB.token })).status).toBe(303);
    expect(b.jar.get('cw_admin')).not.toBe(before);
    const old = await h.app.request('/admin', { headers: { cookie: `cw_admin=${before}` } });
    expect(old.status).toBe(303);
  });
});

describe('the channel form', () => {
  it('writes only what changed in the content language, keeps an explicit empty description, resets to inherited', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${mainChannel}?language=de`;
    const page = await b.request('GET', path);
    expect(page.status).toBe(200);
    // Reading German created nothing; the English name shows as the fallback.
    expect((await channelRead('de')).overrides).toEqual({});
    expect(page.html).toContain('not translated');
    // Saving untouched in German writes no translation.
    const untouched = await b.request('POST', path, formFields(page.html));
    expect(untouched.status).toBe(303);
    expect((await channelRead('de')).overrides).toEqual({});

    const fields = formFields((await b.request('GET', path)).html);
    fields[`text:shippingMethods.${parcel}.name`] = 'Paket';
    fields[`text:shippingMethods.${parcel}.description`] = '';
    fields[`was:shippingMethods.${parcel}.description`] = 'x'; // an emptied description
    const saved = await b.request('POST', path, fields);
    expect(saved.status).toBe(303);
    const read = await channelRead('de');
    expect(read.overrides).toEqual({
      shippingMethods: { [parcel]: { translations: { de: { name: 'Paket', description: '' } } } },
    });
    expect(read.effective.shippingMethods[parcel]!.description).toBe('');
    expect(read.provenance[`/shippingMethods/${parcel}/translations/de/name`]).toBe('overridden');

    // Reset the name to inherited: the German override of the name goes, the description stays.
    const shown = await b.request('GET', path);
    expect(shown.html).toContain('Reset to inherited');
    const reset = await b.request('POST', path, {
      ...formFields(shown.html),
      reset: `shippingMethods.${parcel}.name`,
    });
    expect(reset.status).toBe(303);
    expect((await channelRead('de')).overrides).toEqual({
      shippingMethods: { [parcel]: { translations: { de: { description: '' } } } },
    });
  });

  it('switches a method off and delivery countries per channel, each with reset to inherited; names countries in the content language', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${mainChannel}?language=de`;
    const page = await b.request('GET', path);
    // The basis names Germany in English only: in German it shows the English name, marked, in English.
    expect(page.html).toMatch(
      /<label for="f-country-DE" lang="en">Germany \(DE\)<\/label><span class="badge fallback">/,
    );
    const invoice = `paymentMethods.${SELLABLE.invoice}.active`;
    const fields = formFields(page.html);
    expect(fields[`on:${invoice}`]).toBe('on');
    delete fields[`on:${invoice}`];
    delete fields['country:DE'];
    expect((await b.request('POST', path, fields)).status).toBe(303);
    const read = (await channelRead('de')) as unknown as {
      overrides: { paymentMethods?: Record<string, { active?: boolean }>; deliveryCountries?: string[] };
      provenance: Record<string, string>;
    };
    expect(read.overrides.paymentMethods?.[SELLABLE.invoice]?.active).toBe(false);
    expect(read.overrides.deliveryCountries).toEqual([]);
    expect(read.provenance['/deliveryCountries']).toBe('overridden');
    const shown = await b.request('GET', path);
    expect(shown.html).toContain('Reset to inherited: Delivery countries');
    expect((await b.request('POST', path, { ...formFields(shown.html), reset: invoice })).status).toBe(303);
    const again = await b.request('GET', path);
    expect(
      (await b.request('POST', path, { ...formFields(again.html), reset: 'deliveryCountries' })).status,
    ).toBe(303);
    const after = (await channelRead('de')) as unknown as { overrides: Record<string, unknown> };
    expect(after.overrides.paymentMethods).toBeUndefined();
    expect(after.overrides.deliveryCountries).toBeUndefined();
  });

  it('writes a tax label in the content language, titled by its tax class', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${mainChannel}?language=de`;
    const page = await b.request('GET', path);
    expect(page.html).toContain('Tax label Standard');
    const key = `taxLabels.${SELLABLE.standardTax}.label`;
    const fields = formFields(page.html);
    expect(fields[`text:${key}`]).toBe('');
    expect((await b.request('POST', path, { ...fields, [`text:${key}`]: 'MwSt. 19 %' })).status).toBe(303);
    const read = (await channelRead('de')) as unknown as {
      overrides: { taxLabels?: Record<string, unknown> };
      provenance: Record<string, string>;
    };
    expect(read.overrides.taxLabels).toEqual({
      [SELLABLE.standardTax]: { translations: { de: 'MwSt. 19 %' } },
    });
    expect(read.provenance[`/taxLabels/${SELLABLE.standardTax}/translations/de`]).toBe('overridden');
    const shown = await b.request('GET', path);
    expect(shown.html).toContain('Tax label MwSt. 19 %');
    expect((await b.request('POST', path, { ...formFields(shown.html), reset: key })).status).toBe(303);
    expect(
      ((await channelRead('de')) as unknown as { overrides: Record<string, unknown> }).overrides.taxLabels,
    ).toBeUndefined();
  });

  it('overrides a shipping method’s prices with amounts as the UI language writes them, refuses a bad amount, resets', async () => {
    const b = browser({ 'accept-language': 'de-DE' });
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${mainChannel}?language=de`;
    const key = `shippingMethods.${parcel}.prices`;
    const overrides = async () =>
      ((await channelRead('de')) as unknown as { overrides: Record<string, unknown> }).overrides;
    const before = await overrides();
    const fields = formFields((await b.request('GET', path)).html);
    expect(fields[`amount:${key}.EUR.gross`]).toBe('4,90');
    expect(fields[`amount:${key}.EUR.net`]).toBe('4,12');
    const bad = await b.request('POST', path, { ...fields, [`amount:${key}.EUR.gross`]: '5,555' });
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('Ein Betrag oder Satz ist keine Zahl');
    expect(bad.html).toContain('value="5,555"');
    expect(await overrides()).toEqual(before);
    const saved = await b.request('POST', path, {
      ...fields,
      [`amount:${key}.EUR.gross`]: '5,50',
      [`amount:${key}.EUR.net`]: ' 4,62 ',
    });
    expect(saved.status).toBe(303);
    const read = (await channelRead('de')) as unknown as {
      overrides: { shippingMethods?: Record<string, { prices?: unknown }> };
      provenance: Record<string, string>;
    };
    expect(read.overrides.shippingMethods?.[parcel]?.prices).toEqual([
      { currency: 'EUR', gross: 550, net: 462 },
    ]);
    expect(read.provenance[`/shippingMethods/${parcel}/prices`]).toBe('overridden');
    const shown = await b.request('GET', path);
    expect(shown.html).toContain('value="5,50"');
    expect((await b.request('POST', path, { ...formFields(shown.html), reset: key })).status).toBe(303);
    expect(await overrides()).toEqual(before);
  });

  it('overrides a tax rate in percent as the UI language writes it, shows the operation’s refusal, resets', async () => {
    const b = browser({ 'accept-language': 'de-DE' });
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${mainChannel}?language=de`;
    const key = `taxRates.${SELLABLE.reducedTax}.default`;
    const overrides = async () =>
      ((await channelRead('de')) as unknown as { overrides: Record<string, unknown> }).overrides;
    const before = await overrides();
    const page = await b.request('GET', path);
    expect(page.html).toContain('Reduced, alle Länder (%)');
    const fields = formFields(page.html);
    expect(fields[`rate:${key}`]).toBe('7');
    // Above 100 %: the operation refuses, the page says why and keeps the entry.
    const refused = await b.request('POST', path, { ...fields, [`rate:${key}`]: '150' });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('value="150"');
    expect(await overrides()).toEqual(before);
    expect((await b.request('POST', path, { ...fields, [`rate:${key}`]: '5,5' })).status).toBe(303);
    const read = (await channelRead('de')) as unknown as {
      overrides: { taxRates?: Record<string, unknown> };
      provenance: Record<string, string>;
    };
    expect(read.overrides.taxRates).toEqual({ [SELLABLE.reducedTax]: { rates: { default: 550 } } });
    expect(read.provenance[`/taxRates/${SELLABLE.reducedTax}/rates/default`]).toBe('overridden');
    const shown = await b.request('GET', path);
    expect(shown.html).toContain('value="5,5"');
    expect((await b.request('POST', path, { ...formFields(shown.html), reset: key })).status).toBe(303);
    expect(await overrides()).toEqual(before);
  });

  it('pauses and resumes the channel (its own field) and keeps its other fields', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${mainChannel}?language=en`;
    const fields = formFields((await b.request('GET', path)).html);
    expect(fields['was:channel.paused']).toBe('false');
    const before = (await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`)).body as {
      channel: Record<string, unknown>;
    };
    expect((await b.request('POST', path, { ...fields, 'on:channel.paused': 'on' })).status).toBe(303);
    const paused = (await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`)).body as {
      channel: Record<string, unknown>;
    };
    expect(paused.channel).toEqual({ ...before.channel, paused: true });
    const again = formFields((await b.request('GET', path)).html);
    expect(again['on:channel.paused']).toBe('on');
    delete again['on:channel.paused'];
    expect((await b.request('POST', path, again)).status).toBe(303);
    const resumed = (await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`)).body as {
      channel: Record<string, unknown>;
    };
    expect(resumed.channel).toEqual(before.channel);
  });

  it('lists a switch changed meanwhile when a save is stale, and keeps the entered text', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${mainChannel}?language=en`;
    const fields = formFields((await b.request('GET', path)).html);
    // Someone switches the invoice off through the API.
    const current = (await staff('GET', `/api/merchant/commerce/channels/${mainChannel}`)).body as {
      revision: number;
      baseRevision: number;
      channel: Record<string, unknown>;
    };
    const { languages: _, ...channel } = current.channel;
    const other = await staff('PUT', `/api/merchant/commerce/channels/${mainChannel}`, {
      revision: current.revision,
      baseRevision: current.baseRevision,
      channel,
      overrides: { paymentMethods: { [SELLABLE.invoice]: { active: false } } },
    });
    expect(other.status).toBe(200);
    fields[`text:shippingMethods.${parcel}.description`] = 'Two days';
    const stale = await b.request('POST', path, fields);
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('Someone else saved first');
    expect(stale.html).toContain('Invoice is offered in this channel: now “no”, before “yes”');
    expect(stale.html).toContain('>Two days</textarea>');
    expect((await channelRead('en')).effective.shippingMethods[parcel]!.description).toBeNull();
  });

  it('answers an unknown channel with 404 and a language the shop has not enabled with the operation’s refusal', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const unknownChannel = await b.request(
      'GET',
      '/admin/settings/channels/0190f0c8-0000-7000-8000-0000000000ee',
    );
    expect(unknownChannel.status).toBe(404);
    const notEnabled = await b.request('GET', `/admin/settings/channels/${mainChannel}?language=fr`);
    expect(notEnabled.status).toBe(422);
    expect(notEnabled.html).toContain('The change was refused');
    const malformed = await b.request('GET', `/admin/settings/channels/${mainChannel}?language=%3Cscript%3E`);
    expect(malformed.status).toBe(404);
  });
});

describe('the channel’s own fields, company identity, creating and deleting channels', () => {
  type ChannelView = {
    revision: number;
    baseRevision: number;
    channel: Record<string, unknown>;
    overrides: Record<string, unknown>;
    effective: Record<string, unknown>;
    provenance: Record<string, string>;
  };
  const readOf = async (channelId: string) =>
    (await staff('GET', `/api/merchant/commerce/channels/${channelId}`)).body as ChannelView;

  /** A non-main channel made through the API (English and German names, English only). */
  async function extraChannel(fields: Record<string, unknown> = {}) {
    const main = await readOf(mainChannel);
    const id = crypto.randomUUID();
    const saved = await staff('PUT', `/api/merchant/commerce/channels/${id}`, {
      revision: 0,
      baseRevision: main.baseRevision,
      channel: {
        name: { en: 'Wholesale', de: 'Großhandel' },
        mode: 'storefront',
        paused: false,
        private: false,
        languages: ['en'],
        domains: [],
        ...fields,
      },
      overrides: {},
    });
    expect(saved.status).toBe(200);
    return id;
  }

  it('edits the name in the UI language (others kept), mode, languages and domains; a bad URL is refused at its field', async () => {
    const id = await extraChannel();
    const b = browser({ 'accept-language': 'de-DE' });
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${id}`;
    const page = await b.request('GET', path);
    expect(page.html).toContain('Name des Kanals (Deutsch)');
    const fields = formFields(page.html);
    expect(fields['text:channel.name']).toBe('Großhandel');
    expect(fields['choice:channel.mode']).toBe('storefront');
    expect(fields['language:en']).toBe('on');
    expect(fields['language:de']).toBeUndefined();
    // Untouched: the channel's fields stay as they were.
    const before = await readOf(id);
    expect((await b.request('POST', path, fields)).status).toBe(303);
    expect((await readOf(id)).channel).toEqual(before.channel);

    const saved = await b.request('POST', path, {
      ...formFields((await b.request('GET', path)).html),
      'text:channel.name': 'Großhandel B2B',
      'choice:channel.mode': 'headless',
      'language:de': 'on',
      'domain:0.url': 'https://b2b.example',
      'domain:0.language': 'de',
      'domain:0.currency': 'EUR',
    });
    expect(saved.status).toBe(303);
    const read = await readOf(id);
    expect(read.channel).toMatchObject({
      name: { en: 'Wholesale', de: 'Großhandel B2B' },
      mode: 'headless',
      languages: ['de', 'en'],
      domains: [{ url: 'https://b2b.example', language: 'de', currency: 'EUR' }],
    });
    expect(read.overrides).toEqual({});

    // A second domain with a bad URL: refused at its field, entries kept, nothing changed.
    const again = formFields((await b.request('GET', path)).html);
    expect(again['domain:0.url']).toBe('https://b2b.example');
    expect(again['domain:0.language']).toBe('de');
    const bad = await b.request('POST', path, {
      ...again,
      'domain:1.url': 'not a url',
      'domain:1.language': 'en',
      'domain:1.currency': 'EUR',
    });
    expect(bad.status).toBe(422);
    expect(bad.html).toMatch(/id="f-domain-1-url"[^>]*value="not a url"[^>]*aria-invalid="true"/);
    expect(bad.html).toMatch(/<p class="field-error" id="e-domain-1-url">[^<]*URL/);
    expect((await readOf(id)).revision).toBe(read.revision);

    // Remove the first domain; empty the German name (the English one stays).
    const shown = formFields((await b.request('GET', path)).html);
    const removed = await b.request('POST', path, {
      ...shown,
      'domain:0.remove': 'on',
      'text:channel.name': '',
    });
    expect(removed.status).toBe(303);
    expect((await readOf(id)).channel).toMatchObject({ name: { en: 'Wholesale' }, domains: [] });

    // In English, emptying the last name is refused at the field.
    const english = browser();
    expect((await english.signIn({ token: h.shopA.token })).status).toBe(303);
    const englishFields = formFields((await english.request('GET', path)).html);
    const nameless = await english.request('POST', path, { ...englishFields, 'text:channel.name': ' ' });
    expect(nameless.status).toBe(422);
    expect(nameless.html).toContain('Give the channel a name.');
    expect((await readOf(id)).channel.name).toEqual({ en: 'Wholesale' });
    // No language left: the operation's refusal at the languages.
    const { 'language:en': _en, 'language:de': _de, ...noLanguage } = englishFields;
    const refused = await english.request('POST', path, noLanguage);
    expect(refused.status).toBe(422);
    expect(refused.html).toMatch(/<p class="field-error" id="e-channel-languages">/);
    expect((await readOf(id)).channel.languages).toEqual(['de', 'en']);
  });

  it('limits the catalog to ticked categories of the tree and sets the navigation root; unticking all sells the whole catalog', async () => {
    const id = await extraChannel();
    const [tea, green, cups] = [
      '0190f0c8-0000-7000-8000-00000000ca01',
      '0190f0c8-0000-7000-8000-00000000ca02',
      '0190f0c8-0000-7000-8000-00000000ca03',
    ];
    for (const [category, parentId, name, position] of [
      [tea, null, 'Tea', 1],
      [green, tea, 'Green tea', 1],
      [cups, null, 'Cups', 2],
    ] as const) {
      expect(
        (
          await staff('PUT', `/api/catalog/categories/${category}`, {
            revision: 0,
            parentId,
            position,
            translations: { en: { name } },
          })
        ).status,
      ).toBe(200);
    }
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${id}`;
    const page = await b.request('GET', path);
    // The tree in order, the child indented under its parent; nothing ticked: the whole catalog.
    const order = [tea, green, cups].map((category) => page.html.indexOf(`id="f-category-${category}"`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(page.html).toMatch(
      new RegExp(`<li class="depth-1"><input type="checkbox" id="f-category-${green}"`),
    );
    const fields = formFields(page.html);
    expect(fields[`category:${green}`]).toBeUndefined();
    expect(fields['choice:channel.navigation']).toBe('');

    const saved = await b.request('POST', path, {
      ...fields,
      [`category:${green}`]: 'on',
      [`category:${cups}`]: 'on',
      'choice:channel.navigation': tea,
    });
    expect(saved.status).toBe(303);
    const read = await readOf(id);
    expect(read.channel).toMatchObject({
      catalog: { categoryIds: [green, cups].sort() },
      navigation: { rootCategoryId: tea },
    });
    const shown = formFields((await b.request('GET', path)).html);
    expect(shown[`category:${green}`]).toBe('on');
    expect(shown['choice:channel.navigation']).toBe(tea);
    // Saved untouched: the choices stay.
    expect((await b.request('POST', path, shown)).status).toBe(303);
    expect((await readOf(id)).channel).toEqual(read.channel);

    // None ticked and no root: the whole catalog, no navigation root.
    const current = formFields((await b.request('GET', path)).html);
    const { [`category:${green}`]: _green, [`category:${cups}`]: _cups, ...none } = current;
    expect((await b.request('POST', path, { ...none, 'choice:channel.navigation': '' })).status).toBe(303);
    expect((await readOf(id)).channel).toMatchObject({ catalog: null, navigation: null });
  });

  it('overrides company fields one by one (text, list, address, an emptied one), resets one; a channel with overrides is not deleted', async () => {
    expect(
      (
        await staff('PUT', '/api/company', {
          revision: 0,
          data: { name: 'Tea GmbH', vatId: 'DE123456789', phone: '+49 30 1234', city: 'Berlin' },
        })
      ).status,
    ).toBe(200);
    const id = await extraChannel();
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${id}`;
    const page = await b.request('GET', path);
    const fields = formFields(page.html);
    expect(fields['company:company.name']).toBe('Tea GmbH');
    expect(fields['company:company.contact.address.city']).toBe('Berlin');
    expect(page.html).toMatch(/for="f-company-legal-vatId">VAT ID<span class="badge inherited">inherited/);
    // Untouched: no override.
    expect((await b.request('POST', path, fields)).status).toBe(303);
    expect((await readOf(id)).overrides).toEqual({});

    const saved = await b.request('POST', path, {
      ...formFields((await b.request('GET', path)).html),
      'company:company.legal.vatId': 'ATU99999999',
      'company:company.legal.managingDirectors': 'Ada Lovelace\r\n\r\n  Grace Hopper ',
      'company:company.contact.address.street': 'Ring 1',
      'company:company.contact.address.zipcode': '1010',
      'company:company.contact.address.city': 'Wien',
      'company:company.contact.address.country': 'at',
      'company:company.contact.phone': '',
    });
    expect(saved.status).toBe(303);
    const read = await readOf(id);
    expect(read.overrides).toEqual({
      company: {
        legal: { vatId: 'ATU99999999', managingDirectors: ['Ada Lovelace', 'Grace Hopper'] },
        contact: { phone: null, address: { street: 'Ring 1', zipcode: '1010', city: 'Wien', country: 'AT' } },
      },
    });
    expect(read.provenance['/company/legal/vatId']).toBe('overridden');
    expect(read.provenance['/company/name']).toBe('inherited');
    const shown = await b.request('GET', path);
    expect(shown.html).toMatch(/for="f-company-legal-vatId">VAT ID<span class="badge overridden">overridden/);
    expect(shown.html).toMatch(/for="f-company-contact-phone">Phone<span class="badge removed">/);
    expect(shown.html).toContain('Reset to inherited: VAT ID');
    expect(formFields(shown.html)['company:company.legal.managingDirectors']).toBe(
      'Ada Lovelace\nGrace Hopper',
    );

    // A text too long: refused at its field, the entry kept, nothing changed.
    const long = await b.request('POST', path, {
      ...formFields(shown.html),
      'company:company.legal.vatId': 'x'.repeat(2001),
    });
    expect(long.status).toBe(422);
    expect(long.html).toMatch(/<p class="field-error" id="e-company-legal-vatId">/);
    expect(long.html).toContain(`value="${'x'.repeat(2001)}"`);
    expect((await readOf(id)).overrides).toEqual(read.overrides);

    // Reset the VAT ID: only that override goes.
    const reset = await b.request('POST', path, { ...formFields(shown.html), reset: 'company.legal.vatId' });
    expect(reset.status).toBe(303);
    const after = await readOf(id);
    expect(after.overrides).toEqual({
      company: {
        legal: { managingDirectors: ['Ada Lovelace', 'Grace Hopper'] },
        contact: { phone: null, address: { street: 'Ring 1', zipcode: '1010', city: 'Wien', country: 'AT' } },
      },
    });
    expect((after.effective.company as { legal: { vatId: string } }).legal.vatId).toBe('DE123456789');

    // Its overrides keep it: the delete is refused with the operation's detail and what keeps it.
    const current = await b.request('GET', path);
    const refused = await b.request('POST', `${path}/delete`, {
      csrf: b.csrfOf(current.html),
      revision: String(after.revision),
      confirm: 'on',
    });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('The channel was not deleted: The channel is still in use');
    expect(refused.html).toContain('Overridden settings: 1');
    expect((await staff('GET', `/api/merchant/commerce/channels/${id}`)).status).toBe(200);
  });

  it('edits the shop’s company identity on the main channel (only changed fields), refuses a bad e-mail at its field and a stale save', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${mainChannel}`;
    const page = await b.request('GET', path);
    expect(page.html).not.toContain('company:company.name');
    const stored = (await staff('GET', '/api/company')).body as {
      data: Record<string, string>;
      revision: number;
    };
    const fields = formFields(page.html);
    expect(fields['basis:name']).toBe(stored.data.name);
    expect(fields.companyRevision).toBe(String(stored.revision));
    const action = `${path}/company`;
    // Untouched: nothing saved.
    expect((await b.request('POST', action, fields)).status).toBe(303);
    expect(((await staff('GET', '/api/company')).body as { revision: number }).revision).toBe(
      stored.revision,
    );

    const bad = await b.request('POST', action, { ...fields, 'basis:email': 'no-address' });
    expect(bad.status).toBe(422);
    expect(bad.html).toMatch(/id="f-basis-email"[^>]*aria-invalid="true"/);
    expect(bad.html).toMatch(/<p class="field-error" id="e-basis-email">expected an email address/);
    expect(bad.html).toContain('value="no-address"');

    // Someone else saves meanwhile: the form's fields only, over what is stored now.
    expect(
      (
        await staff('PUT', '/api/company', {
          revision: stored.revision,
          data: { ...stored.data, bankName: 'Teabank' },
        })
      ).status,
    ).toBe(200);
    const stale = await b.request('POST', action, { ...fields, 'basis:email': 'shop@tea.example' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('Someone else saved the company identity first');
    const fresh = formFields((await b.request('GET', path)).html);
    const saved = await b.request('POST', action, {
      ...fresh,
      'basis:email': 'shop@tea.example',
      'basis:phone': '',
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toMatch(/companySaved=\d+$/);
    const { data } = (await staff('GET', '/api/company')).body as { data: Record<string, string> };
    const { phone: _, ...rest } = stored.data;
    expect(data).toEqual({ ...rest, bankName: 'Teabank', email: 'shop@tea.example' });

    // The structured legal fields and logos: a list one entry per line, a bad entry at its field.
    const legal = formFields((await b.request('GET', path)).html);
    const tooLong = await b.request('POST', action, {
      ...legal,
      'basis:managingDirectors': `Ada Lovelace\n${'x'.repeat(201)}`,
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.html).toMatch(/id="f-basis-managingDirectors"[^>]*aria-invalid="true"/);
    const listed = await b.request('POST', action, {
      ...legal,
      'basis:managingDirectors': ' Ada Lovelace \r\n\r\nGrace Hopper',
      'basis:legalForm': 'GmbH',
      'basis:logoLight': 'https://cdn.example/light.svg',
    });
    expect(listed.status).toBe(303);
    const after = (await staff('GET', '/api/company')).body as { data: Record<string, unknown> };
    expect(after.data).toMatchObject({
      managingDirectors: ['Ada Lovelace', 'Grace Hopper'],
      legalForm: 'GmbH',
      logoLight: 'https://cdn.example/light.svg',
    });
    const shown = formFields((await b.request('GET', path)).html);
    expect(shown['basis:managingDirectors']).toBe('Ada Lovelace\nGrace Hopper');
    // Saving it untouched writes nothing.
    const revision = (after as unknown as { revision: number }).revision;
    expect((await b.request('POST', action, shown)).status).toBe(303);
    expect(((await staff('GET', '/api/company')).body as { revision: number }).revision).toBe(revision);
  });

  it('creates a channel from the settings page and deletes it; refuses a nameless one and deleting the main channel', async () => {
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const list = await b.request('GET', '/admin/settings');
    expect(list.html).toContain('New sales channel');
    const csrf = b.csrfOf(list.html);
    const nameless = await b.request('POST', '/admin/settings/channels', {
      csrf,
      'text:channel.name': '',
      'choice:channel.mode': 'headless',
      'language:de': 'on',
    });
    expect(nameless.status).toBe(422);
    expect(nameless.html).toMatch(/<p class="field-error" id="e-channel-name">Give the channel a name/);
    const noLanguage = await b.request('POST', '/admin/settings/channels', {
      csrf,
      'text:channel.name': 'Outlet',
    });
    expect(noLanguage.status).toBe(422);
    expect(noLanguage.html).toMatch(/<p class="field-error" id="e-channel-languages">/);
    expect(noLanguage.html).toContain('value="Outlet"');
    const before = ((await staff('GET', '/api/automation')).body.channels as unknown[]).length;

    const created = await b.request('POST', '/admin/settings/channels', {
      csrf,
      'text:channel.name': 'Outlet',
      'choice:channel.mode': 'headless',
      'language:de': 'on',
    });
    expect(created.status).toBe(303);
    const id = /\/admin\/settings\/channels\/([0-9a-f-]{36})\?saved=1$/.exec(created.location ?? '')?.[1];
    expect(id).toBeDefined();
    const read = await readOf(id!);
    expect(read.revision).toBe(1);
    expect(read.channel).toMatchObject({
      name: { en: 'Outlet' },
      mode: 'headless',
      languages: ['de'],
      domains: [],
    });
    expect(((await staff('GET', '/api/automation')).body.channels as unknown[]).length).toBe(before + 1);

    const page = await b.request('GET', `/admin/settings/channels/${id}`);
    expect(page.html).toContain('Delete this channel');
    const unconfirmed = await b.request('POST', `/admin/settings/channels/${id}/delete`, {
      csrf: b.csrfOf(page.html),
      revision: '1',
    });
    expect(unconfirmed.status).toBe(422);
    expect((await staff('GET', `/api/merchant/commerce/channels/${id}`)).status).toBe(200);
    const deleted = await b.request('POST', `/admin/settings/channels/${id}/delete`, {
      csrf: b.csrfOf(page.html),
      revision: '1',
      confirm: 'on',
    });
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe('/admin/settings?deleted=1');
    expect((await staff('GET', `/api/merchant/commerce/channels/${id}`)).status).toBe(404);
    expect((await b.request('GET', '/admin/settings?deleted=1')).html).toContain('The channel was deleted.');

    // The main channel has no delete form; a forged post gets the operation's refusal.
    const main = await b.request('GET', `/admin/settings/channels/${mainChannel}`);
    expect(main.html).not.toContain('Delete this channel');
    const refused = await b.request('POST', `/admin/settings/channels/${mainChannel}/delete`, {
      csrf: b.csrfOf(main.html),
      revision: String((await readOf(mainChannel)).revision),
      confirm: 'on',
    });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('The main channel cannot be deleted');
  });

  it('lists the own fields and company fields changed meanwhile when a save is stale, keeping the entries', async () => {
    const id = await extraChannel({
      domains: [{ url: 'https://one.example', language: 'en', currency: 'EUR' }],
    });
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const path = `/admin/settings/channels/${id}`;
    const fields = formFields((await b.request('GET', path)).html);
    // Someone renames the channel, changes its domain and overrides the VAT ID through the API.
    const current = await readOf(id);
    const other = await staff('PUT', `/api/merchant/commerce/channels/${id}`, {
      revision: current.revision,
      baseRevision: (await readOf(mainChannel)).baseRevision,
      channel: {
        ...current.channel,
        name: { en: 'Trade', de: 'Großhandel' },
        domains: [{ url: 'https://two.example', language: 'en', currency: 'EUR' }],
      },
      overrides: { company: { legal: { vatId: 'ATU1' } } },
    });
    expect(other.status).toBe(200);
    const stale = await b.request('POST', path, { ...fields, 'text:channel.name': 'Wholesale EU' });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('Name of the channel (English): now “Trade”, before “Wholesale”');
    expect(stale.html).toContain(
      'Domains: now “https://two.example (en, EUR)”, before “https://one.example (en, EUR)”',
    );
    expect(stale.html).toContain('VAT ID: now “ATU1”, before “DE123456789”');
    expect(stale.html).toContain('value="Wholesale EU"');
    expect((await readOf(id)).channel.name).toEqual({ en: 'Trade', de: 'Großhandel' });
  });

  it('shows a reader the own fields and company identity as text, with no create or delete form', async () => {
    const token = await h.readerToken('settings-reader@tea.example');
    const b = browser();
    expect((await b.signIn({ token })).status).toBe(303);
    const list = await b.request('GET', '/admin/settings');
    expect(list.status).toBe(200);
    expect(list.html).not.toContain('New sales channel');
    const id = await extraChannel({
      domains: [{ url: 'https://read.example', language: 'en', currency: 'EUR' }],
    });
    const page = await b.request('GET', `/admin/settings/channels/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/<input[^>]*name="(text|company|domain|basis):/);
    expect(page.html).not.toContain('Delete this channel');
    expect(page.html).toContain('https://read.example (English, EUR)');
    expect(page.html).toMatch(/VAT ID: DE123456789<span class="badge inherited">/);
    const forged = await b.request('POST', '/admin/settings/channels', {
      csrf: b.csrfOf(page.html),
      'text:channel.name': 'Nope',
      'language:en': 'on',
    });
    expect(forged.status).toBe(403);
  });

  it('names countries and subdivisions in the content language, marking each one it lacks', async () => {
    const countries = (await staff('GET', '/api/basis/countries')).body.items as {
      code: string;
      revision: number;
    }[];
    const germany = countries.find((country) => country.code === 'DE')!;
    expect(
      (
        await staff('PUT', '/api/basis/countries/DE', {
          revision: germany.revision,
          translations: { en: { name: 'Germany' }, de: { name: 'Deutschland' } },
          subdivisions: [
            { code: 'DE-BY', translations: { en: { name: 'Bavaria' }, de: { name: 'Bayern' } } },
            { code: 'DE-BE', translations: { en: { name: 'Berlin' } } },
          ],
          active: true,
        })
      ).status,
    ).toBe(200);
    const b = browser();
    expect((await b.signIn({ token: h.shopA.token })).status).toBe(303);
    const german = (await b.request('GET', `/admin/settings/channels/${mainChannel}?language=de`)).html;
    expect(german).toMatch(/<label for="f-country-DE" lang="de">Deutschland \(DE\)<\/label><\/div>/);
    expect(german).toContain('<li data-subdivision="DE-BY"><span lang="de">Bayern</span></li>');
    expect(german).toMatch(
      /<li data-subdivision="DE-BE"><span lang="en">Berlin<\/span><span class="badge fallback">/,
    );
    const english = (await b.request('GET', `/admin/settings/channels/${mainChannel}?language=en`)).html;
    expect(english).toContain('<li data-subdivision="DE-BY"><span lang="en">Bavaria</span></li>');
    expect(english).toContain('<li data-subdivision="DE-BE"><span lang="en">Berlin</span></li>');
  });
});
