export type DocumentType = 'invoice' | 'delivery_note';

/** The printed words of a document, in one language. */
export interface DocumentLabels {
  readonly invoice: string;
  readonly deliveryNote: string;
  readonly number: string;
  readonly date: string;
  readonly orderNumber: string;
  readonly orderDate: string;
  readonly shippingAddress: string;
  readonly position: string;
  readonly item: string;
  readonly sku: string;
  readonly quantity: string;
  readonly unitPrice: string;
  readonly tax: string;
  readonly total: string;
  readonly subtotal: string;
  readonly shipping: string;
  readonly totalNet: string;
  readonly vat: string;
  readonly totalGross: string;
  readonly vatId: string;
  readonly taxNumber: string;
  readonly page: string;
}

const en: DocumentLabels = {
  invoice: 'Invoice',
  deliveryNote: 'Delivery note',
  number: 'No.',
  date: 'Date',
  orderNumber: 'Order no.',
  orderDate: 'Order date',
  shippingAddress: 'Shipping address',
  position: 'Pos.',
  item: 'Item',
  sku: 'SKU',
  quantity: 'Qty',
  unitPrice: 'Unit price',
  tax: 'VAT',
  total: 'Total',
  subtotal: 'Subtotal',
  shipping: 'Shipping',
  totalNet: 'Total net',
  vat: 'VAT',
  totalGross: 'Total',
  vatId: 'VAT ID',
  taxNumber: 'Tax no.',
  page: 'Page',
};

const de: DocumentLabels = {
  invoice: 'Rechnung',
  deliveryNote: 'Lieferschein',
  number: 'Nr.',
  date: 'Datum',
  orderNumber: 'Bestellnr.',
  orderDate: 'Bestelldatum',
  shippingAddress: 'Lieferadresse',
  position: 'Pos.',
  item: 'Artikel',
  sku: 'Art.-Nr.',
  quantity: 'Menge',
  unitPrice: 'Einzelpreis',
  tax: 'USt.',
  total: 'Gesamt',
  subtotal: 'Zwischensumme',
  shipping: 'Versand',
  totalNet: 'Gesamt netto',
  vat: 'USt.',
  totalGross: 'Gesamtbetrag',
  vatId: 'USt-IdNr.',
  taxNumber: 'Steuernr.',
  page: 'Seite',
};

const es: DocumentLabels = {
  invoice: 'Factura',
  deliveryNote: 'Albarán',
  number: 'N.º',
  date: 'Fecha',
  orderNumber: 'N.º de pedido',
  orderDate: 'Fecha del pedido',
  shippingAddress: 'Dirección de envío',
  position: 'Pos.',
  item: 'Artículo',
  sku: 'Ref.',
  quantity: 'Cant.',
  unitPrice: 'Precio unitario',
  tax: 'IVA',
  total: 'Total',
  subtotal: 'Subtotal',
  shipping: 'Envío',
  totalNet: 'Total neto',
  vat: 'IVA',
  totalGross: 'Total',
  vatId: 'NIF-IVA',
  taxNumber: 'NIF',
  page: 'Página',
};

const fr: DocumentLabels = {
  invoice: 'Facture',
  deliveryNote: 'Bon de livraison',
  number: 'N°',
  date: 'Date',
  orderNumber: 'N° de commande',
  orderDate: 'Date de commande',
  shippingAddress: 'Adresse de livraison',
  position: 'Pos.',
  item: 'Article',
  sku: 'Réf.',
  quantity: 'Qté',
  unitPrice: 'Prix unitaire',
  tax: 'TVA',
  total: 'Total',
  subtotal: 'Sous-total',
  shipping: 'Livraison',
  totalNet: 'Total HT',
  vat: 'TVA',
  totalGross: 'Total TTC',
  vatId: 'N° TVA',
  taxNumber: 'N° fiscal',
  page: 'Page',
};

const byLanguage: Readonly<Record<string, DocumentLabels>> = { en, de, es, fr };

/** The labels of a language (`de-CH` falls back to `de`); English for any other language. */
export function documentLabels(language: string): DocumentLabels {
  return byLanguage[language] ?? byLanguage[language.split('-')[0] ?? ''] ?? en;
}

/** The document's title word: "Invoice", "Rechnung", … */
export function documentTitle(labels: DocumentLabels, type: DocumentType): string {
  return type === 'invoice' ? labels.invoice : labels.deliveryNote;
}
