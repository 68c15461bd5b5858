import type { Currency } from '@cartwright/commerce';
import { type DocumentLabels, documentLabels } from '../documents/labels.ts';
import type { DocumentOrder } from '../documents/order-snapshot.ts';
import { formatMoney, formatRate } from '../documents/render.ts';

// The order confirmation mail: subject, plain text and a simple HTML part, rendered from the
// order's snapshot (the same view documents print) in English, German, Spanish or French. The
// words an invoice shares with it (order no., subtotal, shipping, VAT, total) come from the
// document labels; money is formatted as documents format it. Rendering reads nothing else.

export const MAIL_LANGUAGES = ['en', 'de', 'es', 'fr'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/** Who the mail comes from, as the shop presents itself. */
export interface ShopIdentity {
  /** The company name (company identity), else the shop's name. */
  readonly name: string;
  /** The shop's main language: the fallback when the order's language has no template. */
  readonly mainLanguage: string;
  /** A contact address printed under the greeting, when the shop has one. */
  readonly email?: string | null | undefined;
}

export interface RenderedMail {
  readonly language: MailLanguage;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** The words of the mail that documents do not print. */
interface MailTexts {
  readonly subject: (orderNumber: number, shop: string) => string;
  readonly greeting: (name: string) => string;
  readonly intro: (shop: string) => string;
  readonly discount: string;
  readonly closing: string;
  readonly contact: string;
}

const TEXTS: Readonly<Record<MailLanguage, MailTexts>> = {
  en: {
    subject: (number, shop) => `Order confirmation ${number} – ${shop}`,
    greeting: (name) => `Hello ${name},`,
    intro: (shop) =>
      `Thank you for your order at ${shop}. We have received it and will let you know when it is on its way.`,
    discount: 'Discount',
    closing: 'Kind regards',
    contact: 'Questions? Write to us at',
  },
  de: {
    subject: (number, shop) => `Bestellbestätigung ${number} – ${shop}`,
    greeting: (name) => `Guten Tag ${name},`,
    intro: (shop) =>
      `vielen Dank für Ihre Bestellung bei ${shop}. Wir haben sie erhalten und melden uns, sobald sie unterwegs ist.`,
    discount: 'Rabatt',
    closing: 'Mit freundlichen Grüßen',
    contact: 'Fragen? Schreiben Sie uns an',
  },
  es: {
    subject: (number, shop) => `Confirmación del pedido ${number} – ${shop}`,
    greeting: (name) => `Hola, ${name}:`,
    intro: (shop) =>
      `Gracias por su pedido en ${shop}. Lo hemos recibido y le avisaremos cuando esté en camino.`,
    discount: 'Descuento',
    closing: 'Atentamente',
    contact: '¿Preguntas? Escríbanos a',
  },
  fr: {
    subject: (number, shop) => `Confirmation de commande ${number} – ${shop}`,
    greeting: (name) => `Bonjour ${name},`,
    intro: (shop) =>
      `Merci pour votre commande chez ${shop}. Nous l’avons bien reçue et vous informerons dès son expédition.`,
    discount: 'Remise',
    closing: 'Cordialement',
    contact: 'Des questions ? Écrivez-nous à',
  },
};

function isMailLanguage(code: string): code is MailLanguage {
  return (MAIL_LANGUAGES as readonly string[]).includes(code);
}

function baseLanguage(code: string): string {
  return code.split('-')[0]!.toLowerCase();
}

/** The order's language, else its base language (de-CH → de), else the shop's main language (or its base), else English. */
export function confirmationLanguage(orderLanguage: string, mainLanguage: string): MailLanguage {
  for (const code of [orderLanguage, baseLanguage(orderLanguage), mainLanguage, baseLanguage(mainLanguage)]) {
    if (isMailLanguage(code)) return code;
  }
  return 'en';
}

/** One row of the totals: a label and a formatted amount; `strong` for the grand total. */
interface TotalRow {
  readonly label: string;
  readonly amount: string;
  readonly strong: boolean;
}

interface LineRow {
  readonly quantity: number;
  readonly name: string;
  readonly unitPrice: string;
  readonly total: string;
}

/** The rows the text and the HTML part both show. */
function rowsOf(order: DocumentOrder, language: MailLanguage, shop: ShopIdentity, labels: DocumentLabels) {
  const price = order.price;
  const currency: Currency = price.currency;
  const inMode = (amount: { gross: number; net: number }) =>
    price.priceMode === 'gross' ? amount.gross : amount.net;
  const lines: LineRow[] = order.lines.map((line) => {
    const options = Object.values(line.options ?? {});
    return {
      quantity: line.quantity,
      name: `${line.name ?? line.sku}${options.length > 0 ? ` (${options.join(', ')})` : ''}`,
      unitPrice: formatMoney(line.unitPrice, currency),
      total: formatMoney(inMode(line.total), currency),
    };
  });
  const promotionName = (names: Readonly<Record<string, string>>): string =>
    [order.language, baseLanguage(order.language), language, shop.mainLanguage, 'en']
      .map((code) => names[code])
      .find((name) => name !== undefined && name !== '') ??
    Object.values(names).find((name) => name !== '') ??
    TEXTS[language].discount;
  const totals: TotalRow[] = [
    { label: labels.subtotal, amount: formatMoney(inMode(price.subtotal), currency), strong: false },
    { label: labels.shipping, amount: formatMoney(inMode(price.shipping), currency), strong: false },
    ...price.promotions.map((promotion) => ({
      label: promotionName(promotion.name),
      amount: formatMoney(inMode(promotion.amount), currency),
      strong: false,
    })),
    { label: labels.totalNet, amount: formatMoney(price.total.net, currency), strong: false },
    ...price.taxes.map((entry) => ({
      label: `${labels.vat} ${formatRate(entry.rate)}`,
      amount: formatMoney(entry.tax, currency),
      strong: false,
    })),
    { label: labels.totalGross, amount: formatMoney(price.total.gross, currency), strong: true },
  ];
  return { lines, totals };
}

/**
 * The order confirmation of `order` in `language` (resolved by `confirmationLanguage` against the
 * shop's main language), from `shop`.
 */
export function renderOrderConfirmation(
  order: DocumentOrder,
  language: string,
  shop: ShopIdentity,
): RenderedMail {
  const resolved = confirmationLanguage(language, shop.mainLanguage);
  const texts = TEXTS[resolved];
  const labels = documentLabels(resolved);
  const { lines, totals } = rowsOf(order, resolved, shop, labels);
  const name = `${order.billingAddress.firstName} ${order.billingAddress.lastName}`.trim();
  const placedOn = order.placedAt.slice(0, 10);
  // A header is one line, whatever the shop's name holds.
  const subject = texts.subject(order.number, shop.name).replace(/\s+/g, ' ').trim();
  const contact = shop.email ? `${texts.contact} ${shop.email}` : null;

  const text = [
    texts.greeting(name),
    '',
    texts.intro(shop.name),
    '',
    `${labels.orderNumber}: ${order.number}`,
    `${labels.orderDate}: ${placedOn}`,
    '',
    ...lines.map(
      (line) => `${line.quantity} × ${line.name}: ${line.total} (${labels.unitPrice} ${line.unitPrice})`,
    ),
    '',
    ...totals.map((row) => `${row.label}: ${row.amount}`),
    '',
    ...(contact ? [contact, ''] : []),
    texts.closing,
    shop.name,
    '',
  ].join('\n');

  const cell = (content: string, align: 'left' | 'right' = 'left', strong = false) =>
    `<td style="padding:4px 8px;text-align:${align}">${strong ? `<strong>${content}</strong>` : content}</td>`;
  const html = [
    '<!doctype html>',
    `<html lang="${resolved}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Helvetica,Arial,sans-serif;font-size:14px;color:#222">',
    `<p>${escapeHtml(texts.greeting(name))}</p>`,
    `<p>${escapeHtml(texts.intro(shop.name))}</p>`,
    `<p>${escapeHtml(labels.orderNumber)}: <strong>${order.number}</strong><br>${escapeHtml(labels.orderDate)}: ${placedOn}</p>`,
    '<table style="border-collapse:collapse">',
    `<thead><tr>${[labels.quantity, labels.item, labels.unitPrice, labels.total]
      .map(
        (title, index) =>
          `<th style="padding:4px 8px;text-align:${index < 2 ? 'left' : 'right'}">${escapeHtml(title)}</th>`,
      )
      .join('')}</tr></thead>`,
    '<tbody>',
    ...lines.map(
      (line) =>
        `<tr>${cell(String(line.quantity))}${cell(escapeHtml(line.name))}${cell(escapeHtml(line.unitPrice), 'right')}${cell(escapeHtml(line.total), 'right')}</tr>`,
    ),
    '</tbody>',
    '<tfoot>',
    ...totals.map(
      (row) =>
        `<tr><td></td>${cell(escapeHtml(row.label), 'left', row.strong)}<td></td>${cell(escapeHtml(row.amount), 'right', row.strong)}</tr>`,
    ),
    '</tfoot>',
    '</table>',
    ...(contact ? [`<p>${escapeHtml(contact)}</p>`] : []),
    `<p>${escapeHtml(texts.closing)}<br>${escapeHtml(shop.name)}</p>`,
    '</body></html>',
    '',
  ].join('\n');

  return { language: resolved, subject, text, html };
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
