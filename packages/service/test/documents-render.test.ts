import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { documentLabels } from '../src/documents/labels.ts';
import type { DocumentOrder } from '../src/documents/order-snapshot.ts';
import { formatMoney, formatRate, renderDocumentPdf } from '../src/documents/render.ts';
import { drawnText } from './pdf-text.ts';

describe('formatMoney', () => {
  it.each([
    [4998, 'EUR', 2, '49.98 EUR'],
    [5, 'EUR', 2, '0.05 EUR'],
    [-150, 'EUR', 2, '-1.50 EUR'],
    [1200, 'JPY', 0, '1200 JPY'],
    [1234, 'KWD', 3, '1.234 KWD'],
  ])('writes %i minor units of %s (precision %i) as %s', (minor, code, precision, expected) => {
    expect(formatMoney(minor, { code, precision })).toBe(expected);
  });
});

describe('formatRate', () => {
  it.each([
    [1900, '19 %'],
    [700, '7 %'],
    [1050, '10.5 %'],
    [25, '0.25 %'],
    [0, '0 %'],
  ])('writes %i hundredths of a percent as %s', (rate, expected) => {
    expect(formatRate(rate)).toBe(expected);
  });
});

const address = {
  firstName: 'Max',
  lastName: 'Muster',
  street: 'Weg 1',
  zipcode: '12345',
  city: 'Ort',
  country: 'DE',
};

function orderWithLines(count: number): DocumentOrder {
  const lines = Array.from({ length: count }, (_, index) => ({
    productId: `p${index}`,
    sku: `SKU-${index + 1}`,
    name: `Position ${index + 1} ${'with a very long product name '.repeat(index === 0 ? 6 : 0)}`.trim(),
    quantity: 1,
    unitPrice: 100,
    taxRate: 700,
    total: { net: 93, tax: 7, gross: 100 },
  }));
  const taxed = { net: 93 * count, tax: 7 * count, gross: 100 * count };
  return {
    id: 'order',
    number: 42,
    language: 'fr',
    placedAt: '2025-03-04T10:00:00.000Z',
    lines,
    price: {
      currency: { code: 'EUR', precision: 2 },
      priceMode: 'gross',
      subtotal: taxed,
      shipping: { net: 0, tax: 0, gross: 0, taxRate: 700 },
      promotions: [],
      taxes: [{ rate: 700, tax: taxed.tax, base: taxed.net }],
      total: taxed,
    },
    billingAddress: address,
    shippingAddress: address,
  };
}

describe('renderDocumentPdf', () => {
  it('continues a long order on further pages, each with its page number', async () => {
    const bytes = await renderDocumentPdf({
      type: 'invoice',
      number: 7,
      issuedAt: new Date('2025-03-05T08:00:00Z'),
      seller: { name: 'Vendeur SARL' },
      order: orderWithLines(120),
      labels: documentLabels('fr'),
    });
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBeGreaterThan(2);
    expect(pdf.getTitle()).toBe('Facture 7');
    const text = await drawnText(bytes);
    for (let index = 1; index <= 120; index++) expect(text).toContain(`\nSKU-${index}\n`);
    expect(text).toContain(`Page ${pdf.getPageCount()}/${pdf.getPageCount()}`);
    expect(text).toContain('Total TTC');
    // A name wider than its column is shortened, not drawn over the next column.
    expect(text).toMatch(/Position 1 with a very long[^\n]*…/);
  });

  it('prints each redeemed promotion between shipping and the totals, in the order’s language', async () => {
    const order = orderWithLines(2);
    const bytes = await renderDocumentPdf({
      type: 'invoice',
      number: 8,
      issuedAt: new Date('2025-03-05T08:00:00Z'),
      seller: { name: 'Vendeur SARL' },
      order: {
        ...order,
        price: {
          ...order.price,
          promotions: [
            { name: { en: 'Spring', fr: 'Printemps' }, amount: { net: -19, tax: -1, gross: -20 } },
          ],
          taxes: [{ rate: 700, tax: 13, base: 167 }],
          total: { net: 167, tax: 13, gross: 180 },
        },
      },
      labels: documentLabels('fr'),
    });
    const text = await drawnText(bytes);
    expect(text).toMatch(/Printemps\n-0\.20 EUR/);
    expect(text).toContain('1.80 EUR');
  });
});
