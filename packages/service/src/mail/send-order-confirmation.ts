import { createHash } from 'node:crypto';
import {
  type EffectReceiptRow,
  type EffectScope,
  findCompanyIdentity,
  findEffectReceipts,
  findOrder,
  findTenant,
  insertPendingEffectReceipts,
  type OrderRow,
  settleReceipts,
} from '@cartwright/repository';
import { documentOrderOf } from '../documents/order-snapshot.ts';
import { type ErrorCode, type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import type { MailFailureCode, MailMessage } from '../kernel/mailer.ts';
import type { Services } from '../kernel/services.ts';
import { type MailLanguage, type RenderedMail, renderOrderConfirmation } from './order-confirmation.ts';

// Sends an order's confirmation at most once per step key, through the effect receipts every
// outside effect uses (decision 0018): the send's receipt `flow:<job>/mail:<node>` commits `pending`
// before the mail server is called (no transaction is open during the call) and is settled with
// the outcome after. A confirmed receipt answers its stored result and sends nothing; a pending
// one means an earlier send's fate is unknown (MAIL_UNCERTAIN), and a failed one answers its
// failure again. Both stay until an explicit retry of the step's scope clears them (a flow job's
// retry deletes its unsettled receipts, this one included); the message then goes out again with
// the same Message-ID, derived from the step key, so a receiver can tell the replay.

/** What a send answered, stored on its receipt and answered again on a replay. */
export interface SentOrderConfirmation {
  readonly template: 'order_confirmation';
  /** The Message-ID the mail carries (stable for the step key). */
  readonly messageId: string;
  readonly language: MailLanguage;
  /** The mail server's final reply. */
  readonly response: string;
  /** True when an earlier call with this step key sent it: nothing was sent by this call. */
  readonly replayed: boolean;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** An effect's step key: its scope, the scope's id and the step, e.g. `flow:<job_id>:<node_id>`. */
const STEP_KEY = new RegExp(`^(flow|payment|delivery):(${UUID}):(.+)$`);
const MAIL_FAILURES: readonly string[] = ['MAIL_NOT_CONFIGURED', 'MAIL_REFUSED', 'MAIL_UNAVAILABLE'];
/** A plain address; nodemailer parses it, this only keeps a broken snapshot from reaching it. */
const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

/** The address an order's confirmation goes to: its customer's, or null when it has none usable. */
export function confirmationRecipient(order: Pick<OrderRow, 'customer'>): string | null {
  const to = (order.customer as { email?: unknown }).email;
  return typeof to === 'string' && ADDRESS.test(to) ? to : null;
}

/** The parts of an effect's step key; a key of another shape is a caller's bug. */
function stepOf(stepKey: string): { scope: EffectScope; scopeId: string; step: string } {
  const parts = STEP_KEY.exec(stepKey);
  if (!parts) throw new RangeError(`not an effect step key: ${stepKey}`);
  return { scope: parts[1] as EffectScope, scopeId: parts[2]!, step: parts[3]! };
}

/**
 * The receipt key of the mail a step sends, `flow:<job_id>/mail:<node_id>`: in the step's scope,
 * and never a step key itself (those have `:` right after the scope's id).
 */
export function mailReceiptKey(stepKey: string): string {
  const { scope, scopeId, step } = stepOf(stepKey);
  return `${scope}:${scopeId}/mail:${step}`;
}

/** The Message-ID of the mail a step sends: the same for every send under that step key. */
export function mailMessageId(tenantId: string, stepKey: string, fromAddress: string): string {
  const digest = createHash('sha256').update(`${tenantId}\n${stepKey}`).digest('hex').slice(0, 32);
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1);
  return `<cw.${digest}@${domain}>`;
}

/**
 * Sends the confirmation of order `orderId` to the order's customer, in the order's language, at
 * most once per `stepKey` (`flow:<job_id>:<node_id>`). Call it with no transaction open: it
 * commits its receipt before the mail server is called.
 */
export async function sendOrderConfirmation(
  services: Services,
  tenantId: string,
  orderId: string,
  stepKey: string,
): Promise<Result<SentOrderConfirmation>> {
  const step = stepOf(stepKey);
  const from = services.mail.from;
  if (from === null) {
    return fail('MAIL_NOT_CONFIGURED', 'No mail server is configured (SMTP_URL): nothing was sent.');
  }
  const key = mailReceiptKey(stepKey);
  const prepared = await services.database.transaction(async (tx): Promise<Result<Prepared>> => {
    const [earlier] = await findEffectReceipts(tx, tenantId, [key]);
    if (earlier) {
      const answer = answerOf(earlier);
      return answer.ok ? ok({ replayed: answer.value }) : answer;
    }
    const order = await findOrder(tx, tenantId, orderId);
    if (!order)
      return fail('NOT_FOUND', `The order ${orderId} does not exist in this shop: nothing was sent.`);
    const to = confirmationRecipient(order);
    if (to === null) {
      return fail('CONFLICT', `Order ${order.number} has no customer e-mail address: nothing was sent.`);
    }
    const tenant = await findTenant(tx, tenantId);
    const identity = await findCompanyIdentity(tx, tenantId);
    const shop = {
      name: identity?.data.name ?? tenant?.name ?? '',
      mainLanguage: tenant?.mainLanguage ?? 'en',
      email: identity?.data.email ?? null,
    };
    const mail = renderOrderConfirmation(documentOrderOf(order), order.language, shop);
    const written = await insertPendingEffectReceipts(tx, [{ tenantId, key, ...step }]);
    // Another call wrote it since the read above: that one sends.
    if (!written.has(`${tenantId}:${key}`)) return uncertain();
    return ok({
      mail,
      message: {
        to,
        from: { name: shop.name, address: from },
        ...(shop.email ? { replyTo: shop.email } : {}),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mailMessageId(tenantId, stepKey, from),
        headers: { 'Content-Language': mail.language, 'Auto-Submitted': 'auto-generated' },
      },
    });
  });
  if (!prepared.ok) return prepared;
  if ('replayed' in prepared.value) return ok(prepared.value.replayed);
  const { message, mail } = prepared.value;

  const sent = await services.mail.mailer.send(message);
  const value: Omit<SentOrderConfirmation, 'replayed'> | null = sent.ok
    ? {
        template: 'order_confirmation',
        messageId: sent.messageId,
        language: mail.language,
        response: sent.response,
      }
    : null;
  await services.database.transaction((tx) =>
    settleReceipts(tx, [
      value
        ? { tenantId, key, status: 'confirmed', result: value }
        : {
            tenantId,
            key,
            status: 'failed',
            result: sent.ok ? null : { code: sent.code, message: sent.detail },
          },
    ]),
  );
  if (sent.ok) return ok({ ...value!, replayed: false });
  return fail(sent.code, sent.detail, { extensions: { responseCode: sent.responseCode } });
}

/** A send to make now, or the answer of the send made before. */
type Prepared =
  | { readonly message: MailMessage; readonly mail: RenderedMail }
  | { readonly replayed: SentOrderConfirmation };

/** What an existing receipt of the send answers: nothing is sent again. */
function answerOf(receipt: EffectReceiptRow): Result<SentOrderConfirmation> {
  if (receipt.status === 'confirmed') {
    return ok({ ...(receipt.result as Omit<SentOrderConfirmation, 'replayed'>), replayed: true });
  }
  if (receipt.status === 'pending') return uncertain();
  const earlier = (receipt.result ?? {}) as { code?: unknown; message?: unknown };
  const code: ErrorCode = MAIL_FAILURES.includes(String(earlier.code))
    ? (earlier.code as MailFailureCode)
    : 'MAIL_UNAVAILABLE';
  const why = typeof earlier.message === 'string' ? ` ${earlier.message}` : '';
  return fail(
    code,
    `An earlier send of this step failed; it is not sent again until the step is retried.${why}`,
  );
}

function uncertain(): Failure {
  return fail(
    'MAIL_UNCERTAIN',
    'An earlier send of this step was started and its outcome is unknown (the mail may have gone out): nothing was sent again. Retry the step to send it once more.',
  );
}
