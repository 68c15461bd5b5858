import type { AdminSession, Result } from '@cartwright/service';
import { parseDecimal } from '../channel-form.ts';
import type { MessageKey } from '../i18n.ts';
import type { AdminKit, FormBody } from '../kit.ts';
import { nameOf } from '../methods/form.ts';

// The rule page's test cart (decision 0047, spec "Preview requires the storefront cart context
// token"): the merchant composes a cart of a sales channel and the page builds it through the
// storefront operations themselves (`store.context.create`, `store.cart.lines.*`,
// `store.cart.update`), reached as staff reach any storefront operation: `kit.act` with the
// channel's id and the context token (the registry's one door, as the MCP tools use it). The
// token that comes back stays in the form, the preview sends it to `automation.preview`.

/** How many product lines the composer offers. */
export const TEST_CART_LINES = 3;

/** How many products the product choice lists (a search narrows them). */
const PRODUCT_CHOICES = 100;

/** What the composer's fields hold, as posted (`tc:` fields). */
export interface TestCartForm {
  readonly channelId: string;
  readonly lines: readonly { readonly productId: string; readonly quantity: string }[];
  readonly shippingMethodId: string;
  readonly paymentMethodId: string;
  readonly search: string;
  /** The context token of the test cart built so far ('' before the first). */
  readonly token: string;
}

export interface Choice {
  readonly id: string;
  readonly label: string;
}

/** The channels, products and methods the composer offers. */
export interface TestCartChoices {
  readonly channels: readonly Choice[];
  readonly products: readonly Choice[];
  readonly shippingMethods: readonly Choice[];
  readonly paymentMethods: readonly Choice[];
}

/** A composed test cart as the storefront answers it. */
export interface TestCartSummary {
  readonly lineCount: number;
  readonly quantity: number;
  readonly total: number;
  readonly currency: string;
}

/** A refusal pinned to one composer field (its input id) with the text to show. */
export interface TestCartIssue {
  readonly field: string;
  readonly key: MessageKey;
  readonly detail: string;
}

const text = (form: FormBody, key: string): string =>
  typeof form[key] === 'string' ? (form[key] as string).trim() : '';

export const lineField = (index: number, part: 'product' | 'quantity') => `tc-${part}-${index}`;

export function testCartFormOf(form: FormBody): TestCartForm {
  return {
    channelId: text(form, 'tc:channel'),
    lines: Array.from({ length: TEST_CART_LINES }, (_, index) => ({
      productId: text(form, `tc:product:${index}`),
      quantity: text(form, `tc:quantity:${index}`),
    })),
    shippingMethodId: text(form, 'tc:shipping'),
    paymentMethodId: text(form, 'tc:payment'),
    search: text(form, 'tc:search').slice(0, 200),
    token: text(form, 'tc:token'),
  };
}

export const EMPTY_TEST_CART: TestCartForm = {
  channelId: '',
  lines: Array.from({ length: TEST_CART_LINES }, () => ({ productId: '', quantity: '1' })),
  shippingMethodId: '',
  paymentMethodId: '',
  search: '',
  token: '',
};

interface Named {
  readonly id: string;
  readonly key?: string | null;
  readonly translations?: Record<string, { name?: string | null } | null> | null;
}

const labelOf = (record: Named, locale: string, fallback: string) =>
  nameOf({ id: record.id, key: fallback, translations: (record.translations ?? {}) as never }, locale, locale)
    .text;

/**
 * What the composer offers: the shop's channels (from `automation.list`, passed in), the
 * products of `catalog.products.list` (narrowed by the search; the chosen ones stay offered) and
 * the active shipping and payment methods.
 */
export async function testCartChoices(
  kit: AdminKit,
  session: AdminSession,
  locale: string,
  channels: readonly { id: string; isMain: boolean; data: { name?: Record<string, string> } }[],
  wanted: TestCartForm,
): Promise<TestCartChoices> {
  const has = (permission: string) => session.principal.permissions.has(permission as never);
  const [listed, shipping, payment] = await Promise.all([
    has('catalog.read')
      ? kit.act(session, 'catalog.products.list', {
          limit: PRODUCT_CHOICES,
          active: true,
          kind: 'all',
          ...(wanted.search ? { search: wanted.search } : {}),
        })
      : null,
    kit.act(session, 'basis.shipping_methods.list', {}),
    kit.act(session, 'basis.payment_methods.list', {}),
  ]);
  type Product = Named & { sku: string };
  const products: Product[] = listed?.ok ? (listed.value as { items: Product[] }).items : [];
  const missing = wanted.lines
    .map((line) => line.productId)
    .filter((id) => id !== '' && !products.some((product) => product.id === id));
  for (const id of new Set(missing)) {
    const got = has('catalog.read') ? await kit.act(session, 'catalog.products.get', { id }) : null;
    if (got?.ok) products.unshift((got.value as { product: Product }).product);
  }
  const methods = (result: Result<unknown>) =>
    result.ok
      ? (result.value as { items: (Named & { active: boolean })[] }).items
          .filter((method) => method.active)
          .map((method) => ({ id: method.id, label: labelOf(method, locale, method.key ?? method.id) }))
      : [];
  return {
    channels: channels.map((channel) => ({
      id: channel.id,
      label:
        channel.data.name?.[locale] ??
        channel.data.name?.en ??
        Object.values(channel.data.name ?? {})[0] ??
        channel.id,
    })),
    products: products.map((product) => ({
      id: product.id,
      label: `${labelOf(product, locale, product.sku)} (${product.sku})`,
    })),
    shippingMethods: methods(shipping),
    paymentMethods: methods(payment),
  };
}

interface CartView {
  readonly currency: string;
  readonly lines: readonly { id: string; productId: string; quantity: number }[];
  readonly subtotal: { gross: number; net: number };
  readonly priceMode: 'gross' | 'net';
  readonly shippingMethodId: string | null;
  readonly paymentMethodId: string | null;
}

/**
 * Builds the wanted test cart through the storefront operations and answers its context token:
 * the posted token's cart when it is still a live cart of the chosen channel (its lines brought
 * to the wanted ones), else a new context. A method set before and now unchosen cannot be unset
 * through `store.cart.update`, so the cart then starts afresh. Refusals are pinned to the field.
 */
export async function composeTestCart(
  kit: AdminKit,
  session: AdminSession,
  locale: string,
  wanted: TestCartForm,
  offered: TestCartChoices,
): Promise<
  { ok: true; token: string; summary: TestCartSummary } | { ok: false; issue: TestCartIssue; token: string }
> {
  const refuse = (field: string, key: MessageKey, detail = '', token = wanted.token) => ({
    ok: false as const,
    issue: { field, key, detail },
    token,
  });
  if (wanted.channelId === '') return refuse('tc-channel', 'rules.testCart.noChannel');
  // The wanted lines: quantities as the UI language writes whole numbers, each product once.
  const lines: { productId: string; quantity: number }[] = [];
  for (const [index, line] of wanted.lines.entries()) {
    if (line.productId === '') continue;
    const quantity = parseDecimal(line.quantity === '' ? '1' : line.quantity, locale, 0);
    if (quantity === null || quantity < 1 || quantity > 9999) {
      return refuse(lineField(index, 'quantity'), 'rules.testCart.badQuantity');
    }
    if (lines.some((chosen) => chosen.productId === line.productId)) {
      return refuse(lineField(index, 'product'), 'rules.testCart.twice');
    }
    lines.push({ productId: line.productId, quantity });
  }
  if (lines.length === 0) return refuse(lineField(0, 'product'), 'rules.testCart.noLines');
  // Only the methods the page offers (the shop's active ones); the cart checks them again.
  for (const [field, id, methods] of [
    ['tc-shipping', wanted.shippingMethodId, offered.shippingMethods],
    ['tc-payment', wanted.paymentMethodId, offered.paymentMethods],
  ] as const) {
    if (id !== '' && !methods.some((method) => method.id === id)) {
      return refuse(field, 'rules.testCart.noMethod');
    }
  }

  const channelId = wanted.channelId;
  const store = (name: string, token: string, input: Record<string, unknown> = {}) =>
    kit.act(session, name, { channelId, contextToken: token, ...input });
  // Each product as the channel's storefront shows it, before anything is written: a product the
  // channel does not sell leaves the test cart as it was (and opens no context).
  for (const [index, line] of wanted.lines.entries()) {
    if (line.productId === '') continue;
    const shown = await kit.act(session, 'store.products.get', { channelId, id: line.productId });
    if (!shown.ok) {
      const unknownChannel = shown.detail.includes('sales channel');
      return shown.code === 'NOT_FOUND' && !unknownChannel
        ? refuse(lineField(index, 'product'), 'rules.testCart.notSold')
        : refuse(
            unknownChannel ? 'tc-channel' : lineField(index, 'product'),
            'rules.testCart.refused',
            shown.detail,
          );
    }
  }

  let token = wanted.token;
  let cart: CartView | null = null;
  if (token !== '') {
    const current = await store('store.cart.get', token);
    cart = current.ok ? (current.value as CartView) : null;
    const unset =
      cart &&
      ((cart.shippingMethodId !== null && wanted.shippingMethodId === '') ||
        (cart.paymentMethodId !== null && wanted.paymentMethodId === ''));
    if (unset) cart = null;
  }
  if (!cart) {
    const created = await kit.act(session, 'store.context.create', { channelId });
    if (!created.ok) return refuse('tc-channel', 'rules.testCart.refused', created.detail, '');
    token = (created.value as { contextToken: string }).contextToken;
    cart = {
      currency: '',
      lines: [],
      subtotal: { gross: 0, net: 0 },
      priceMode: 'gross',
      shippingMethodId: null,
      paymentMethodId: null,
    };
  }

  // Adds first (the one step a product could still fail), then quantities, removals, methods.
  type Step = { field: string; run: () => Promise<Result<unknown>> };
  const adds: Step[] = [];
  const steps: Step[] = [];
  for (const [index, want] of wanted.lines.entries()) {
    const line = lines.find((chosen) => chosen.productId === want.productId);
    if (!line) continue;
    const existing = cart.lines.find((held) => held.productId === line.productId);
    const field = lineField(index, 'product');
    if (!existing) {
      adds.push({ field, run: () => store('store.cart.lines.add', token, line) });
    } else if (existing.quantity !== line.quantity) {
      steps.push({
        field: lineField(index, 'quantity'),
        run: () => store('store.cart.lines.update', token, { lineId: existing.id, quantity: line.quantity }),
      });
    }
  }
  for (const line of cart.lines) {
    if (!lines.some((want) => want.productId === line.productId)) {
      steps.push({
        field: lineField(0, 'product'),
        run: () => store('store.cart.lines.remove', token, { lineId: line.id }),
      });
    }
  }
  const choices = {
    ...(wanted.shippingMethodId !== '' && wanted.shippingMethodId !== cart.shippingMethodId
      ? { shippingMethodId: wanted.shippingMethodId }
      : {}),
    ...(wanted.paymentMethodId !== '' && wanted.paymentMethodId !== cart.paymentMethodId
      ? { paymentMethodId: wanted.paymentMethodId }
      : {}),
  };
  if (Object.keys(choices).length > 0) {
    const field = 'shippingMethodId' in choices ? 'tc-shipping' : 'tc-payment';
    steps.push({ field, run: () => store('store.cart.update', token, choices) });
  }
  let last: CartView = cart;
  steps.unshift(...adds);
  for (const step of steps) {
    const done = await step.run();
    if (!done.ok) {
      const pointer = done.errors?.[0]?.pointer;
      const field =
        pointer === '/paymentMethodId'
          ? 'tc-payment'
          : pointer === '/shippingMethodId'
            ? 'tc-shipping'
            : step.field;
      const key: MessageKey =
        done.code === 'NOT_FOUND' && field.startsWith('tc-product')
          ? 'rules.testCart.notSold'
          : 'rules.testCart.refused';
      return refuse(field, key, done.detail, token);
    }
    last = done.value as CartView;
  }
  if (steps.length === 0) {
    const current = await store('store.cart.get', token);
    if (current.ok) last = current.value as CartView;
  }
  return {
    ok: true,
    token,
    summary: {
      lineCount: last.lines.length,
      quantity: last.lines.reduce((sum, line) => sum + line.quantity, 0),
      total: last.priceMode === 'net' ? last.subtotal.net : last.subtotal.gross,
      currency: last.currency,
    },
  };
}
