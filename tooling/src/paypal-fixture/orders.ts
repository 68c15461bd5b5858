import { type ApiFailure, detail, type ErrorDetail, fail } from './errors.ts';
import { isoSeconds, newPayerId, newResourceId } from './identifiers.ts';
import { formatMoney, type Money, parseMoney } from './money.ts';
import {
  notFound,
  optionalText,
  recordAuthorization,
  recordCapture,
  renderAuthorization,
  renderCapture,
  renderRefund,
} from './payments.ts';
import type { PayPalLink, PayPalOrder, PayPalPurchaseUnit } from './shapes.ts';
import {
  type ExperienceContext,
  type FixtureWorld,
  type Intent,
  type ItemRecord,
  type OrderRecord,
  ownRecord,
  type PayerRecord,
  type PurchaseUnitRecord,
} from './state.ts';

/** Orders v2 (§2): create, get, capture, authorize, and the buyer's approval. */

const MAX_PURCHASE_UNITS = 10;
/** §2.1 breakdown parts, with the sign each contributes to `amount.value`. */
const BREAKDOWN_SIGNS: Readonly<Record<string, 1n | -1n>> = {
  item_total: 1n,
  tax_total: 1n,
  shipping: 1n,
  handling: 1n,
  insurance: 1n,
  shipping_discount: -1n,
  discount: -1n,
};
const QUANTITY_PATTERN = /^[1-9][0-9]{0,9}$/;
const ITEM_CATEGORIES = new Set(['DIGITAL_GOODS', 'PHYSICAL_GOODS', 'DONATION']);

export interface OrderRequest {
  readonly intent: Intent;
  readonly purchaseUnits: readonly PurchaseUnitRecord[];
  /** From `payment_source.paypal.experience_context` (→ PAYER_ACTION_REQUIRED) … */
  readonly experienceContext?: ExperienceContext;
  /** … or from the deprecated `application_context` (→ CREATED with an `approve` link). */
  readonly applicationContext?: ExperienceContext;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** PayPal's pointer to a purchase unit: by reference id, `'default'` for a lone unit without one (§6). */
function unitPointer(unit: Record<string, unknown>, index: number, count: number): string {
  if (typeof unit.reference_id === 'string') return `/purchase_units/@reference_id=='${unit.reference_id}'`;
  return count === 1 ? "/purchase_units/@reference_id=='default'" : `/purchase_units/${index}`;
}

function sumOf(values: readonly bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}

function validateItems(
  input: unknown,
  pointer: string,
  currency: string | undefined,
  details: ErrorDetail[],
): ItemRecord[] | undefined {
  if (input === undefined) return undefined;
  if (!Array.isArray(input)) {
    details.push(detail('INVALID_PARAMETER_SYNTAX', { field: `${pointer}/items` }));
    return undefined;
  }
  const items: ItemRecord[] = [];
  input.forEach((raw, index) => {
    const field = `${pointer}/items/${index}`;
    const item = asObject(raw);
    if (!item) {
      details.push(detail('INVALID_PARAMETER_SYNTAX', { field }));
      return;
    }
    const before = details.length;
    if (item.name === undefined)
      details.push(detail('MISSING_REQUIRED_PARAMETER', { field: `${field}/name` }));
    const name = optionalText(item, 'name', `${field}/name`, 127, details);
    const description = optionalText(item, 'description', `${field}/description`, 127, details);
    const sku = optionalText(item, 'sku', `${field}/sku`, 127, details);
    if (item.category !== undefined && !ITEM_CATEGORIES.has(item.category as string)) {
      details.push(
        detail('INVALID_PARAMETER_VALUE', { field: `${field}/category`, value: String(item.category) }),
      );
    }
    if (item.quantity === undefined) {
      details.push(detail('MISSING_REQUIRED_PARAMETER', { field: `${field}/quantity` }));
    } else if (typeof item.quantity !== 'string' || !QUANTITY_PATTERN.test(item.quantity)) {
      details.push(
        detail('INVALID_PARAMETER_SYNTAX', { field: `${field}/quantity`, value: String(item.quantity) }),
      );
    }
    const unitAmount = parseMoney(item.unit_amount, `${field}/unit_amount`, 'non-negative');
    if (!unitAmount.ok) details.push(...unitAmount.details);
    const tax = item.tax === undefined ? undefined : parseMoney(item.tax, `${field}/tax`, 'non-negative');
    if (tax && !tax.ok) details.push(...tax.details);
    for (const [key, parsed] of [
      ['unit_amount', unitAmount],
      ['tax', tax],
    ] as const) {
      if (parsed?.ok && currency !== undefined && parsed.money.currency !== currency) {
        details.push(
          detail('CURRENCY_MISMATCH', {
            field: `${field}/${key}/currency_code`,
            value: parsed.money.currency,
          }),
        );
      }
    }
    if (details.length > before || !unitAmount.ok || name === undefined) return;
    items.push({
      name,
      unitAmount: unitAmount.money,
      quantity: item.quantity as string,
      ...(tax?.ok ? { tax: tax.money } : {}),
      ...(description === undefined ? {} : { description }),
      ...(sku === undefined ? {} : { sku }),
      ...(item.category === undefined ? {} : { category: item.category as string }),
    });
  });
  return items;
}

/**
 * One `purchase_unit_request` (§2.1, §8): money fields, breakdown sum (`AMOUNT_MISMATCH`), item
 * totals (`ITEM_TOTAL_*`, `TAX_TOTAL_*`), string lengths.
 */
function validatePurchaseUnit(
  raw: unknown,
  index: number,
  count: number,
  details: ErrorDetail[],
): PurchaseUnitRecord | undefined {
  const unit = asObject(raw);
  if (!unit) {
    details.push(detail('INVALID_PARAMETER_SYNTAX', { field: `/purchase_units/${index}` }));
    return undefined;
  }
  const pointer = unitPointer(unit, index, count);
  const before = details.length;
  const referenceId = optionalText(unit, 'reference_id', `${pointer}/reference_id`, 256, details);
  const customId = optionalText(unit, 'custom_id', `${pointer}/custom_id`, 127, details);
  const invoiceId = optionalText(unit, 'invoice_id', `${pointer}/invoice_id`, 127, details);
  const description = optionalText(unit, 'description', `${pointer}/description`, 127, details);
  const softDescriptor = optionalText(unit, 'soft_descriptor', `${pointer}/soft_descriptor`, 22, details);

  const amount = parseMoney(unit.amount, `${pointer}/amount`, 'positive');
  if (!amount.ok) details.push(...amount.details);
  const currency = amount.ok ? amount.money.currency : undefined;

  const rawBreakdown = asObject(unit.amount)?.breakdown;
  const breakdown: [string, Money][] = [];
  if (rawBreakdown !== undefined) {
    const parts = asObject(rawBreakdown);
    if (!parts) details.push(detail('INVALID_PARAMETER_SYNTAX', { field: `${pointer}/amount/breakdown` }));
    for (const [key, value] of Object.entries(parts ?? {})) {
      if (!(key in BREAKDOWN_SIGNS)) continue;
      const part = parseMoney(value, `${pointer}/amount/breakdown/${key}`, 'non-negative');
      if (!part.ok) details.push(...part.details);
      else if (currency !== undefined && part.money.currency !== currency) {
        details.push(
          detail('CURRENCY_MISMATCH', {
            field: `${pointer}/amount/breakdown/${key}/currency_code`,
            value: part.money.currency,
          }),
        );
      } else breakdown.push([key, part.money]);
    }
  }
  const items = validateItems(unit.items, pointer, currency, details);
  if (details.length > before || !amount.ok) return undefined;

  const part = (key: string) => breakdown.find(([name]) => name === key)?.[1];
  if (rawBreakdown !== undefined) {
    const expected = sumOf(breakdown.map(([key, value]) => BREAKDOWN_SIGNS[key]! * value.minor));
    if (expected !== amount.money.minor) {
      details.push(
        detail('AMOUNT_MISMATCH', {
          field: `${pointer}/amount/value`,
          value: formatMoney(amount.money).value,
        }),
      );
    }
  }
  if (items && items.length > 0) {
    const itemTotal = sumOf(items.map((item) => item.unitAmount.minor * BigInt(item.quantity)));
    const declaredItemTotal = part('item_total');
    if (!declaredItemTotal) {
      details.push(detail('ITEM_TOTAL_REQUIRED', { field: `${pointer}/amount/breakdown/item_total` }));
    } else if (declaredItemTotal.minor !== itemTotal) {
      details.push(
        detail('ITEM_TOTAL_MISMATCH', {
          field: `${pointer}/amount/breakdown/item_total/value`,
          value: formatMoney(declaredItemTotal).value,
        }),
      );
    }
    if (items.some((item) => item.tax)) {
      const taxTotal = sumOf(items.map((item) => (item.tax?.minor ?? 0n) * BigInt(item.quantity)));
      const declaredTaxTotal = part('tax_total');
      if (!declaredTaxTotal) {
        details.push(detail('TAX_TOTAL_REQUIRED', { field: `${pointer}/amount/breakdown/tax_total` }));
      } else if (declaredTaxTotal.minor !== taxTotal) {
        details.push(
          detail('TAX_TOTAL_MISMATCH', {
            field: `${pointer}/amount/breakdown/tax_total/value`,
            value: formatMoney(declaredTaxTotal).value,
          }),
        );
      }
    }
  }
  if (details.length > before) return undefined;
  return {
    referenceId: referenceId ?? 'default',
    amount: amount.money,
    ...(rawBreakdown === undefined ? {} : { breakdown }),
    ...(items === undefined ? {} : { items }),
    ...(customId === undefined ? {} : { customId }),
    ...(invoiceId === undefined ? {} : { invoiceId }),
    ...(description === undefined ? {} : { description }),
    ...(softDescriptor === undefined ? {} : { softDescriptor }),
    ...(unit.shipping === undefined ? {} : { shipping: unit.shipping }),
  };
}

function urlField(context: Record<string, unknown>, key: string, pointer: string, details: ErrorDetail[]) {
  const value = context[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !URL.canParse(value)) {
    details.push(detail('INVALID_PARAMETER_SYNTAX', { field: `${pointer}/${key}`, value: String(value) }));
    return undefined;
  }
  return value;
}

function validateContext(
  raw: unknown,
  source: ExperienceContext['source'],
  pointer: string,
  details: ErrorDetail[],
): ExperienceContext | undefined {
  if (raw === undefined) return undefined;
  const context = asObject(raw);
  if (!context) {
    details.push(detail('INVALID_PARAMETER_SYNTAX', { field: pointer }));
    return undefined;
  }
  const returnUrl = urlField(context, 'return_url', pointer, details);
  const cancelUrl = urlField(context, 'cancel_url', pointer, details);
  return {
    source,
    ...(returnUrl === undefined ? {} : { returnUrl }),
    ...(cancelUrl === undefined ? {} : { cancelUrl }),
    raw: context,
  };
}

/** Parses an `order_request` (§2.1); schema problems answer 400, business rules 422 (§6). */
export function validateOrderRequest(body: unknown): { ok: true; request: OrderRequest } | ApiFailure {
  const request = asObject(body);
  if (!request) return fail(detail('MALFORMED_REQUEST_JSON'));
  const details: ErrorDetail[] = [];
  const { intent } = request;
  if (intent === undefined) details.push(detail('MISSING_REQUIRED_PARAMETER', { field: '/intent' }));
  else if (intent !== 'CAPTURE' && intent !== 'AUTHORIZE') {
    details.push(detail('INVALID_PARAMETER_VALUE', { field: '/intent', value: String(intent) }));
  }
  const units = request.purchase_units;
  const purchaseUnits: PurchaseUnitRecord[] = [];
  if (units === undefined) details.push(detail('MISSING_REQUIRED_PARAMETER', { field: '/purchase_units' }));
  else if (!Array.isArray(units))
    details.push(detail('INVALID_PARAMETER_SYNTAX', { field: '/purchase_units' }));
  else if (units.length === 0) details.push(detail('INVALID_ARRAY_MIN_ITEMS', { field: '/purchase_units' }));
  else if (units.length > MAX_PURCHASE_UNITS) {
    details.push(detail('INVALID_ARRAY_MAX_ITEMS', { field: '/purchase_units' }));
  } else {
    units.forEach((raw, index) => {
      const unit = validatePurchaseUnit(raw, index, units.length, details);
      if (unit) purchaseUnits.push(unit);
    });
  }

  let experienceContext: ExperienceContext | undefined;
  if (request.payment_source !== undefined) {
    const source = asObject(request.payment_source);
    if (!source) details.push(detail('INVALID_PARAMETER_SYNTAX', { field: '/payment_source' }));
    for (const key of Object.keys(source ?? {})) {
      // Only the PayPal wallet is imitated; cards, vaults and APMs are not.
      if (key !== 'paypal') details.push(detail('NOT_SUPPORTED', { field: `/payment_source/${key}` }));
    }
    const paypal = source?.paypal === undefined ? undefined : asObject(source.paypal);
    if (source?.paypal !== undefined && !paypal) {
      details.push(detail('INVALID_PARAMETER_SYNTAX', { field: '/payment_source/paypal' }));
    }
    experienceContext = validateContext(
      paypal?.experience_context ?? {},
      'payment_source',
      '/payment_source/paypal/experience_context',
      details,
    );
  }
  const applicationContext = validateContext(
    request.application_context,
    'application_context',
    '/application_context',
    details,
  );
  if (details.length > 0) return fail(...details);

  if (Array.isArray(units) && units.length > 1) {
    units.forEach((raw, index) => {
      if (asObject(raw)?.reference_id === undefined) {
        details.push(detail('REFERENCE_ID_REQUIRED', { field: `/purchase_units/${index}/reference_id` }));
      }
    });
    const references = purchaseUnits.map((unit) => unit.referenceId);
    if (new Set(references).size !== references.length) {
      details.push(detail('DUPLICATE_REFERENCE_ID', { field: '/purchase_units' }));
    }
    if (new Set(purchaseUnits.map((unit) => unit.amount.currency)).size > 1) {
      details.push(detail('MULTI_CURRENCY_ORDER', { field: '/purchase_units' }));
    }
    if (intent === 'AUTHORIZE')
      details.push(detail('UNSUPPORTED_INTENT', { field: '/intent', value: 'AUTHORIZE' }));
  }
  if (details.length > 0) return fail(...details);
  return {
    ok: true,
    request: {
      intent: intent as Intent,
      purchaseUnits,
      ...(experienceContext === undefined ? {} : { experienceContext }),
      ...(applicationContext === undefined ? {} : { applicationContext }),
    },
  };
}

/** An invoice id another order of the account has already been paid with (§2.1 `invoice_id`). */
function isInvoiceIdTaken(
  world: FixtureWorld,
  accountId: string,
  invoiceId: string,
  orderId?: string,
): boolean {
  for (const capture of world.state.captures.values()) {
    if (capture.accountId !== accountId || capture.orderId === orderId) continue;
    if (capture.invoiceId === invoiceId && capture.status !== 'DECLINED' && capture.status !== 'FAILED')
      return true;
  }
  return false;
}

function duplicateInvoiceIds(
  world: FixtureWorld,
  order: Pick<OrderRecord, 'accountId' | 'purchaseUnits'> & { id?: string },
) {
  if (!world.accountOf(order.accountId).blocksDuplicateInvoiceIds) return [];
  return order.purchaseUnits
    .filter(
      (unit) =>
        unit.invoiceId !== undefined && isInvoiceIdTaken(world, order.accountId, unit.invoiceId, order.id),
    )
    .map((unit) =>
      detail('DUPLICATE_INVOICE_ID', {
        field: `/purchase_units/@reference_id=='${unit.referenceId}'/invoice_id`,
        value: unit.invoiceId!,
      }),
    );
}

/** `POST /v2/checkout/orders` (§2.1, §2.2). */
export function createOrder(
  world: FixtureWorld,
  accountId: string,
  body: unknown,
  captureOutcome: OrderRecord['captureOutcome'],
): { ok: true; order: OrderRecord } | ApiFailure {
  const parsed = validateOrderRequest(body);
  if (!parsed.ok) return parsed;
  const { request } = parsed;
  const duplicates = duplicateInvoiceIds(world, { accountId, purchaseUnits: request.purchaseUnits });
  if (duplicates.length > 0) return fail(...duplicates);
  const now = world.now();
  const context = request.experienceContext ?? request.applicationContext;
  const order: OrderRecord = {
    id: newResourceId(),
    accountId,
    intent: request.intent,
    // §2.2: with payment_source.paypal.experience_context the order waits for the payer.
    status: request.experienceContext ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
    purchaseUnits: request.purchaseUnits,
    ...(context === undefined ? {} : { experienceContext: context }),
    createTime: now,
    updateTime: now,
    expired: false,
    captureOutcome,
    captureIds: [],
    authorizationIds: [],
  };
  world.state.orders.set(order.id, order);
  return { ok: true, order };
}

/** Expired by the test hook, or not completed within the approval window (§2.2). */
export function isOrderExpired(world: FixtureWorld, order: OrderRecord): boolean {
  if (order.expired) return true;
  const isSettled = order.status === 'COMPLETED' || order.status === 'VOIDED';
  return !isSettled && world.now() >= order.createTime + world.orderLifetimeMs;
}

/** The account's live order, or a 404 `INVALID_RESOURCE_ID` (§2.3). */
export function findOrder(
  world: FixtureWorld,
  accountId: string,
  orderId: string,
): { ok: true; order: OrderRecord } | ApiFailure {
  const order = ownRecord(world.state.orders, orderId, accountId);
  if (!order || isOrderExpired(world, order)) return notFound('order_id', orderId);
  return { ok: true, order };
}

/**
 * `POST /v2/checkout/orders/{id}/capture` (§2.4): one capture per purchase unit with the order's
 * configured outcome; the order turns COMPLETED even when the capture is DECLINED.
 */
export function captureOrder(
  world: FixtureWorld,
  accountId: string,
  orderId: string,
): { ok: true; order: OrderRecord } | ApiFailure {
  const found = findOrder(world, accountId, orderId);
  if (!found.ok) return found;
  const { order } = found;
  if (order.intent !== 'CAPTURE') return fail(detail('ACTION_DOES_NOT_MATCH_INTENT'));
  if (order.status === 'COMPLETED') return fail(detail('ORDER_ALREADY_CAPTURED'));
  if (order.status !== 'APPROVED') return fail(detail('ORDER_NOT_APPROVED'));
  const duplicates = duplicateInvoiceIds(world, order);
  if (duplicates.length > 0) return fail(...duplicates);
  for (const unit of order.purchaseUnits) {
    recordCapture(world, {
      accountId,
      orderId,
      referenceId: unit.referenceId,
      amount: unit.amount,
      outcome: order.captureOutcome,
      ...(unit.customId === undefined ? {} : { customId: unit.customId }),
      ...(unit.invoiceId === undefined ? {} : { invoiceId: unit.invoiceId }),
      finalCapture: true,
    });
  }
  order.status = 'COMPLETED';
  order.updateTime = world.now();
  return { ok: true, order };
}

/** `POST /v2/checkout/orders/{id}/authorize` (§2.5). */
export function authorizeOrder(
  world: FixtureWorld,
  accountId: string,
  orderId: string,
): { ok: true; order: OrderRecord } | ApiFailure {
  const found = findOrder(world, accountId, orderId);
  if (!found.ok) return found;
  const { order } = found;
  if (order.intent !== 'AUTHORIZE') return fail(detail('ACTION_DOES_NOT_MATCH_INTENT'));
  if (order.status === 'COMPLETED' || order.status === 'VOIDED')
    return fail(detail('ORDER_ALREADY_AUTHORIZED'));
  if (order.status !== 'APPROVED') return fail(detail('ORDER_NOT_APPROVED'));
  for (const unit of order.purchaseUnits) {
    recordAuthorization(world, {
      accountId,
      orderId,
      referenceId: unit.referenceId,
      amount: unit.amount,
      outcome: order.captureOutcome,
      ...(unit.customId === undefined ? {} : { customId: unit.customId }),
      ...(unit.invoiceId === undefined ? {} : { invoiceId: unit.invoiceId }),
    });
  }
  order.status = 'COMPLETED';
  order.updateTime = world.now();
  return { ok: true, order };
}

/** The purchase unit back in request form, so a PATCH can be validated like a create. */
function unitAsRequest(unit: PurchaseUnitRecord): Record<string, unknown> {
  return {
    reference_id: unit.referenceId,
    amount: {
      ...formatMoney(unit.amount),
      ...(unit.breakdown === undefined
        ? {}
        : { breakdown: Object.fromEntries(unit.breakdown.map(([key, value]) => [key, formatMoney(value)])) }),
    },
    ...(unit.items === undefined
      ? {}
      : {
          items: unit.items.map((item) => ({
            name: item.name,
            unit_amount: formatMoney(item.unitAmount),
            quantity: item.quantity,
            ...(item.tax === undefined ? {} : { tax: formatMoney(item.tax) }),
            ...(item.description === undefined ? {} : { description: item.description }),
            ...(item.sku === undefined ? {} : { sku: item.sku }),
            ...(item.category === undefined ? {} : { category: item.category }),
          })),
        }),
    ...(unit.customId === undefined ? {} : { custom_id: unit.customId }),
    ...(unit.invoiceId === undefined ? {} : { invoice_id: unit.invoiceId }),
    ...(unit.description === undefined ? {} : { description: unit.description }),
    ...(unit.softDescriptor === undefined ? {} : { soft_descriptor: unit.softDescriptor }),
    ...(unit.shipping === undefined ? {} : { shipping: unit.shipping }),
  };
}

/** §2.6 patchable paths this fixture supports: `/intent` and these fields of a purchase unit. */
const PATCH_UNIT_PATH = /^\/purchase_units\/@reference_id=='([^']+)'\/([a-z_]+)$/;
const PATCHABLE_UNIT_FIELDS = new Set([
  'amount',
  'items',
  'custom_id',
  'invoice_id',
  'description',
  'soft_descriptor',
  'shipping',
]);

/**
 * `PATCH /v2/checkout/orders/{id}` (§2.6): a JSON Patch array on CREATED / APPROVED orders (and
 * PAYER_ACTION_REQUIRED ones, which have not been approved yet either). The patched order is
 * validated like a new one, so amounts and breakdowns obey §8 again. All or nothing.
 */
export function patchOrder(
  world: FixtureWorld,
  accountId: string,
  orderId: string,
  body: unknown,
): { ok: true; order: OrderRecord } | ApiFailure {
  const found = findOrder(world, accountId, orderId);
  if (!found.ok) return found;
  const { order } = found;
  if (order.status === 'COMPLETED' || order.status === 'VOIDED')
    return fail(detail('ORDER_ALREADY_COMPLETED'));
  if (!Array.isArray(body)) return fail(detail('MALFORMED_REQUEST_JSON'));
  const draft = { intent: order.intent as string, purchase_units: order.purchaseUnits.map(unitAsRequest) };
  for (const [index, raw] of body.entries()) {
    const operation = asObject(raw);
    const { op, path, value } = operation ?? {};
    if (path === undefined) return fail(detail('PATCH_PATH_REQUIRED', { field: `/${index}/path` }));
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      return fail(detail('INVALID_PATCH_OPERATION', { field: `/${index}/op`, value: String(op) }));
    }
    if (op !== 'remove' && value === undefined) {
      return fail(detail('PATCH_VALUE_REQUIRED', { field: `/${index}/value` }));
    }
    let target: Record<string, unknown>;
    let key: string;
    if (path === '/intent') {
      if (op === 'remove') return fail(detail('NOT_PATCHABLE', { field: `/${index}/path`, value: path }));
      target = draft;
      key = 'intent';
    } else {
      const match = typeof path === 'string' ? PATCH_UNIT_PATH.exec(path) : null;
      if (!match)
        return fail(detail('INVALID_JSON_POINTER_FORMAT', { field: `/${index}/path`, value: String(path) }));
      const unit = draft.purchase_units.find((entry) => entry.reference_id === match[1]);
      if (!unit)
        return fail(
          detail('INVALID_JSON_POINTER_FORMAT', { field: `/${index}/path`, value: path as string }),
        );
      if (!PATCHABLE_UNIT_FIELDS.has(match[2]!)) {
        return fail(detail('NOT_PATCHABLE', { field: `/${index}/path`, value: path as string }));
      }
      target = unit;
      key = match[2]!;
    }
    const isPresent = target[key] !== undefined;
    if ((op === 'add' && isPresent) || (op !== 'add' && !isPresent)) {
      return fail(detail('INVALID_PATCH_OPERATION', { field: `/${index}/op`, value: op }));
    }
    if (op === 'remove') delete target[key];
    else target[key] = value;
  }
  const parsed = validateOrderRequest(draft);
  if (!parsed.ok) return parsed;
  const duplicates = duplicateInvoiceIds(world, {
    id: order.id,
    accountId,
    purchaseUnits: parsed.request.purchaseUnits,
  });
  if (duplicates.length > 0) return fail(...duplicates);
  order.intent = parsed.request.intent;
  order.purchaseUnits = parsed.request.purchaseUnits;
  order.updateTime = world.now();
  return { ok: true, order };
}

/** Who approves in the buyer's browser; every field has a default. */
export interface PayerInput {
  readonly payerId?: string;
  readonly email?: string;
  readonly givenName?: string;
  readonly surname?: string;
  readonly countryCode?: string;
}

/** The buyer's approval (§2.2 return redirect): the order turns APPROVED. Throws on misuse (a test bug). */
export function approveOrder(
  world: FixtureWorld,
  orderId: string,
  payer: PayerInput = {},
): { order: OrderRecord; returnUrl?: string } {
  const order = world.state.orders.get(orderId);
  if (!order) throw new Error(`unknown order ${orderId}`);
  if (isOrderExpired(world, order)) throw new Error(`order ${orderId} has expired`);
  if (order.status !== 'APPROVED') {
    if (order.status !== 'CREATED' && order.status !== 'PAYER_ACTION_REQUIRED') {
      throw new Error(`order ${orderId} is ${order.status} and cannot be approved`);
    }
    const payerId = payer.payerId ?? newPayerId();
    const record: PayerRecord = {
      payerId,
      email: payer.email ?? `buyer-${payerId.toLowerCase()}@example.com`,
      givenName: payer.givenName ?? 'John',
      surname: payer.surname ?? 'Doe',
      countryCode: payer.countryCode ?? 'US',
    };
    order.payer = record;
    order.status = 'APPROVED';
    order.updateTime = world.now();
  }
  const returnUrl = order.experienceContext?.returnUrl;
  if (returnUrl === undefined) return { order };
  // §2.2: PayPal sends the buyer to return_url with `token` (order id) and `PayerID`.
  const target = new URL(returnUrl);
  target.searchParams.set('token', order.id);
  target.searchParams.set('PayerID', order.payer!.payerId);
  return { order, returnUrl: target.href };
}

/** Where the buyer lands after cancelling on PayPal: cancel_url with `token` (§2.1). */
export function cancelUrlOf(order: OrderRecord): string | undefined {
  const cancelUrl = order.experienceContext?.cancelUrl;
  if (cancelUrl === undefined) return undefined;
  const target = new URL(cancelUrl);
  target.searchParams.set('token', order.id);
  return target.href;
}

/** The buyer's approval page for an order (what `approve` / `payer-action` point at). */
export function approvalUrl(world: FixtureWorld, orderId: string): string {
  return `${world.baseUrl}/checkoutnow?token=${orderId}`;
}

/** §2.2 links by status: CREATED → self/approve/update/capture|authorize; PAYER_ACTION_REQUIRED → self/payer-action. */
function orderLinks(world: FixtureWorld, order: OrderRecord): PayPalLink[] {
  const self = `${world.baseUrl}/v2/checkout/orders/${order.id}`;
  const links: PayPalLink[] = [{ href: self, rel: 'self', method: 'GET' }];
  const action: PayPalLink =
    order.intent === 'CAPTURE'
      ? { href: `${self}/capture`, rel: 'capture', method: 'POST' }
      : { href: `${self}/authorize`, rel: 'authorize', method: 'POST' };
  switch (order.status) {
    case 'CREATED':
      links.push({ href: approvalUrl(world, order.id), rel: 'approve', method: 'GET' });
      links.push({ href: self, rel: 'update', method: 'PATCH' }, action);
      break;
    case 'PAYER_ACTION_REQUIRED':
      links.push({ href: approvalUrl(world, order.id), rel: 'payer-action', method: 'GET' });
      break;
    case 'APPROVED':
      links.push({ href: self, rel: 'update', method: 'PATCH' }, action);
      break;
    default:
      break;
  }
  return links;
}

function renderPayments(world: FixtureWorld, order: OrderRecord, referenceId: string) {
  const { captures, authorizations, refunds } = world.state;
  const unitCaptures = order.captureIds
    .map((id) => captures.get(id)!)
    .filter((capture) => capture.referenceId === referenceId);
  const unitAuthorizations = order.authorizationIds
    .map((id) => authorizations.get(id)!)
    .filter((authorization) => authorization.referenceId === referenceId);
  const unitRefunds = unitCaptures.flatMap((capture) => capture.refundIds.map((id) => refunds.get(id)!));
  if (unitCaptures.length + unitAuthorizations.length === 0) return undefined;
  return {
    ...(unitAuthorizations.length === 0
      ? {}
      : { authorizations: unitAuthorizations.map((entry) => renderAuthorization(world, entry, false)) }),
    ...(unitCaptures.length === 0
      ? {}
      : { captures: unitCaptures.map((entry) => renderCapture(world, entry, false)) }),
    ...(unitRefunds.length === 0
      ? {}
      : { refunds: unitRefunds.map((entry) => renderRefund(world, entry, true)) }),
  };
}

function renderPurchaseUnit(
  world: FixtureWorld,
  order: OrderRecord,
  unit: PurchaseUnitRecord,
): PayPalPurchaseUnit {
  const account = world.accountOf(order.accountId);
  const payments = renderPayments(world, order, unit.referenceId);
  return {
    reference_id: unit.referenceId,
    amount: {
      ...formatMoney(unit.amount),
      ...(unit.breakdown === undefined
        ? {}
        : { breakdown: Object.fromEntries(unit.breakdown.map(([key, value]) => [key, formatMoney(value)])) }),
    },
    payee: { email_address: account.email, merchant_id: account.merchantId },
    ...(unit.description === undefined ? {} : { description: unit.description }),
    ...(unit.customId === undefined ? {} : { custom_id: unit.customId }),
    ...(unit.invoiceId === undefined ? {} : { invoice_id: unit.invoiceId }),
    ...(unit.softDescriptor === undefined ? {} : { soft_descriptor: unit.softDescriptor }),
    ...(unit.items === undefined
      ? {}
      : {
          items: unit.items.map((item) => ({
            name: item.name,
            unit_amount: formatMoney(item.unitAmount),
            ...(item.tax === undefined ? {} : { tax: formatMoney(item.tax) }),
            quantity: item.quantity,
            ...(item.description === undefined ? {} : { description: item.description }),
            ...(item.sku === undefined ? {} : { sku: item.sku }),
            ...(item.category === undefined ? {} : { category: item.category }),
          })),
        }),
    ...(unit.shipping === undefined ? {} : { shipping: unit.shipping }),
    ...(payments === undefined ? {} : { payments }),
  };
}

function renderPaymentSource(order: OrderRecord): PayPalOrder['payment_source'] {
  const payer = order.payer;
  const context = order.experienceContext;
  const experienceContext = context?.source === 'payment_source' ? context.raw : undefined;
  if (payer) {
    return {
      paypal: {
        email_address: payer.email,
        account_id: payer.payerId,
        account_status: 'VERIFIED',
        name: { given_name: payer.givenName, surname: payer.surname },
        address: { country_code: payer.countryCode },
        ...(experienceContext === undefined ? {} : { experience_context: experienceContext }),
      },
    };
  }
  if (experienceContext !== undefined) return { paypal: { experience_context: experienceContext } };
  return undefined;
}

/**
 * The `order` resource (§2.2). `minimal` is `{ id, status, links }`; `payments-minimal` is the
 * minimal capture/authorize answer, which keeps `purchase_units[].reference_id` + `payments`
 * but no amounts (§2.4); `representation` is the full order.
 */
export function renderOrder(
  world: FixtureWorld,
  order: OrderRecord,
  view: 'minimal' | 'payments-minimal' | 'representation',
): PayPalOrder {
  const links = orderLinks(world, order);
  if (view === 'minimal') return { id: order.id, status: order.status, links };
  const paymentSource = renderPaymentSource(order);
  const payer = order.payer && {
    name: { given_name: order.payer.givenName, surname: order.payer.surname },
    email_address: order.payer.email,
    payer_id: order.payer.payerId,
    address: { country_code: order.payer.countryCode },
  };
  if (view === 'payments-minimal') {
    return {
      id: order.id,
      status: order.status,
      ...(paymentSource === undefined ? {} : { payment_source: paymentSource }),
      purchase_units: order.purchaseUnits.map((unit) => {
        const payments = renderPayments(world, order, unit.referenceId);
        return { reference_id: unit.referenceId, ...(payments === undefined ? {} : { payments }) };
      }),
      ...(payer === undefined ? {} : { payer }),
      links,
    };
  }
  return {
    id: order.id,
    intent: order.intent,
    status: order.status,
    ...(paymentSource === undefined ? {} : { payment_source: paymentSource }),
    purchase_units: order.purchaseUnits.map((unit) => renderPurchaseUnit(world, order, unit)),
    ...(payer === undefined ? {} : { payer }),
    create_time: isoSeconds(order.createTime),
    update_time: isoSeconds(order.updateTime),
    links,
  };
}
