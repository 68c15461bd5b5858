/**
 * A loopback imitation of PayPal's REST contract (OAuth2 token, Orders v2, Payments v2, webhook
 * delivery and verify-webhook-signature) for testing the payment adapter. Section marks (§n) in
 * these modules refer to the project's PayPal contract notes (shared reference
 * `paypal/contract.md`).
 */
export type { FixtureAccount, FixtureAccountInput } from './accounts.ts';
export type { ErrorDetail } from './errors.ts';
export type { FaultKind, FaultRule } from './faults.ts';
export type { PayPalMoney } from './money.ts';
export type { PayerInput } from './orders.ts';
export {
  type FixtureCall,
  type PayPalFixture,
  type PayPalFixtureOptions,
  startPayPalFixture,
} from './server.ts';
export type {
  PayPalAuthorization,
  PayPalCapture,
  PayPalLink,
  PayPalOrder,
  PayPalPayee,
  PayPalPurchaseUnit,
  PayPalRefund,
  WebhookEvent,
} from './shapes.ts';
export type {
  AuthorizationStatus,
  CaptureOutcome,
  CaptureStatus,
  Intent,
  OrderStatus,
  RefundStatus,
} from './state.ts';
export {
  type AuthorizationEventType,
  type CaptureEventType,
  type OrderEventType,
  type RefundEventType,
  serializeEvent,
  type WebhookDelivery,
  type WebhookDeliveryOptions,
} from './webhooks.ts';
