import {
  ATTEMPT_EVENT_TYPES,
  decideWebhookEvent,
  openRefundLedger,
  type PaymentEffect,
  type ProviderWebhookEvent,
  REFUND_EVENT_TYPES,
} from '@cartwright/payment-ledger';
import {
  type Executor,
  findPaymentAttempt,
  findPaymentAttemptByProviderOrder,
  findWebhookEvent,
  hasQueuedPaymentJob,
  listPaymentAttemptsInStatus,
  markWebhookEvent,
  type PaymentAttemptRow,
  type PaymentJobRow,
  queuePaymentJob,
  settlePaymentJob,
  storeWebhookEvent,
} from '@cartwright/repository';
import * as v from 'valibot';
import { fail, ok, type Result } from '../kernel/errors.ts';
import type { ProviderWebhookDelivery } from '../kernel/payment-provider.ts';
import type { Services } from '../kernel/services.ts';
import { type LoadedAttempt, loadAttempt, storeDecision } from './attempts.ts';
import { readRefund } from './paypal/mapping.ts';
import { PAYPAL_PROVIDER } from './providers.ts';

// The provider's webhooks (contract §5, §9.6): verified first through the provider's
// verification endpoint with the shop's own account (anything but a definite SUCCESS is refused
// and nothing is stored), then kept in an inbox with one row per provider event id (a redelivery
// changes nothing) and applied by the payment-worker's `webhook` job. Events are triggers: order
// and capture events only ask for a reconciliation, which reads the provider again; refund events
// are merged into the refund ledger, which is monotone. Every decision is the ledger's
// (`decideWebhookEvent`), stored under the attempt's row lock.

/** Largest webhook body the host reads (the provider's JSON answers have the same limit). */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

/** How many times a webhook job is tried before its event is ignored for good. */
export const WEBHOOK_MAX_TRIES = 10;

/** The pause before a deferred event is tried again: 1 s, 2 s, 4 s … at most 5 minutes. */
export function webhookRetryPauseMs(tries: number): number {
  return Math.min(2 ** Math.max(0, tries - 1) * 1000, 300_000);
}

/** How many recent attempts a refund event's capture is looked for in. */
const CAPTURE_SEARCH_LIMIT = 500;
/** Statuses of attempts that may hold the capture a refund event names. */
const CAPTURE_HOLDING_STATUSES = ['captured', 'review', 'pending_capture', 'capturing', 'uncertain'];

const EventId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,128}$/));
const EventType = v.pipe(v.string(), v.regex(/^[A-Z0-9._-]{1,100}$/));
const ProviderId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/));
const CustomId = v.pipe(v.string(), v.minLength(1), v.maxLength(127));
const Uuid = v.pipe(v.string(), v.uuid());

const Envelope = v.object({
  id: EventId,
  event_type: EventType,
  resource: v.optional(v.record(v.string(), v.unknown())),
});

const Links = v.optional(v.array(v.object({ href: v.string(), rel: v.string() })), []);
const OrderResource = v.object({
  id: v.optional(ProviderId),
  order_id: v.optional(ProviderId),
  purchase_units: v.optional(v.array(v.object({ custom_id: v.optional(CustomId) })), []),
});
const CaptureResource = v.object({
  id: v.optional(ProviderId),
  custom_id: v.optional(CustomId),
  supplementary_data: v.optional(
    v.object({ related_ids: v.optional(v.object({ order_id: v.optional(ProviderId) })) }),
  ),
  links: Links,
});

/** A verified event as the service reads it: the ledger's fields and where it is stored. */
export interface ReadWebhookEvent extends ProviderWebhookEvent {
  /** The provider resource it is about: order, capture or refund id. */
  readonly resourceId: string | null;
  /** The capture a refund event belongs to. */
  readonly captureId: string | null;
}

const isOneOf = (list: readonly string[], value: string) => list.includes(value);

/**
 * Reads a webhook body (§5.1, §5.2): the event id and type, the provider order an order or
 * capture event is about (the order's id; a capture's `supplementary_data.related_ids.order_id`
 * or its `up` link), the echoed custom id (our attempt id) and the refund of a refund event.
 * Undefined when the body is not an event.
 */
export function readWebhookEvent(body: string): ReadWebhookEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const envelope = v.safeParse(Envelope, parsed);
  if (!envelope.success) return undefined;
  const { id, event_type: eventType, resource = {} } = envelope.output;
  const base = { id, eventType, providerOrderId: null, customId: null, refund: null, captureId: null };
  if (eventType.startsWith('CHECKOUT.')) {
    const order = v.safeParse(OrderResource, resource);
    if (!order.success) return { ...base, resourceId: null };
    const providerOrderId = order.output.order_id ?? order.output.id ?? null;
    return {
      ...base,
      resourceId: providerOrderId,
      providerOrderId,
      customId: order.output.purchase_units[0]?.custom_id ?? null,
    };
  }
  if (isOneOf(REFUND_EVENT_TYPES, eventType)) {
    const refund = readRefund(resource, null) ?? null;
    const resourceId = refund?.id ?? (typeof resource.id === 'string' ? resource.id.slice(0, 64) : null);
    return { ...base, resourceId, refund, captureId: refund?.captureId ?? null };
  }
  if (eventType.startsWith('PAYMENT.CAPTURE.')) {
    const capture = v.safeParse(CaptureResource, resource);
    if (!capture.success) return { ...base, resourceId: null };
    const up = capture.output.links.find((link) => link.rel === 'up')?.href;
    const linked = up ? /\/v2\/checkout\/orders\/([A-Za-z0-9_-]{1,64})\/?$/.exec(up)?.[1] : undefined;
    return {
      ...base,
      resourceId: capture.output.id ?? null,
      providerOrderId: capture.output.supplementary_data?.related_ids?.order_id ?? linked ?? null,
      customId: capture.output.custom_id ?? null,
    };
  }
  const resourceId = typeof resource.id === 'string' && v.is(ProviderId, resource.id) ? resource.id : null;
  return { ...base, resourceId };
}

/** The ledger's part of a read event. */
function ledgerEvent(event: ReadWebhookEvent): ProviderWebhookEvent {
  return {
    id: event.id,
    eventType: event.eventType,
    providerOrderId: event.providerOrderId,
    customId: event.customId,
    refund: event.refund,
  };
}

export interface ReceivedWebhook {
  readonly eventId: string;
  readonly eventType: string;
  /** The inbox row's status: `received` until the payment-worker applied or ignored it. */
  readonly status: 'received' | 'applied' | 'ignored';
  /** True when the event id was stored before: this delivery changed nothing. */
  readonly duplicate: boolean;
}

/**
 * A provider webhook for the shop `tenantId`, as delivered: the exact body and the transmission
 * headers. Verified first with the shop's own account (fails closed: `UNAUTHENTICATED` unless
 * the provider says SUCCESS; `NOT_FOUND` for a shop without an account; `BUSY` when the provider
 * cannot be asked, so it delivers again later), then stored once per event id with the
 * payment-worker's job that applies it. Answers quickly: nothing here calls the provider again.
 */
export async function receiveProviderWebhook(
  services: Services,
  tenantId: string,
  delivery: ProviderWebhookDelivery,
): Promise<Result<ReceivedWebhook>> {
  const provider = services.payments.provider;
  if (!v.is(Uuid, tenantId) || !provider.accountOf(tenantId)) {
    return fail('NOT_FOUND', 'This shop receives no payment provider webhooks.');
  }
  const verification = await provider.verifyWebhook(tenantId, delivery);
  switch (verification.outcome) {
    case 'not-configured':
      return fail('NOT_FOUND', 'This shop receives no payment provider webhooks.');
    case 'unknown':
      return fail('BUSY', 'The provider could not be asked to verify this webhook; deliver it again later.', {
        extensions: { retryAfterSeconds: 60 },
      });
    case 'refused':
    case 'not-found':
      return fail('UNAUTHENTICATED', 'The provider refused to verify this webhook; nothing was stored.');
    case 'done':
      if (!verification.value.verified) {
        return fail(
          'UNAUTHENTICATED',
          "The provider did not verify this webhook's signature for this shop; nothing was stored.",
        );
      }
  }
  const event = readWebhookEvent(delivery.body);
  if (!event) {
    return fail('VALIDATION_FAILED', 'The verified webhook is not an event with an id and a type.');
  }
  return services.database.transaction(async (tx) => {
    const known =
      isOneOf(ATTEMPT_EVENT_TYPES, event.eventType) || isOneOf(REFUND_EVENT_TYPES, event.eventType);
    const found = known ? await attemptOfEvent(tx, tenantId, event) : undefined;
    // The provider's webhooks speak for its own attempts only, never for an app's payment.
    const attempt = found?.provider === PAYPAL_PROVIDER ? found : undefined;
    const now = services.clock.now();
    // An order or capture event names its order and our attempt id: when neither is this shop's,
    // it is not a payment of ours (attempts exist before their provider orders do). A refund
    // event whose capture is not recorded yet stays received.
    const status = attempt || isOneOf(REFUND_EVENT_TYPES, event.eventType) ? 'received' : 'ignored';
    const stored = await storeWebhookEvent(tx, {
      tenantId,
      eventId: event.id,
      eventType: event.eventType,
      resourceId: event.resourceId,
      body: delivery.body,
      status,
      attemptId: attempt?.id ?? null,
      receivedAt: now,
      appliedAt: status === 'ignored' ? now : null,
    });
    if (!stored) {
      const row = await findWebhookEvent(tx, tenantId, event.id);
      return ok({
        eventId: event.id,
        eventType: event.eventType,
        status: row?.status ?? 'received',
        duplicate: true,
      });
    }
    if (attempt) {
      await queuePaymentJob(tx, {
        tenantId,
        id: services.ids.next(),
        attemptId: attempt.id,
        kind: 'webhook',
        subjectId: event.id,
        availableAt: now,
      });
    }
    return ok({ eventId: event.id, eventType: event.eventType, status, duplicate: false });
  });
}

/**
 * The attempt an event is about: by its provider order, else by the custom id the provider
 * echoes (our attempt id, known before the create answer is stored), else, for a refund, by the
 * capture it names.
 */
async function attemptOfEvent(
  tx: Executor,
  tenantId: string,
  event: ReadWebhookEvent,
): Promise<PaymentAttemptRow | undefined> {
  if (event.providerOrderId !== null) {
    const byOrder = await findPaymentAttemptByProviderOrder(tx, tenantId, event.providerOrderId);
    if (byOrder) return byOrder;
  }
  const ids = [event.customId, event.refund?.customId ?? null].filter(
    (id): id is string => id !== null && v.is(Uuid, id),
  );
  for (const id of ids) {
    const byCustomId = await findPaymentAttempt(tx, tenantId, id);
    if (byCustomId) return byCustomId;
  }
  if (event.captureId === null) return undefined;
  const holding = await listPaymentAttemptsInStatus(tx, tenantId, CAPTURE_HOLDING_STATUSES, {
    limit: CAPTURE_SEARCH_LIMIT,
  });
  return holding.find((row) => loadAttempt(row).state.capture?.id === event.captureId);
}

/** What a webhook job ended with (a subset of the payment-worker's job outcomes). */
export type WebhookJobOutcome = 'done' | 'queued' | 'failed' | 'lost';

/** Thrown inside the deciding transaction to roll it back when the job's lease was lost. */
class WebhookLeaseLost extends Error {}

/**
 * The payment-worker's `webhook` job: applies the inbox event `job.subjectId` to the job's
 * attempt under the attempt's row lock, in one transaction with the inbox row and the job's end.
 * An event applied or ignored before (a replayed job) changes nothing. An event about a provider
 * order the attempt has not learned yet (its create answer is not stored), or one the ledger
 * defers, is tried again after a pause and ignored after `WEBHOOK_MAX_TRIES`.
 */
export async function runWebhookJob(
  services: Services,
  owner: string,
  job: PaymentJobRow,
): Promise<WebhookJobOutcome> {
  const { tenantId } = job;
  const eventId = job.subjectId ?? '';
  try {
    return await services.database.transaction(async (tx) => {
      const now = services.clock.now();
      const end = async (
        outcome: Parameters<typeof settlePaymentJob>[4],
      ): Promise<'done' | 'queued' | 'failed'> => {
        if (!(await settlePaymentJob(tx, owner, tenantId, job.id, outcome))) throw new WebhookLeaseLost();
        return outcome.status as 'done' | 'queued' | 'failed';
      };
      const locked = await findPaymentAttempt(tx, tenantId, job.attemptId, 'update');
      const row = await findWebhookEvent(tx, tenantId, eventId);
      if (!row)
        return end({ status: 'failed', error: { code: 'NOT_FOUND', message: 'no such inbox event' } });
      // Applied or ignored before: a replayed job changes nothing.
      if (row.status !== 'received') return end({ status: 'done' });
      const settleAs = async (status: 'applied' | 'ignored', reason: string | null = null) => {
        await markWebhookEvent(tx, tenantId, eventId, {
          status,
          attemptId: locked?.id ?? row.attemptId,
          appliedAt: now,
        });
        return end({
          status: 'done',
          ...(reason === null ? {} : { error: { code: 'WEBHOOK_IGNORED', message: reason } }),
        });
      };
      const later = (reason: string) =>
        job.tries >= WEBHOOK_MAX_TRIES
          ? settleAs('ignored', `not applicable after ${job.tries} tries: ${reason}`)
          : end({
              status: 'queued',
              availableAt: new Date(now.getTime() + webhookRetryPauseMs(job.tries)),
              error: { code: 'WEBHOOK_DEFERRED', message: reason },
            });
      if (!locked) return settleAs('ignored', 'no-attempt');
      const event = readWebhookEvent(row.body);
      if (!event) return settleAs('ignored', 'unreadable');
      const loaded = loadAttempt(locked);
      const { state } = loaded;
      // The event names a provider order the attempt does not know yet: its create answer is
      // still being stored (or replayed). Apply it once it is.
      const learning =
        state.status === 'creating' ||
        (state.status === 'uncertain' && state.uncertainOperation === 'create');
      if (event.providerOrderId !== null && state.providerOrderId === null && learning) {
        return later('provider-order-not-stored-yet');
      }
      // The refund ledger opens on first use (a refund asked here, or one the provider reports).
      const opened = loaded.refunds === null ? openRefundLedger(loaded.attempt, state) : null;
      const refunds = loaded.refunds ?? (opened?.ok ? opened.value : null);
      const decision = decideWebhookEvent(loaded.attempt, state, refunds, ledgerEvent(event));
      switch (decision.action) {
        case 'reconcile':
          await carryOut(tx, services, loaded, decision.effects);
          return settleAs('applied');
        case 'merge-refund': {
          const changed = JSON.stringify(decision.ledger) !== JSON.stringify(loaded.refunds);
          if (changed || decision.effects.length > 0) {
            await storeDecision(tx, services, loaded, {
              refunds: decision.ledger,
              effects: decision.effects,
            });
          }
          return settleAs('applied');
        }
        case 'defer':
          await carryOut(tx, services, loaded, decision.effects);
          return later(decision.reason ?? 'deferred');
        case 'ignore':
          return settleAs('ignored', decision.reason ?? 'ignored');
      }
    });
  } catch (error) {
    if (error instanceof WebhookLeaseLost) return 'lost';
    throw error;
  }
}

/**
 * Carries out a decision's effects on the locked attempt, leaving out a reconciliation when one
 * is queued and not started yet (the return URL and the webhook ask for the same read).
 */
async function carryOut(
  tx: Executor,
  services: Services,
  loaded: LoadedAttempt,
  effects: readonly PaymentEffect[],
): Promise<void> {
  const kept: PaymentEffect[] = [];
  for (const effect of effects) {
    if (
      effect.kind === 'queue' &&
      effect.job === 'reconcile' &&
      (await hasQueuedPaymentJob(tx, loaded.row.tenantId, loaded.row.id, 'reconcile'))
    ) {
      continue;
    }
    kept.push(effect);
  }
  if (kept.length > 0) await storeDecision(tx, services, loaded, { effects: kept });
}
