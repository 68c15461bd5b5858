import type { FixtureAccount } from './accounts.ts';
import type { Money } from './money.ts';

/** §2.2 `order_status`. */
export type OrderStatus = 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';
/** §2.4 `capture_status`. */
export type CaptureStatus =
  | 'COMPLETED'
  | 'DECLINED'
  | 'PARTIALLY_REFUNDED'
  | 'PENDING'
  | 'REFUNDED'
  | 'FAILED';
/** What the next capture of an order (or of its authorization) turns out as. */
export type CaptureOutcome = 'COMPLETED' | 'PENDING' | 'DECLINED';
/** §2.5 `authorization.status`. */
export type AuthorizationStatus =
  | 'CREATED'
  | 'CAPTURED'
  | 'DENIED'
  | 'PARTIALLY_CAPTURED'
  | 'VOIDED'
  | 'PENDING';
/** §4.1 `refund.status`. */
export type RefundStatus = 'CANCELLED' | 'FAILED' | 'PENDING' | 'COMPLETED';
export type Intent = 'CAPTURE' | 'AUTHORIZE';

export interface ItemRecord {
  readonly name: string;
  readonly unitAmount: Money;
  readonly quantity: string;
  readonly tax?: Money;
  readonly description?: string;
  readonly sku?: string;
  readonly category?: string;
}

export interface PurchaseUnitRecord {
  readonly referenceId: string;
  readonly amount: Money;
  /** Breakdown parts in the order the caller sent them. */
  readonly breakdown?: ReadonlyArray<readonly [string, Money]>;
  readonly items?: readonly ItemRecord[];
  readonly customId?: string;
  readonly invoiceId?: string;
  readonly description?: string;
  readonly softDescriptor?: string;
  /** Echoed as sent. */
  readonly shipping?: unknown;
}

export interface PayerRecord {
  readonly payerId: string;
  readonly email: string;
  readonly givenName: string;
  readonly surname: string;
  readonly countryCode: string;
}

export interface ExperienceContext {
  /** `payment_source.paypal.experience_context`, or the deprecated `application_context` (§2.1). */
  readonly source: 'payment_source' | 'application_context';
  readonly returnUrl?: string;
  readonly cancelUrl?: string;
  /** The whole object as sent; an `experience_context` is echoed in `payment_source.paypal`. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface OrderRecord {
  readonly id: string;
  readonly accountId: string;
  /** Changed only by PATCH (§2.6). */
  intent: Intent;
  status: OrderStatus;
  purchaseUnits: readonly PurchaseUnitRecord[];
  readonly experienceContext?: ExperienceContext;
  readonly createTime: number;
  updateTime: number;
  payer?: PayerRecord;
  expired: boolean;
  captureOutcome: CaptureOutcome;
  readonly captureIds: string[];
  readonly authorizationIds: string[];
}

export interface CaptureRecord {
  readonly id: string;
  readonly accountId: string;
  readonly orderId: string;
  readonly authorizationId?: string;
  readonly referenceId: string;
  readonly amount: Money;
  status: CaptureStatus;
  /** `status_details.reason` for PENDING (§2.4). */
  statusReason?: string;
  readonly customId?: string;
  readonly invoiceId?: string;
  readonly noteToPayer?: string;
  readonly finalCapture: boolean;
  readonly createTime: number;
  updateTime: number;
  readonly refundIds: string[];
}

export interface RefundRecord {
  readonly id: string;
  readonly accountId: string;
  readonly captureId: string;
  readonly amount: Money;
  readonly status: RefundStatus;
  readonly invoiceId?: string;
  readonly customId?: string;
  readonly noteToPayer?: string;
  /** Cumulative refunded from the capture, this refund included (§4.1 `total_refunded_amount`). */
  readonly totalRefunded: Money;
  readonly createTime: number;
  readonly updateTime: number;
}

export interface AuthorizationRecord {
  readonly id: string;
  readonly accountId: string;
  readonly orderId: string;
  readonly referenceId: string;
  readonly amount: Money;
  status: AuthorizationStatus;
  readonly customId?: string;
  readonly invoiceId?: string;
  readonly createTime: number;
  updateTime: number;
  readonly expirationTime: number;
  readonly captureIds: string[];
}

/** Everything PayPal would hold, keyed by resource id; every record names its owning account. */
export interface FixtureState {
  readonly orders: Map<string, OrderRecord>;
  readonly captures: Map<string, CaptureRecord>;
  readonly refunds: Map<string, RefundRecord>;
  readonly authorizations: Map<string, AuthorizationRecord>;
}

/** What operations need besides the state: accounts, the clock and the base URL links point at. */
export interface FixtureWorld {
  readonly state: FixtureState;
  /** The registered account behind a record's `accountId`. */
  readonly accountOf: (clientId: string) => FixtureAccount;
  readonly now: () => number;
  readonly baseUrl: string;
  /** Approval window from creation (§2.2: 3 h by default). */
  readonly orderLifetimeMs: number;
  /** Outcome of captures for orders without their own (`setCaptureOutcome`). */
  readonly captureOutcome: CaptureOutcome;
}

export function createState(): FixtureState {
  return { orders: new Map(), captures: new Map(), refunds: new Map(), authorizations: new Map() };
}

/** A record only as seen by its own account: another account's token gets nothing (→ 404). */
export function ownRecord<T extends { readonly accountId: string }>(
  records: ReadonlyMap<string, T>,
  id: string,
  accountId: string,
): T | undefined {
  const record = records.get(id);
  return record?.accountId === accountId ? record : undefined;
}
