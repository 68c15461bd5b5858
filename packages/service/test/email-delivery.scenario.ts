import {
  type Database,
  findEffectReceipts,
  findOrder,
  insertProduct,
  listRecentFlowJobs,
} from '@cartwright/repository';
import { type SmtpFixture, startSmtpFixture } from '@cartwright/tooling/smtp-fixture';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_PARTY_MANIFESTS } from '../src/apps/first-party.ts';
import { checkout } from '../src/checkout/checkout.ts';
import { type ExecutorOptions, runDueJobs } from '../src/flows/executor.ts';
import { flowMatchingProjection } from '../src/flows/matching.ts';
import { createServices, invokeOperation, operations, type Services } from '../src/index.ts';
import type { Principal } from '../src/kernel/auth.ts';
import { mailServicesOf } from '../src/mail/config.ts';
import { mailMessageId, mailReceiptKey } from '../src/mail/send-order-confirmation.ts';
import { consumeOnce } from '../src/outbox/projections.ts';
import { createShop } from '../src/shop/shops.ts';
import { adminPrincipal, makeSellable, readyVisitor, SELLABLE, type SellableShop } from '../src/testing.ts';

// The Email Delivery app end to end inside the service (issue 15, item 7; decision 0037): with
// the app installed, a flow's `action.mail.send` (template order_confirmation) sends the placed
// order's confirmation through SMTP to a loopback server, in the order's language, once per step;
// run again, replayed or retried after a lost worker, the step sends nothing more. Shared by
// email-delivery.test.ts (PGlite, or PostgreSQL with DATABASE_URL) and
// email-delivery.postgres.test.ts (a pool of several connections).

const FROM = 'orders@cartwright.test';
const TEA = '0190f0c8-0000-7000-8000-0000000e1001';
const FLOW = (n: number) => `0190f0c8-0000-7000-8000-0000000e20${String(n).padStart(2, '0')}`;
/** Timeouts a loaded machine cannot trip. */
const PATIENT = { connectionTimeoutMs: 10_000, greetingTimeoutMs: 10_000, socketTimeoutMs: 10_000 };

export interface EmailDeliveryWorld {
  readonly database: Database;
  close(): Promise<void>;
}

interface Shop extends SellableShop {
  readonly principal: Principal;
}

/**
 * The scenarios, on the database `open` answers (a fresh one for the file). `racingRunners` adds
 * two flow runners moving many orders' jobs at once (PostgreSQL: sessions that run side by side).
 */
export function emailDeliveryScenarios(
  open: () => Promise<EmailDeliveryWorld>,
  options: { readonly racingRunners?: boolean } = {},
): void {
  let world: EmailDeliveryWorld;
  let database: Database;
  let services: Services;
  let fixture: SmtpFixture;
  /** A German shop with Email Delivery installed, and one without it. */
  let installed: Shop;
  let missing: Shop;
  const worker = { owner: 'mail-worker', leaseMs: 30_000, batchSize: 20 };

  async function call(shop: Shop, name: string, input: unknown) {
    const operation = operations.find((candidate) => candidate.name === name)!;
    const result = await invokeOperation(services, operation, shop.principal, input);
    if (!result.ok) throw new Error(`${name}: ${result.code} ${result.detail}`);
    return result.value as Record<string, unknown>;
  }

  async function germanShop(name: string): Promise<Shop> {
    const { tenantId } = await createShop(services, { name, mainLanguage: 'de' });
    const sellable = await makeSellable(services, tenantId);
    await database.transaction((tx) =>
      insertProduct(
        tx,
        tenantId,
        {
          id: TEA,
          sku: 'TEE',
          translations: { de: { name: 'Tee' }, en: { name: 'Tea' } },
          prices: [{ currency: 'EUR', gross: 1000, net: 840 }],
          taxClassId: SELLABLE.standardTax,
          stockAvailable: 1000,
        },
        services.clock.now(),
      ),
    );
    return { ...sellable, principal: (await adminPrincipal(services, tenantId, 'mail')).principal };
  }

  /** Turns committed events into jobs, then runs due jobs until none is left. */
  async function work(options: Partial<ExecutorOptions> = {}) {
    const owner = options.owner ?? worker.owner;
    const lease = { owner, leaseMs: 30_000, batchSize: 100, maxBatches: 10 };
    while ((await consumeOnce(services, flowMatchingProjection, lease)).tenantId) {
      // until no shop has events left
    }
    while ((await runDueJobs(services, { ...worker, ...options })) > 0) {
      // until nothing is due
    }
  }

  async function placeOrder(shop: Shop) {
    const { context } = await readyVisitor(services, shop, { [TEA]: 2 });
    const placed = await checkout(services, shop.tenantId, context, undefined);
    if (!placed.ok) throw new Error(placed.detail);
    return (await findOrder(database.db, shop.tenantId, placed.value.id))!;
  }

  /** Saves an active flow on order.placed: mail the confirmation, then tag the order `mailed`. */
  async function saveMailFlow(shop: Shop, id: string, config: Record<string, unknown>) {
    await call(shop, 'automation.save', {
      kind: 'flows',
      id,
      revision: 0,
      data: {
        name: { en: 'Confirm orders by mail' },
        trigger: 'order.placed',
        condition: null,
        pipeline: {
          entry: 'mail',
          nodes: [
            { id: 'mail', kind: 'action', action: 'action.mail.send', config, next: 'tag' },
            {
              id: 'tag',
              kind: 'action',
              action: 'action.add.order.tag',
              config: { tags: ['mailed'] },
              next: null,
            },
          ],
        },
      },
    });
  }

  /** Deactivates a flow saved once by this file (its revision is 1). */
  async function deactivate(shop: Shop, id: string) {
    const [job] = (await listRecentFlowJobs(database.db, shop.tenantId, 100)).filter(
      (row) => row.flowId === id,
    );
    await call(shop, 'automation.save', {
      kind: 'flows',
      id,
      revision: 1,
      active: false,
      data: job!.definition.flow,
    });
  }

  async function jobOf(shop: Shop, flowId: string, orderId: string) {
    const jobs = await listRecentFlowJobs(database.db, shop.tenantId, 100);
    return jobs.find(
      (job) => job.flowId === flowId && (job.subject as { orderId?: string }).orderId === orderId,
    )!;
  }

  /** The messages the loopback server received for an order's customer. */
  function messagesTo(address: string) {
    return fixture.messages.filter((mail) => mail.envelope.rcptTo.includes(address));
  }

  const stepKeyOf = (jobId: string) => `flow:${jobId}:mail`;

  beforeAll(async () => {
    world = await open();
    database = world.database;
    fixture = await startSmtpFixture();
    services = {
      ...createServices(database),
      mail: mailServicesOf({ SMTP_URL: fixture.url, MAIL_FROM: FROM }, PATIENT),
    };
    installed = await germanShop('Teehaus Köln');
    missing = await germanShop('Ohne Mail');
    const answer = await call(installed, 'apps.install', {
      appId: 'email_delivery',
      revision: 0,
      manifest: FIRST_PARTY_MANIFESTS.email_delivery,
    });
    expect(answer).toMatchObject({ change: 'installed', app: { appId: 'email_delivery', version: '1.0.0' } });
  });
  afterAll(async () => {
    await fixture?.close();
    await world?.close();
  });

  describe('action.mail.send with Email Delivery installed', () => {
    it('delivers one German confirmation to the customer of a German order; running again or replaying the step sends nothing more', async () => {
      await saveMailFlow(installed, FLOW(1), { templateId: 'order_confirmation' });
      const order = await placeOrder(installed);
      expect(order.language).toBe('de');
      const to = (order.customer as { email: string }).email;
      await work();

      const [mail, ...more] = messagesTo(to);
      expect(more).toEqual([]);
      expect(mail!.envelope).toEqual({ mailFrom: FROM, rcptTo: [to] });
      expect(mail!.subject).toBe(`Bestellbestätigung ${order.number} – Teehaus Köln`);
      expect(mail!.headers['content-language']).toEqual(['de']);
      expect(mail!.text).toContain('Guten Tag Ada Lovelace,');
      expect(mail!.text).toContain('2 × Tee: 20.00 EUR (Einzelpreis 10.00 EUR)');
      expect(mail!.text).toContain('Gesamtbetrag: 24.90 EUR');

      const job = await jobOf(installed, FLOW(1), order.id);
      const key = stepKeyOf(job.id);
      expect(job.status).toBe('finished');
      expect(mail!.messageId).toBe(mailMessageId(installed.tenantId, key, FROM));
      const result = {
        template: 'order_confirmation',
        messageId: mail!.messageId,
        to,
        language: 'de',
        replayed: false,
      };
      expect(job.trace.find((entry) => entry.node === 'mail')).toMatchObject({
        outcome: 'ok',
        next: 'tag',
        detail: result,
      });
      expect((await findOrder(database.db, installed.tenantId, order.id))!.tags).toEqual(['mailed']);
      const receipts = await findEffectReceipts(database.db, installed.tenantId, [key, mailReceiptKey(key)]);
      expect(receipts.map((receipt) => receipt.status)).toEqual(['confirmed', 'confirmed']);
      // The step's result holds no server reply and nothing of SMTP_URL.
      expect(receipts.find((receipt) => receipt.key === key)!.result).toEqual(result);

      // The flow runner again: nothing is due, nothing is sent.
      await work();
      expect(messagesTo(to)).toHaveLength(1);

      // The job walks over the step again (as after a worker that lost it once the step had
      // committed): its confirmed receipt replays the result, no mail goes out.
      await database.rows(sql`
        update flow_jobs set status = 'queued', current_node = 'mail', finished_at = null,
          available_at = now(), lease_owner = null, lease_expires_at = null
        where tenant_id = ${installed.tenantId} and id = ${job.id}`);
      await work();
      const replayed = await jobOf(installed, FLOW(1), order.id);
      expect(replayed.status).toBe('finished');
      expect(replayed.trace.filter((entry) => entry.node === 'mail').map((entry) => entry.outcome)).toEqual([
        'ok',
        'replayed',
      ]);
      expect(messagesTo(to)).toHaveLength(1);
      await deactivate(installed, FLOW(1));
    });

    it('leaves the job uncertain when the worker is lost after the mail went out; the merchant’s retry sends nothing more', async () => {
      await saveMailFlow(installed, FLOW(2), { templateId: 'order_confirmation' });
      const order = await placeOrder(installed);
      const to = (order.customer as { email: string }).email;
      // The worker dies once the mail is out, before the step's transaction (its lease is short).
      const lost = work({
        owner: 'doomed',
        leaseMs: 300,
        afterOutside: (key) =>
          key.endsWith(':mail') ? Promise.reject(new Error('worker lost')) : Promise.resolve(),
      });
      await expect(lost).rejects.toThrow('worker lost');
      expect(messagesTo(to)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await work({ owner: 'rescuer' });
      const job = await jobOf(installed, FLOW(2), order.id);
      expect(job).toMatchObject({
        status: 'uncertain',
        currentNode: 'mail',
        error: { code: 'STEP_UNCERTAIN', node: 'mail' },
      });

      await call(installed, 'automation.executions.resolve', { id: job.id, resolution: 'retry' });
      await work({ owner: 'rescuer' });
      const retried = await jobOf(installed, FLOW(2), order.id);
      expect(retried.status).toBe('finished');
      // The mail's own receipt stayed confirmed through the retry: its result is answered again.
      expect(retried.trace.filter((entry) => entry.node === 'mail').at(-1)).toMatchObject({
        outcome: 'ok',
        detail: { to, language: 'de', replayed: true },
      });
      expect(messagesTo(to)).toHaveLength(1);
      await deactivate(installed, FLOW(2));
    });

    it('fails the step with MAIL_REFUSED when the server refuses the recipient, and sends nothing', async () => {
      await saveMailFlow(installed, FLOW(3), { templateId: 'order_confirmation' });
      const order = await placeOrder(installed);
      const to = (order.customer as { email: string }).email;
      fixture.failNext({ stage: 'rcpt', kind: 'reply', code: 550, message: '5.1.1 unknown user' });
      await work();
      const job = await jobOf(installed, FLOW(3), order.id);
      expect(job).toMatchObject({
        status: 'failed',
        currentNode: 'mail',
        error: { code: 'MAIL_REFUSED', node: 'mail' },
      });
      expect(job.error!.message).toContain('5.1.1 unknown user');
      expect(messagesTo(to)).toEqual([]);
      expect((await findOrder(database.db, installed.tenantId, order.id))!.tags).toEqual([]);
      const key = stepKeyOf(job.id);
      const [step] = await findEffectReceipts(database.db, installed.tenantId, [key]);
      expect(step).toMatchObject({ status: 'failed', result: { code: 'MAIL_REFUSED' } });
      await deactivate(installed, FLOW(3));
    });

    it('leaves the job uncertain when the server is unavailable (MAIL_UNAVAILABLE); a retry sends it once', async () => {
      await saveMailFlow(installed, FLOW(4), { templateId: 'order_confirmation' });
      const order = await placeOrder(installed);
      const to = (order.customer as { email: string }).email;
      fixture.failNext({ stage: 'connect', kind: 'reply', code: 421, message: '4.3.2 shutting down' });
      const uncertain: string[] = [];
      await work({ onUncertain: (job) => uncertain.push(job.jobId) });
      const job = await jobOf(installed, FLOW(4), order.id);
      expect(job).toMatchObject({
        status: 'uncertain',
        currentNode: 'mail',
        error: { code: 'MAIL_UNAVAILABLE', node: 'mail' },
      });
      expect(uncertain).toEqual([job.id]);
      expect(messagesTo(to)).toEqual([]);

      await call(installed, 'automation.executions.resolve', { id: job.id, resolution: 'retry' });
      await work();
      expect((await jobOf(installed, FLOW(4), order.id)).status).toBe('finished');
      expect(messagesTo(to)).toHaveLength(1);
      await deactivate(installed, FLOW(4));
    });

    it('sends once when another action of the same batch refuses and the batch moves again', async () => {
      await saveMailFlow(installed, FLOW(5), { templateId: 'order_confirmation' });
      await call(installed, 'automation.save', {
        kind: 'flows',
        id: FLOW(6),
        revision: 0,
        data: {
          // Flows may not mark an order paid: this action always refuses (TRANSITION_REFUSED).
          name: { en: 'Refuses' },
          trigger: 'order.placed',
          condition: null,
          pipeline: {
            entry: 'state',
            nodes: [
              {
                id: 'state',
                kind: 'action',
                action: 'action.set.order.state',
                config: { kind: 'payment', state: 'paid' },
                next: null,
              },
            ],
          },
        },
      });
      const order = await placeOrder(installed);
      const to = (order.customer as { email: string }).email;
      await work();
      expect((await jobOf(installed, FLOW(6), order.id)).status).toBe('failed');
      expect((await jobOf(installed, FLOW(5), order.id)).status).toBe('finished');
      expect(messagesTo(to)).toHaveLength(1);
      await deactivate(installed, FLOW(5));
      await deactivate(installed, FLOW(6));
    });
  });

  if (options.racingRunners) {
    describe('two flow runners at once', () => {
      it('send each order’s confirmation once, while outside parts of a batch run side by side', async () => {
        await saveMailFlow(installed, FLOW(8), { templateId: 'order_confirmation' });
        const orders = [];
        for (let index = 0; index < 12; index += 1) orders.push(await placeOrder(installed));
        while (
          (
            await consumeOnce(services, flowMatchingProjection, {
              owner: 'm',
              leaseMs: 30_000,
              batchSize: 100,
              maxBatches: 10,
            })
          ).tenantId
        ) {
          // until no shop has events left
        }
        const runner = async (owner: string) => {
          while ((await runDueJobs(services, { owner, leaseMs: 30_000, batchSize: 5 })) > 0) {
            // until nothing is due
          }
        };
        await Promise.all([runner('first'), runner('second')]);
        for (const order of orders) {
          const to = (order.customer as { email: string }).email;
          expect(messagesTo(to)).toHaveLength(1);
          expect((await jobOf(installed, FLOW(8), order.id)).status).toBe('finished');
        }
        await deactivate(installed, FLOW(8));
      });
    });
  }

  describe('action.mail.send without Email Delivery', () => {
    it('fails the step with APP_NOT_INSTALLED and sends nothing', async () => {
      await saveMailFlow(missing, FLOW(7), { templateId: 'order_confirmation' });
      const connections = fixture.connections;
      const order = await placeOrder(missing);
      await work();
      const job = await jobOf(missing, FLOW(7), order.id);
      expect(job).toMatchObject({
        status: 'failed',
        currentNode: 'mail',
        error: { code: 'APP_NOT_INSTALLED', node: 'mail' },
      });
      expect(job.error!.message).toContain('Email Delivery app');
      expect(fixture.connections).toBe(connections);
      const key = stepKeyOf(job.id);
      const receipts = await findEffectReceipts(database.db, missing.tenantId, [key, mailReceiptKey(key)]);
      expect(receipts).toMatchObject([{ key, status: 'failed', result: { code: 'APP_NOT_INSTALLED' } }]);
      await deactivate(missing, FLOW(7));
    });
  });
}
