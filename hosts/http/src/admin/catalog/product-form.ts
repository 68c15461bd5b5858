import { formatAmount, parseAmount } from '../channel-form.ts';
import type { FormBody } from '../kit.ts';

// The product form's data (no markup, decision 0047): what the page shows in its fields, how a
// posted form becomes `catalog.products.update`'s input (only the fields that differ from the
// product as read, so a save with nothing changed sends the revision alone and still publishes
// staged gallery entries), and where the operation's field errors belong.

/** A price as `catalog.products.get` answers it (list prices are kept as they are). */
export interface StoredPrice {
  readonly currency: string;
  readonly gross: number;
  readonly net: number;
  readonly listGross?: number | null;
  readonly listNet?: number | null;
}

/** The product fields the form edits, as `catalog.products.get` answers them (effective or own). */
export interface EditedProduct {
  readonly sku: string;
  readonly active: boolean | null;
  readonly translations: Record<string, Record<string, string | null>> | null;
  readonly prices: readonly StoredPrice[] | null;
  readonly stockAvailable: number;
}

/** What the fields hold: as read, or as the member typed them (kept on a refusal). */
export interface ProductEntries {
  readonly sku: string;
  readonly name: string;
  readonly description: string;
  readonly active: boolean;
  readonly stock: string;
  /** Per currency of the product's prices, the amounts as the UI language writes them. */
  readonly prices: Readonly<Record<string, { readonly gross: string; readonly net: string }>>;
}

/** A field's problem: a message key of the catalog area, or the operation's own (English) text. */
export type FieldProblem =
  | { readonly key: 'catalog.edit.error.amount'; readonly currency: string }
  | { readonly key: 'catalog.edit.error.stock' }
  | { readonly key: 'catalog.edit.error.sku' }
  | { readonly text: string };

/** Field name (`sku`, `name`, `description`, `active`, `stock`, `price.EUR.gross`, …) → problems. */
export type FieldErrors = ReadonlyMap<string, readonly FieldProblem[]>;

export const priceField = (currency: string, part: 'gross' | 'net') => `price.${currency}.${part}`;

/** The fields as the product reads, in the content language and the UI language's notation. */
export function entriesOf(product: EditedProduct, language: string, locale: string): ProductEntries {
  const texts = product.translations?.[language] ?? {};
  return {
    sku: product.sku,
    name: texts.name ?? '',
    description: texts.description ?? '',
    active: product.active !== false,
    stock: String(product.stockAvailable),
    prices: Object.fromEntries(
      (product.prices ?? []).map((price) => [
        price.currency,
        {
          gross: formatAmount(price.gross, locale, price.currency),
          net: formatAmount(price.net, locale, price.currency),
        },
      ]),
    ),
  };
}

function text(form: FormBody, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

/** The posted fields as typed (for the currencies the product has). */
export function postedEntries(form: FormBody, product: EditedProduct): ProductEntries {
  return {
    sku: text(form, 'sku'),
    name: text(form, 'name'),
    description: text(form, 'description'),
    active: form.active !== undefined,
    stock: text(form, 'stock'),
    prices: Object.fromEntries(
      (product.prices ?? []).map((price) => [
        price.currency,
        {
          gross: text(form, priceField(price.currency, 'gross')),
          net: text(form, priceField(price.currency, 'net')),
        },
      ]),
    ),
  };
}

export type UpdateInput = Record<string, unknown>;

/**
 * The update's input from the posted entries: `product` is the effective record (what the page
 * showed), `own` the stored one (a variant's own texts are the base of its translations, so an
 * inherited text is never copied into it). An emptied name or description sends null: the
 * language's own text goes and the main language's shows again (a parent's main-language name is
 * required, and the operation says so on the name). Problems of the form itself are answered
 * before anything is sent.
 */
export function updateInputOf(
  entries: ProductEntries,
  product: EditedProduct,
  own: EditedProduct,
  language: string,
  locale: string,
): { ok: true; input: UpdateInput; prices: readonly string[] } | { ok: false; errors: FieldErrors } {
  const errors = new Map<string, FieldProblem[]>();
  const problem = (field: string, found: FieldProblem) =>
    errors.set(field, [...(errors.get(field) ?? []), found]);
  const input: UpdateInput = {};

  const sku = entries.sku.trim();
  if (sku === '') problem('sku', { key: 'catalog.edit.error.sku' });
  else if (sku !== product.sku) input.sku = sku;

  if (entries.active !== (product.active !== false)) input.active = entries.active;

  const stock = entries.stock.trim();
  if (!/^\d{1,9}$/.test(stock)) problem('stock', { key: 'catalog.edit.error.stock' });
  else if (Number(stock) !== product.stockAvailable) input.stockAvailable = Number(stock);

  const shown = product.translations?.[language] ?? {};
  const name = entries.name.trim();
  const description = entries.description.trim();
  if (name !== (shown.name ?? '') || description !== (shown.description ?? '')) {
    const base = own.translations ?? {};
    input.translations = {
      ...base,
      [language]: { ...base[language], name: name || null, description: description || null },
    };
  }

  const currencies = (product.prices ?? []).map((price) => price.currency);
  let pricesChanged = false;
  const prices = (product.prices ?? []).map((price) => {
    const typed = entries.prices[price.currency] ?? { gross: '', net: '' };
    const gross = parseAmount(typed.gross, locale, price.currency);
    const net = parseAmount(typed.net, locale, price.currency);
    if (gross === null)
      problem(priceField(price.currency, 'gross'), {
        key: 'catalog.edit.error.amount',
        currency: price.currency,
      });
    if (net === null)
      problem(priceField(price.currency, 'net'), {
        key: 'catalog.edit.error.amount',
        currency: price.currency,
      });
    if (gross !== price.gross || net !== price.net) pricesChanged = true;
    return { ...price, gross: gross ?? price.gross, net: net ?? price.net };
  });
  if (pricesChanged) input.prices = prices;

  if (errors.size > 0) return { ok: false, errors };
  return { ok: true, input, prices: currencies };
}

/**
 * The operation's field errors on the form's fields (`/translations/de/name` → `name`,
 * `/prices/0/gross` → that currency's gross, …); the rest under `''` (shown with the notice).
 */
export function fieldErrorsOf(
  errors: readonly { readonly pointer: string; readonly message: string }[],
  currencies: readonly string[],
): FieldErrors {
  const mapped = new Map<string, FieldProblem[]>();
  for (const { pointer, message } of errors) {
    const parts = pointer.split('/').slice(1);
    let field = '';
    if (parts[0] === 'sku') field = 'sku';
    else if (parts[0] === 'active') field = 'active';
    else if (parts[0] === 'stockAvailable') field = 'stock';
    else if (parts[0] === 'translations') field = parts[2] === 'description' ? 'description' : 'name';
    else if (parts[0] === 'prices') {
      const currency = currencies[Number(parts[1])];
      field = currency ? priceField(currency, parts[2] === 'net' ? 'net' : 'gross') : '';
    }
    mapped.set(field, [...(mapped.get(field) ?? []), { text: message }]);
  }
  return mapped;
}

/** The rendered entries as the form carries them (`was`), so a stale save can tell edits apart. */
export function wasOf(entries: ProductEntries): string {
  return JSON.stringify(entries);
}

/**
 * After a stale save: the member's edits (posted ≠ what the form was rendered with, `was`) over
 * the product's values now; a field left as it was shows the current value.
 */
export function keptEntries(posted: ProductEntries, was: string, now: ProductEntries): ProductEntries {
  let before: Partial<ProductEntries>;
  try {
    const parsed: unknown = JSON.parse(was);
    before = parsed && typeof parsed === 'object' ? (parsed as Partial<ProductEntries>) : {};
  } catch {
    before = {};
  }
  const pick = <T>(mine: T, then: T | undefined, current: T): T =>
    then !== undefined && mine === then ? current : mine;
  return {
    sku: pick(posted.sku, before.sku, now.sku),
    name: pick(posted.name, before.name, now.name),
    description: pick(posted.description, before.description, now.description),
    active: pick(posted.active, before.active, now.active),
    stock: pick(posted.stock, before.stock, now.stock),
    prices: Object.fromEntries(
      Object.entries(now.prices).map(([currency, current]) => {
        const mine = posted.prices[currency] ?? current;
        const then = before.prices?.[currency];
        return [
          currency,
          {
            gross: pick(mine.gross, then?.gross, current.gross),
            net: pick(mine.net, then?.net, current.net),
          },
        ];
      }),
    ),
  };
}
