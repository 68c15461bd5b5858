import {
  CAPTURE_STATUSES,
  PROVIDER_ORDER_STATUSES,
  PROVIDER_REFUND_STATUSES,
} from '@cartwright/payment-ledger';
import * as v from 'valibot';
import type { ProviderMoney, ProviderOrder, ProviderRefund } from '../../kernel/payment-provider.ts';

// An app's payment answers (`PAYMENT_CONTRACT` in @cartwright/app-manifest) → the port's types.
// The dispatcher has already checked them against the action's declared types; this checks them
// against the contract itself (the app may declare longer strings than the contract allows) and
// the ledger's shapes. An answer that breaks the contract is unreadable: the caller reports the
// outcome unknown (the app answered, so it may have acted), never a refusal.

/** Provider order ids the ledger accepts (contract: 1-36 upper-case letters or digits). */
const ORDER_ID = /^[A-Z0-9]{1,36}$/;
/** A decimal string as the ledger reads provider amounts ("19.99", "1500"). */
const DECIMAL = /^\d{1,15}(\.\d{1,6})?$/;

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));
/** An optional contract field: absent or null both mean "not said". */
const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

const OrderFields = v.object({
  order_id: v.pipe(v.string(), v.regex(ORDER_ID, 'expected 1-36 upper-case letters or digits')),
  status: v.picklist(PROVIDER_ORDER_STATUSES),
  approval_url: optional(text(1000)),
  capture_id: optional(text(64)),
  capture_status: optional(v.picklist(CAPTURE_STATUSES)),
  capture_amount: optional(v.pipe(v.string(), v.regex(DECIMAL, 'expected a decimal string'))),
});

const OrderState = v.pipe(
  OrderFields,
  v.check(
    (state) =>
      (state.capture_id == null) === (state.capture_status == null) &&
      (state.capture_id == null) === (state.capture_amount == null),
    'a capture is capture_id, capture_status and capture_amount together',
  ),
);

const RefundState = v.object({
  refund_id: text(64),
  status: v.picklist(PROVIDER_REFUND_STATUSES),
});

/** The output fields the readers know, by contract role (a test holds them to `PAYMENT_CONTRACT`). */
export const CONTRACT_OUTPUT_FIELDS = {
  order: Object.keys(OrderFields.entries),
  refund: Object.keys(RefundState.entries),
} as const;

/** An answer read against the contract: its value, or why it breaks the contract. */
export type ContractReading<T> = { readonly value: T } | { readonly reason: string };

/** Why an answer breaks the contract: the first issue's field and message. */
function breach(issues: readonly v.BaseIssue<unknown>[]): string {
  const [issue] = issues;
  const field = issue?.path?.map((item) => String(item.key)).join('.') ?? '';
  return `the answer breaks the payment contract${field ? ` at ${field}` : ''}: ${issue?.message ?? 'invalid'}`;
}

/**
 * The payment's state as authorize, capture and status answer it. The contract's capture amount
 * names no currency: it is the currency the payment was authorized in, the attempt's (`currency`).
 * The app echoes no custom id or merchant, so the receipt check compares order, currency and amount.
 */
export function readOrderState(output: unknown, currency: string): ContractReading<ProviderOrder> {
  const parsed = v.safeParse(OrderState, output);
  if (!parsed.success) return { reason: breach(parsed.issues) };
  const state = parsed.output;
  const captures =
    state.capture_id != null && state.capture_status != null && state.capture_amount != null
      ? [
          {
            id: state.capture_id,
            status: state.capture_status,
            statusReason: null,
            amount: { currency, value: state.capture_amount },
            customId: null,
            merchantId: null,
          },
        ]
      : [];
  return {
    value: {
      id: state.order_id,
      status: state.status,
      approvalUrl: state.approval_url ?? null,
      amount: null,
      customId: null,
      merchantId: null,
      captures,
    },
  };
}

/**
 * A refund as the refund action answers it. The contract answers no amount: the refund is the one
 * asked for under its request id, so the amount and capture are the request's.
 */
export function readRefundState(
  output: unknown,
  request: { readonly captureId: string; readonly amount: ProviderMoney; readonly reference: string },
): ContractReading<ProviderRefund> {
  const parsed = v.safeParse(RefundState, output);
  if (!parsed.success) return { reason: breach(parsed.issues) };
  return {
    value: {
      id: parsed.output.refund_id,
      status: parsed.output.status,
      amount: request.amount,
      captureId: request.captureId,
      customId: request.reference,
    },
  };
}

/** Whether `id` can be an app's payment id (anything else is never sent: not found). */
export const isOrderId = (id: string) => ORDER_ID.test(id);
