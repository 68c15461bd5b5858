import type { ShapeField } from './schema.ts';

// The contracts between the service and an app that serves a payment method or a shipping rate
// (decision 0042). An app's action plays a role only when it declares every field of the role's
// contract with the same type (and, for outputs, as required where the contract requires it), so
// the service can send and read them without guessing. The service checks every answer again.

type ContractField = Pick<ShapeField, 'name' | 'type' | 'required'> & { readonly maxLength?: number };

const string = (name: string, maxLength: number, required = true): ContractField => ({
  name,
  type: 'string',
  maxLength,
  required,
});
const integer = (name: string, required = true): ContractField => ({ name, type: 'integer', required });

export interface ActionContract {
  readonly input: readonly ContractField[];
  readonly output: readonly ContractField[];
}

/** What an order's provider state answers: authorize, capture and status share it. */
const ORDER_STATE: readonly ContractField[] = [
  /** The app's id of the payment: 1-36 upper-case letters or digits. */
  string('order_id', 36),
  /** CREATED, APPROVED, COMPLETED, VOIDED, SAVED or PAYER_ACTION_REQUIRED. */
  string('status', 40),
  /** Where the buyer approves the payment (https), absent when no buyer step is needed. */
  string('approval_url', 1000, false),
  /** The capture, once there is one. */
  string('capture_id', 64, false),
  /** COMPLETED, PENDING, DECLINED, FAILED, PARTIALLY_REFUNDED or REFUNDED. */
  string('capture_status', 40, false),
  /** The captured amount as a decimal string in the currency's precision, e.g. "19.99". */
  string('capture_amount', 32, false),
];

/** The four provider commands an app's payment method serves, by role (`payment.<role>`). */
export const PAYMENT_CONTRACT = {
  authorize: {
    input: [
      /** Sent again unchanged on a retry: the app answers the payment it created first. */
      string('request_id', 100),
      /** The service's attempt id; echo it to tie reports to the attempt. */
      string('attempt_id', 64),
      /** Decimal string in the currency's precision, e.g. "19.99". */
      string('amount', 32),
      string('currency', 3),
      string('invoice_id', 127),
      string('return_url', 1000),
      string('cancel_url', 1000),
    ],
    output: ORDER_STATE,
  },
  capture: {
    input: [string('order_id', 36), string('request_id', 100)],
    output: ORDER_STATE,
  },
  status: {
    input: [string('order_id', 36)],
    output: ORDER_STATE,
  },
  refund: {
    input: [
      string('capture_id', 64),
      string('request_id', 100),
      /** The service's refund id; echo it in reports of the refund. */
      string('refund_reference', 64),
      string('amount', 32),
      string('currency', 3),
    ],
    output: [
      string('refund_id', 64),
      /** PENDING, COMPLETED, FAILED or CANCELLED. */
      string('status', 40),
    ],
  },
} as const satisfies Record<'authorize' | 'capture' | 'status' | 'refund', ActionContract>;

export type PaymentRole = keyof typeof PAYMENT_CONTRACT;
export const PAYMENT_ROLES = Object.keys(PAYMENT_CONTRACT) as PaymentRole[];

/** The shipping rate an app computes for a cart, in the cart currency's minor units. */
export const SHIPPING_CONTRACT = {
  input: [
    string('currency', 3),
    /** The delivery country (ISO 3166-1 alpha-2), absent while the cart has no shipping address. */
    string('country', 2, false),
    /** Units in the cart. */
    integer('quantity'),
    /** Gross total of the lines in minor units, before shipping. */
    integer('subtotal'),
  ],
  output: [integer('gross'), integer('net')],
} as const satisfies ActionContract;
