import * as v from 'valibot';
import type {
  CreateProviderOrder,
  ProviderCapture,
  ProviderMoney,
  ProviderOrder,
  ProviderRefund,
} from '../../kernel/payment-provider.ts';

// PayPal JSON → the port's types (contract §2, §4, §5.4). Only what we read is checked; extra
// fields are ignored, so a field PayPal adds later changes nothing. An answer that fails its
// schema is unreadable: the caller reports the outcome unknown, never a refusal.

const Text = v.pipe(v.string(), v.minLength(1), v.maxLength(2048));

const Money = v.object({
  currency_code: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  value: v.pipe(v.string(), v.regex(/^-?\d{1,15}(\.\d{1,6})?$/)),
});

const Link = v.object({ href: Text, rel: Text });
const Links = v.optional(v.array(Link), []);

const Payee = v.optional(v.object({ merchant_id: v.optional(Text) }));

const Capture = v.object({
  id: Text,
  status: v.picklist(['COMPLETED', 'DECLINED', 'PARTIALLY_REFUNDED', 'PENDING', 'REFUNDED', 'FAILED']),
  status_details: v.optional(v.object({ reason: v.optional(Text) })),
  amount: Money,
  custom_id: v.optional(Text),
  payee: Payee,
});

const PurchaseUnit = v.object({
  amount: v.optional(Money),
  custom_id: v.optional(Text),
  payee: Payee,
  payments: v.optional(v.object({ captures: v.optional(v.array(Capture), []) })),
});

const Order = v.object({
  id: Text,
  status: v.picklist(['CREATED', 'SAVED', 'APPROVED', 'VOIDED', 'COMPLETED', 'PAYER_ACTION_REQUIRED']),
  purchase_units: v.optional(v.array(PurchaseUnit), []),
  links: Links,
});

const Refund = v.object({
  id: Text,
  status: v.picklist(['CANCELLED', 'FAILED', 'PENDING', 'COMPLETED']),
  amount: Money,
  custom_id: v.optional(Text),
  links: Links,
});

const Verification = v.object({ verification_status: v.picklist(['SUCCESS', 'FAILURE']) });

const money = (amount: v.InferOutput<typeof Money>): ProviderMoney => ({
  currency: amount.currency_code,
  value: amount.value,
});

/** An order (representation), or undefined when the answer does not read as one. */
export function readOrder(body: unknown): ProviderOrder | undefined {
  const parsed = v.safeParse(Order, body);
  if (!parsed.success) return undefined;
  const order = parsed.output;
  const unit = order.purchase_units[0];
  // `approve` without a payment source, `payer-action` with one (§2.2): follow the link, never build it.
  const approval =
    order.links.find((link) => link.rel === 'approve') ??
    order.links.find((link) => link.rel === 'payer-action');
  const captures: ProviderCapture[] = order.purchase_units.flatMap((purchase) =>
    (purchase.payments?.captures ?? []).map((capture) => ({
      id: capture.id,
      status: capture.status,
      statusReason: capture.status_details?.reason ?? null,
      amount: money(capture.amount),
      customId: capture.custom_id ?? purchase.custom_id ?? null,
      // Inside an order the payee is said on the purchase unit, not on each capture.
      merchantId: capture.payee?.merchant_id ?? purchase.payee?.merchant_id ?? null,
    })),
  );
  return {
    id: order.id,
    status: order.status,
    approvalUrl: approval?.href ?? null,
    amount: unit?.amount ? money(unit.amount) : null,
    customId: unit?.custom_id ?? null,
    merchantId: unit?.payee?.merchant_id ?? null,
    captures,
  };
}

/** A refund, or undefined; `captureId` falls back to the capture the caller refunded. */
export function readRefund(body: unknown, refundedCaptureId: string | null): ProviderRefund | undefined {
  const parsed = v.safeParse(Refund, body);
  if (!parsed.success) return undefined;
  const refund = parsed.output;
  const up = refund.links.find((link) => link.rel === 'up')?.href;
  const linked = up ? /\/v2\/payments\/captures\/([A-Za-z0-9_-]+)\/?$/.exec(up)?.[1] : undefined;
  return {
    id: refund.id,
    status: refund.status,
    amount: money(refund.amount),
    captureId: linked ?? refundedCaptureId,
    customId: refund.custom_id ?? null,
  };
}

/** The verification answer (§5.4): FAILURE is an HTTP 200 too, so the field decides. */
export function readVerification(body: unknown): { readonly verified: boolean } | undefined {
  const parsed = v.safeParse(Verification, body);
  return parsed.success ? { verified: parsed.output.verification_status === 'SUCCESS' } : undefined;
}

/** The create-order request (§2.1): one purchase unit, redirect settings in the experience context. */
export function orderRequestBody(order: CreateProviderOrder): string {
  return JSON.stringify({
    intent: 'CAPTURE',
    purchase_units: [
      {
        amount: { currency_code: order.amount.currency, value: order.amount.value },
        custom_id: order.customId,
        invoice_id: order.invoiceId,
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          return_url: order.returnUrl,
          cancel_url: order.cancelUrl,
          ...(order.locale ? { locale: order.locale } : {}),
          // The shop collects the address itself; the buyer confirms the payment at PayPal.
          shipping_preference: 'NO_SHIPPING',
          user_action: 'PAY_NOW',
        },
      },
    },
  });
}

/** The refund request (§4.1): always an explicit amount, so a retry never refunds "the rest". */
export function refundRequestBody(refund: {
  readonly amount: ProviderMoney;
  readonly customId?: string;
  readonly invoiceId?: string;
}): string {
  return JSON.stringify({
    amount: { currency_code: refund.amount.currency, value: refund.amount.value },
    ...(refund.customId ? { custom_id: refund.customId } : {}),
    ...(refund.invoiceId ? { invoice_id: refund.invoiceId } : {}),
  });
}
