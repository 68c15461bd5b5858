import {
  type Database,
  deleteUnsettledEffectReceipts,
  findEffectReceipts,
  insertPendingEffectReceipts,
  saveCompanyIdentity,
} from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { type SmtpFixture, startSmtpFixture } from '@cartwright/tooling/smtp-fixture';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentOrder, documentOrderOf } from '../src/documents/order-snapshot.ts';
import type { MailMessage, MailResult } from '../src/kernel/mailer.ts';
import { createServices, type Services } from '../src/kernel/services.ts';
import { mailServicesOf } from '../src/mail/config.ts';
import { confirmationLanguage, renderOrderConfirmation } from '../src/mail/order-confirmation.ts';
import { mailMessageId, mailReceiptKey, sendOrderConfirmation } from '../src/mail/send-order-confirmation.ts';
import { createShop } from '../src/shop/shops.ts';
import { insertTestOrder } from '../src/testing.ts';

// Issue 15, item 7 (below the app lifecycle): the order confirmation goes through the SMTP adapter
// to a loopback SMTP server, in the order's language, at most once per step key; the server's
// failures answer stable codes; the credentials of SMTP_URL never appear in an answer.

const FROM = 'orders@cartwright.test';
const USER = 'smtp-user@cartwright.test';
const PASSWORD = 'S3cret:pass/word';
/** Timeouts a loaded machine cannot trip; the tests of a silent server shorten the one they test. */
const PATIENT = { connectionTimeoutMs: 10_000, greetingTimeoutMs: 10_000, socketTimeoutMs: 10_000 };
const SHORT_GREETING = { ...PATIENT, greetingTimeoutMs: 200 };
const SHORT_SILENCE = { ...PATIENT, socketTimeoutMs: 500 };

let database: Database;
let base: Services;
let tenantId: string;
let fixture: SmtpFixture;

/** Services whose mailer sends to `url` (the fixture's, with its credentials, by default). */
function servicesFor(url = fixture.url, timeouts = PATIENT): Services {
  return { ...base, mail: mailServicesOf({ SMTP_URL: url, MAIL_FROM: FROM }, timeouts) };
}

const stepKey = () => `flow:${base.ids.next()}:confirm`;

/** Every text a failure answer carries, for checks that a credential is absent. */
function credentialsIn(answer: unknown): string[] {
  const text = JSON.stringify(answer);
  return [USER, PASSWORD, encodeURIComponent(USER), encodeURIComponent(PASSWORD)].filter((secret) =>
    text.includes(secret),
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  base = createServices(database);
  const shop = await createShop(base, { name: 'Mail shop', ownerEmail: 'owner@mail.test' });
  tenantId = shop.tenantId;
  await database.transaction((tx) =>
    saveCompanyIdentity(
      tx,
      tenantId,
      0,
      { name: 'Musterfirma GmbH', email: 'hallo@musterfirma.example' },
      base.clock.now(),
    ),
  );
});
afterAll(async () => database?.close());

afterEach(async () => fixture?.close());

describe('sendOrderConfirmation through the SMTP adapter', () => {
  it('delivers one message in German for a German order, money in the order currency', async () => {
    fixture = await startSmtpFixture({ auth: { user: USER, password: PASSWORD } });
    const services = servicesFor();
    const order = await insertTestOrder(services, tenantId, { language: 'de-DE' });
    const key = stepKey();

    const sent = await sendOrderConfirmation(services, tenantId, order.id, key);

    expect(sent).toEqual({
      ok: true,
      value: {
        template: 'order_confirmation',
        messageId: mailMessageId(tenantId, key, FROM),
        language: 'de',
        response: expect.stringMatching(/^250 /),
        replayed: false,
      },
    });
    expect(fixture.messages).toHaveLength(1);
    const [mail] = fixture.messages;
    expect(mail!.envelope).toEqual({ mailFrom: FROM, rcptTo: ['erika@example.test'] });
    expect(mail!.user).toBe(USER);
    expect(mail!.messageId).toBe(mailMessageId(tenantId, key, FROM));
    expect(mail!.messageId).toMatch(/^<cw\.[0-9a-f]{32}@cartwright\.test>$/);
    expect(mail!.subject).toBe(`Bestellbestätigung ${order.number} – Musterfirma GmbH`);
    expect(mail!.from).toBe(`Musterfirma GmbH <${FROM}>`);
    expect(mail!.headers['reply-to']).toEqual(['hallo@musterfirma.example']);
    expect(mail!.headers['content-language']).toEqual(['de']);
    expect(mail!.headers['auto-submitted']).toEqual(['auto-generated']);
    const text = mail!.text!;
    expect(text).toContain('Guten Tag Erika Mustermann,');
    expect(text).toContain('vielen Dank für Ihre Bestellung bei Musterfirma GmbH.');
    expect(text).toContain(`Bestellnr.: ${order.number}`);
    expect(text).toContain('1 × The Cartwright Handbook (e-book): 19.99 EUR (Einzelpreis 19.99 EUR)');
    expect(text).toContain('2 × Enamel mug “Cartwright” (blue): 25.00 EUR (Einzelpreis 12.50 EUR)');
    expect(text).toContain('Zwischensumme: 44.99 EUR');
    expect(text).toContain('Versand: 4.99 EUR');
    expect(text).toContain('USt. 19 %: ');
    expect(text).toContain('Gesamtbetrag: 49.98 EUR');
    expect(text).toContain('Mit freundlichen Grüßen');
    expect(text).not.toMatch(/Order|Total|Shipping/);
    expect(mail!.html).toContain('<html lang="de">');
    expect(mail!.html).toContain('Enamel mug “Cartwright” (blue)');
    expect(mail!.html).toContain('<strong>49.98 EUR</strong>');
  });

  it('delivers English for an English order', async () => {
    fixture = await startSmtpFixture();
    const services = servicesFor();
    const order = await insertTestOrder(services, tenantId, { language: 'en' });
    const sent = await sendOrderConfirmation(services, tenantId, order.id, stepKey());
    expect(sent.ok && sent.value.language).toBe('en');
    const [mail] = await fixture.waitForMessages(1);
    expect(mail!.subject).toBe(`Order confirmation ${order.number} – Musterfirma GmbH`);
    expect(mail!.text).toContain('Hello Erika Mustermann,');
    expect(mail!.text).toContain('2 × Enamel mug “Cartwright” (blue): 25.00 EUR (Unit price 12.50 EUR)');
    expect(mail!.text).toContain('Shipping: 4.99 EUR');
    expect(mail!.text).toContain('Total: 49.98 EUR');
    expect(mail!.user).toBeNull();
  });

  it('sends once per step key: a replayed step sends nothing more and answers the first send', async () => {
    fixture = await startSmtpFixture();
    const services = servicesFor();
    const order = await insertTestOrder(services, tenantId, { language: 'de' });
    const key = stepKey();
    const first = await sendOrderConfirmation(services, tenantId, order.id, key);
    const again = await sendOrderConfirmation(services, tenantId, order.id, key);
    expect(first.ok).toBe(true);
    expect(again).toEqual({ ok: true, value: { ...(first.ok ? first.value : {}), replayed: true } });
    expect(fixture.messages).toHaveLength(1);
    // The send's own receipt, in the step's scope beside the step's receipt (which the executor keeps).
    expect(mailReceiptKey(key)).toBe(`flow:${key.split(':')[1]}/mail:confirm`);
    const [receipt] = await findEffectReceipts(database.db, tenantId, [mailReceiptKey(key)]);
    expect(receipt).toMatchObject({
      status: 'confirmed',
      scope: 'flow',
      scopeId: key.split(':')[1],
      step: 'confirm',
    });

    // Calls racing on one step key: one sends, the others send nothing.
    const raced = stepKey();
    const answers = await Promise.all(
      [1, 2, 3].map(() => sendOrderConfirmation(services, tenantId, order.id, raced)),
    );
    expect(answers.filter((answer) => answer.ok && !answer.value.replayed)).toHaveLength(1);
    expect(fixture.messages).toHaveLength(2);

    // Another step is another message, with another Message-ID.
    expect((await sendOrderConfirmation(services, tenantId, order.id, stepKey())).ok).toBe(true);
    expect(new Set(fixture.messages.map((mail) => mail.messageId)).size).toBe(3);
  });

  it('sends nothing while an earlier send of the step has an unknown outcome (MAIL_UNCERTAIN)', async () => {
    fixture = await startSmtpFixture();
    const services = servicesFor();
    const order = await insertTestOrder(services, tenantId);
    const key = stepKey();
    // What a worker lost inside the send leaves behind.
    await insertPendingEffectReceipts(database.db, [
      { tenantId, key: mailReceiptKey(key), scope: 'flow', scopeId: key.split(':')[1]!, step: 'confirm' },
    ]);
    const answer = await sendOrderConfirmation(services, tenantId, order.id, key);
    expect(answer).toMatchObject({ ok: false, code: 'MAIL_UNCERTAIN' });
    expect(fixture.connections).toBe(0);
  });

  it('answers MAIL_REFUSED for a 550, keeps the failure, and sends again only after the step is retried', async () => {
    fixture = await startSmtpFixture({ auth: { user: USER, password: PASSWORD } });
    const services = servicesFor();
    const order = await insertTestOrder(services, tenantId);
    const key = stepKey();
    fixture.failNext({
      stage: 'rcpt',
      kind: 'reply',
      code: 550,
      message: '5.1.1 <erika@example.test>: unknown user',
    });

    const refused = await sendOrderConfirmation(services, tenantId, order.id, key);
    expect(refused).toMatchObject({
      ok: false,
      code: 'MAIL_REFUSED',
      detail: expect.stringContaining('5.1.1 <erika@example.test>: unknown user'),
      extensions: { responseCode: 550 },
    });
    expect(credentialsIn(refused)).toEqual([]);
    expect(fixture.messages).toHaveLength(0);

    const connections = fixture.connections;
    const repeated = await sendOrderConfirmation(services, tenantId, order.id, key);
    expect(repeated).toMatchObject({
      ok: false,
      code: 'MAIL_REFUSED',
      detail: expect.stringContaining('unknown user'),
    });
    expect(fixture.connections).toBe(connections);

    // A flow job's explicit retry clears its unsettled receipts, this one included.
    await deleteUnsettledEffectReceipts(database.db, tenantId, 'flow', key.split(':')[1]!);
    const retried = await sendOrderConfirmation(services, tenantId, order.id, key);
    expect(retried.ok).toBe(true);
    expect(fixture.messages.map((mail) => mail.messageId)).toEqual([mailMessageId(tenantId, key, FROM)]);
  });

  it('answers NOT_FOUND for an unknown order and MAIL_NOT_CONFIGURED without SMTP_URL, writing nothing', async () => {
    fixture = await startSmtpFixture();
    const key = stepKey();
    expect(await sendOrderConfirmation(servicesFor(), tenantId, base.ids.next(), key)).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    const order = await insertTestOrder(base, tenantId);
    expect(await sendOrderConfirmation(base, tenantId, order.id, key)).toMatchObject({
      ok: false,
      code: 'MAIL_NOT_CONFIGURED',
    });
    expect(await findEffectReceipts(database.db, tenantId, [mailReceiptKey(key)])).toEqual([]);
    await expect(sendOrderConfirmation(base, tenantId, order.id, 'order-42')).rejects.toThrow(RangeError);
  });
});

describe('the SMTP adapter’s failures', () => {
  const message: MailMessage = {
    to: 'buyer@example.test',
    from: { name: 'Shop', address: FROM },
    subject: 'Test',
    text: 'Hello',
    messageId: '<cw.test@cartwright.test>',
  };
  const send = (url = fixture.url, timeouts = PATIENT): Promise<MailResult> =>
    servicesFor(url, timeouts).mail.mailer.send(message);

  it('answers MAIL_UNAVAILABLE for a 451, a 421 greeting and a dropped connection, never with a credential', async () => {
    fixture = await startSmtpFixture({ auth: { user: USER, password: PASSWORD } });
    fixture.failNext({ stage: 'rcpt', kind: 'reply', code: 451, message: '4.7.1 Greylisted, try again' });
    const greylisted = await send();
    expect(greylisted).toEqual({
      ok: false,
      code: 'MAIL_UNAVAILABLE',
      detail:
        'The mail server could not take the message now. The server answered: 451 4.7.1 Greylisted, try again',
      responseCode: 451,
    });
    fixture.failNext({ stage: 'connect', kind: 'reply', code: 421 });
    expect(await send()).toMatchObject({ ok: false, code: 'MAIL_UNAVAILABLE', responseCode: 421 });
    fixture.failNext({ stage: 'data', kind: 'drop', performs: true });
    const dropped = await send();
    expect(dropped).toMatchObject({ ok: false, code: 'MAIL_UNAVAILABLE', responseCode: null });
    expect(fixture.messages).toHaveLength(1);
    fixture.failNext({ stage: 'data', kind: 'reply', code: 554, message: `5.6.0 rejected ${PASSWORD}` });
    const rejected = await send();
    expect(rejected).toMatchObject({ ok: false, code: 'MAIL_REFUSED', responseCode: 554 });
    expect(rejected.ok || rejected.detail).toContain('[redacted]');
    for (const answer of [greylisted, dropped, rejected]) expect(credentialsIn(answer)).toEqual([]);
  });

  it('answers MAIL_REFUSED for a refused login without naming the credentials', async () => {
    fixture = await startSmtpFixture({ auth: { user: USER, password: 'another password' } });
    const url = `smtp://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${fixture.port}`;
    const answer = await send(url);
    expect(answer).toMatchObject({
      ok: false,
      code: 'MAIL_REFUSED',
      detail: expect.stringMatching(/^The mail server refused the login of SMTP_URL\./),
      responseCode: 535,
    });
    expect(credentialsIn(answer)).toEqual([]);
    expect(fixture.logins).toEqual([expect.objectContaining({ user: USER, accepted: false })]);
  });

  it('answers MAIL_UNAVAILABLE for a dead port and for a silent server, within the configured timeouts', async () => {
    fixture = await startSmtpFixture();
    const dead = await startSmtpFixture();
    await dead.close();
    expect(
      await send(`smtp://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${dead.port}`),
    ).toEqual({
      ok: false,
      code: 'MAIL_UNAVAILABLE',
      detail: 'The mail server refused the connection.',
      responseCode: null,
    });

    fixture.failNext({ stage: 'connect', kind: 'hang' });
    let started = Date.now();
    expect(await send(fixture.url, SHORT_GREETING)).toEqual({
      ok: false,
      code: 'MAIL_UNAVAILABLE',
      detail: 'The mail server sent no greeting in time.',
      responseCode: null,
    });
    // The short timeout ended it, not the 10 s ones (nor nodemailer's own 30 s).
    expect(Date.now() - started).toBeLessThan(9000);

    fixture.failNext({ stage: 'data', kind: 'hang' });
    started = Date.now();
    expect(await send(fixture.url, SHORT_SILENCE)).toEqual({
      ok: false,
      code: 'MAIL_UNAVAILABLE',
      detail: 'The mail server stopped answering; the message may not have been taken.',
      responseCode: null,
    });
    expect(Date.now() - started).toBeLessThan(9000);
  });
});

describe('renderOrderConfirmation', () => {
  it('picks the order’s language, its base language, the shop’s main language, then English', () => {
    expect(confirmationLanguage('de', 'en')).toBe('de');
    expect(confirmationLanguage('de-CH', 'en')).toBe('de');
    expect(confirmationLanguage('it', 'fr')).toBe('fr');
    expect(confirmationLanguage('it-CH', 'es-MX')).toBe('es');
    expect(confirmationLanguage('it', 'nl')).toBe('en');
  });

  it('writes Spanish and French, and lists the order’s promotions in its language', async () => {
    const row = await insertTestOrder(base, tenantId, { language: 'fr' });
    const order = documentOrderOf(row);
    const promoted: DocumentOrder = {
      ...order,
      price: {
        ...order.price,
        promotions: [
          { name: { en: 'Summer sale', fr: 'Soldes d’été' }, amount: { net: -420, tax: -80, gross: -500 } },
          { name: { de: 'Treuerabatt' }, amount: { net: -84, tax: -16, gross: -100 } },
        ],
      },
    };
    const shop = { name: 'Boutique', mainLanguage: 'en', email: null };
    const french = renderOrderConfirmation(promoted, 'fr', shop);
    expect(french.language).toBe('fr');
    expect(french.subject).toBe(`Confirmation de commande ${order.number} – Boutique`);
    expect(french.text).toContain('Bonjour Erika Mustermann,');
    expect(french.text).toContain('Soldes d’été: -5.00 EUR');
    expect(french.text).toContain('Treuerabatt: -1.00 EUR');
    expect(french.text).toContain('Total TTC: 49.98 EUR');
    expect(french.text).not.toContain('Des questions');

    const spanish = renderOrderConfirmation(order, 'es-MX', { ...shop, email: 'hola@boutique.example' });
    expect(spanish.language).toBe('es');
    expect(spanish.subject).toBe(`Confirmación del pedido ${order.number} – Boutique`);
    expect(spanish.text).toContain('Envío: 4.99 EUR');
    expect(spanish.text).toContain('¿Preguntas? Escríbanos a hola@boutique.example');
    expect(spanish.text).not.toMatch(/Descuento/);

    const fallback = renderOrderConfirmation(order, 'it', { ...shop, mainLanguage: 'de' });
    expect(fallback.language).toBe('de');
  });

  it('escapes the HTML part and keeps the subject on one line', async () => {
    const order = documentOrderOf(await insertTestOrder(base, tenantId));
    const mail = renderOrderConfirmation(
      { ...order, lines: order.lines.map((line) => ({ ...line, name: '<script>alert(1)</script>' })) },
      'en',
      { name: 'A & B\r\nBcc: victim@example.test', mainLanguage: 'en' },
    );
    expect(mail.subject).toBe(`Order confirmation ${order.number} – A & B Bcc: victim@example.test`);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('A &amp; B');
  });
});
