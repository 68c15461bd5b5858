import type { PayPalMoney } from './money.ts';
import type { AuthorizationStatus, CaptureStatus, Intent, OrderStatus, RefundStatus } from './state.ts';

/** The wire shapes the fixture answers with (§2.2, §2.4, §2.5, §4.1, §4.2, §5.2). */

/** HATEOAS link `{ href, rel, method? }` (§2.2). */
export interface PayPalLink {
  readonly href: string;
  readonly rel: string;
  readonly method?: 'GET' | 'POST' | 'PATCH';
}

export interface PayPalPayee {
  readonly email_address: string;
  readonly merchant_id: string;
}

export interface PayPalRelatedIds {
  readonly order_id: string;
  readonly authorization_id?: string;
  readonly capture_id?: string;
}

/** `capture`, and with `payee` + `supplementary_data` the Payments v2 `capture-2` (§2.4, §4.2). */
export interface PayPalCapture {
  readonly id: string;
  readonly status: CaptureStatus;
  readonly status_details?: { readonly reason: string };
  readonly amount: PayPalMoney;
  readonly invoice_id?: string;
  readonly custom_id?: string;
  readonly note_to_payer?: string;
  readonly final_capture: boolean;
  readonly seller_protection: { readonly status: string; readonly dispute_categories: readonly string[] };
  readonly seller_receivable_breakdown?: {
    readonly gross_amount: PayPalMoney;
    readonly paypal_fee: PayPalMoney;
    readonly net_amount: PayPalMoney;
  };
  readonly payee?: PayPalPayee;
  readonly supplementary_data?: { readonly related_ids: PayPalRelatedIds };
  readonly links: readonly PayPalLink[];
  readonly create_time: string;
  readonly update_time: string;
}

/** `refund` (§4.1); minimal form is `{ id, status, links }`. */
export interface PayPalRefund {
  readonly id: string;
  readonly status: RefundStatus;
  readonly amount?: PayPalMoney;
  readonly invoice_id?: string;
  readonly custom_id?: string;
  readonly note_to_payer?: string;
  readonly seller_payable_breakdown?: {
    readonly gross_amount: PayPalMoney;
    readonly paypal_fee: PayPalMoney;
    readonly net_amount: PayPalMoney;
    readonly total_refunded_amount: PayPalMoney;
  };
  readonly payer?: PayPalPayee;
  readonly links: readonly PayPalLink[];
  readonly create_time?: string;
  readonly update_time?: string;
}

/** `authorization`, and with `payee` + `supplementary_data` `authorization-2` (§2.5, §4.4). */
export interface PayPalAuthorization {
  readonly id: string;
  readonly status: AuthorizationStatus;
  readonly amount: PayPalMoney;
  readonly invoice_id?: string;
  readonly custom_id?: string;
  readonly seller_protection: { readonly status: string; readonly dispute_categories: readonly string[] };
  readonly expiration_time: string;
  readonly payee?: PayPalPayee;
  readonly supplementary_data?: { readonly related_ids: PayPalRelatedIds };
  readonly links: readonly PayPalLink[];
  readonly create_time: string;
  readonly update_time: string;
}

export interface PayPalPurchaseUnit {
  readonly reference_id: string;
  readonly amount?: PayPalMoney & { readonly breakdown?: Readonly<Record<string, PayPalMoney>> };
  readonly payee?: PayPalPayee;
  readonly description?: string;
  readonly custom_id?: string;
  readonly invoice_id?: string;
  readonly soft_descriptor?: string;
  readonly items?: readonly Readonly<Record<string, unknown>>[];
  readonly shipping?: unknown;
  readonly payments?: {
    readonly authorizations?: readonly PayPalAuthorization[];
    readonly captures?: readonly PayPalCapture[];
    readonly refunds?: readonly PayPalRefund[];
  };
}

export interface PayPalPayer {
  readonly name: { readonly given_name: string; readonly surname: string };
  readonly email_address: string;
  readonly payer_id: string;
  readonly address: { readonly country_code: string };
}

/** `order` (§2.2); the minimal form has only `id`, `status`, `links` (plus payments after capture). */
export interface PayPalOrder {
  readonly id: string;
  readonly status: OrderStatus;
  readonly intent?: Intent;
  readonly payment_source?: { readonly paypal: Readonly<Record<string, unknown>> };
  readonly purchase_units?: readonly PayPalPurchaseUnit[];
  readonly payer?: PayPalPayer;
  readonly create_time?: string;
  readonly update_time?: string;
  readonly links: readonly PayPalLink[];
}

/** A webhook event body (§5.2). */
export interface WebhookEvent {
  readonly id: string;
  readonly event_version: string;
  readonly create_time: string;
  readonly resource_type: string;
  readonly resource_version: string;
  readonly event_type: string;
  readonly summary: string;
  readonly resource: unknown;
  readonly links: readonly PayPalLink[];
}
