import { type Currency, formatAmount } from '@cartwright/commerce';
import type { CompanyIdentityJson } from '@cartwright/repository';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { type DocumentLabels, type DocumentType, documentTitle } from './labels.ts';
import type { DocumentAddress, DocumentOrder } from './order-snapshot.ts';

/** Everything printed on one document; rendering reads nothing else (no clock, no database). */
export interface DocumentContent {
  readonly type: DocumentType;
  readonly number: number;
  readonly issuedAt: Date;
  readonly seller: CompanyIdentityJson;
  readonly order: DocumentOrder;
  readonly labels: DocumentLabels;
}

const PAGE = { width: 595.28, height: 841.89 } as const; // A4 in points
const MARGIN = 50;
const FOOTER_TOP = 110;
const ROW = 14;
const SIZE = 9;
const GREY = rgb(0.35, 0.35, 0.35);

/** Amounts as the currency writes them: minor units → "19.99 EUR". */
export function formatMoney(minor: number, currency: Currency): string {
  return `${formatAmount(minor, currency)} ${currency.code}`;
}

/** A tax rate in hundredths of a percent as printed: 1900 → "19 %", 1050 → "10.5 %". */
export function formatRate(rate: number): string {
  const fraction = String(rate % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${Math.trunc(rate / 100)}${fraction ? `.${fraction}` : ''} %`;
}

function isoDate(date: Date | string): string {
  return (typeof date === 'string' ? date : date.toISOString()).slice(0, 10);
}

function addressLines(address: DocumentAddress): string[] {
  const name = [address.salutation, address.firstName, address.lastName].filter(Boolean).join(' ');
  return [
    address.company ?? '',
    name,
    address.street,
    address.additionalLine ?? '',
    `${address.zipcode} ${address.city}`,
    address.country,
  ].filter((line) => line.trim() !== '');
}

function sameAddress(a: DocumentAddress, b: DocumentAddress): boolean {
  return addressLines(a).join('\n') === addressLines(b).join('\n');
}

/** Writes text with the standard fonts, which know only WinAnsi: other characters print as "?". */
class Writer {
  private readonly known: ReadonlySet<number>;
  page!: PDFPage;
  y = 0;

  constructor(
    readonly pdf: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.known = new Set(regular.getCharacterSet());
  }

  printable(text: string): string {
    return [...text.replace(/\s+/g, ' ')]
      .map((char) => (this.known.has(char.codePointAt(0)!) ? char : '?'))
      .join('');
  }

  width(text: string, size = SIZE, font = this.regular): number {
    return font.widthOfTextAtSize(this.printable(text), size);
  }

  /** Shortens text with an ellipsis until it fits `max` points. */
  fit(text: string, max: number, size = SIZE, font = this.regular): string {
    let fitted = this.printable(text);
    if (font.widthOfTextAtSize(fitted, size) <= max) return fitted;
    while (fitted.length > 0 && font.widthOfTextAtSize(`${fitted}…`, size) > max)
      fitted = fitted.slice(0, -1);
    return `${fitted}…`;
  }

  /** Splits text into lines of at most `max` points at word boundaries. */
  wrap(text: string, max: number, size = SIZE): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = '';
      for (const word of paragraph.split(' ').filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (line && this.width(candidate, size) > max) {
          lines.push(line);
          line = word;
        } else line = candidate;
      }
      if (line) lines.push(line);
    }
    return lines.map((line) => this.fit(line, max, size));
  }

  text(
    text: string,
    x: number,
    y: number,
    options: { size?: number; bold?: boolean; grey?: boolean } = {},
  ): void {
    this.page.drawText(this.printable(text), {
      x,
      y,
      size: options.size ?? SIZE,
      font: options.bold ? this.bold : this.regular,
      color: options.grey ? GREY : rgb(0, 0, 0),
    });
  }

  /** Text whose right edge is at `right`. */
  right(text: string, right: number, y: number, options: { size?: number; bold?: boolean } = {}): void {
    const width = this.width(text, options.size ?? SIZE, options.bold ? this.bold : this.regular);
    this.text(text, right - width, y, options);
  }

  line(y: number): void {
    this.page.drawLine({
      start: { x: MARGIN, y },
      end: { x: PAGE.width - MARGIN, y },
      thickness: 0.5,
      color: GREY,
    });
  }
}

interface Column {
  readonly title: string;
  /** Left edge for left-aligned columns, right edge for right-aligned ones. */
  readonly at: number;
  readonly align: 'left' | 'right';
  readonly width: number;
}

const RIGHT = PAGE.width - MARGIN;

function columnsOf(type: DocumentType, labels: DocumentLabels): Column[] {
  if (type === 'delivery_note') {
    return [
      { title: labels.position, at: MARGIN, align: 'left', width: 30 },
      { title: labels.sku, at: MARGIN + 35, align: 'left', width: 110 },
      { title: labels.item, at: MARGIN + 150, align: 'left', width: 290 },
      { title: labels.quantity, at: RIGHT, align: 'right', width: 50 },
    ];
  }
  return [
    { title: labels.position, at: MARGIN, align: 'left', width: 25 },
    { title: labels.sku, at: MARGIN + 28, align: 'left', width: 70 },
    { title: labels.item, at: MARGIN + 102, align: 'left', width: 135 },
    { title: labels.quantity, at: RIGHT - 220, align: 'right', width: 35 },
    { title: labels.unitPrice, at: RIGHT - 145, align: 'right', width: 70 },
    { title: labels.tax, at: RIGHT - 95, align: 'right', width: 45 },
    { title: labels.total, at: RIGHT, align: 'right', width: 90 },
  ];
}

function drawRow(writer: Writer, columns: readonly Column[], cells: readonly string[], bold = false): void {
  columns.forEach((column, index) => {
    const text = writer.fit(cells[index] ?? '', column.width, SIZE, bold ? writer.bold : writer.regular);
    if (column.align === 'left') writer.text(text, column.at, writer.y, { bold });
    else writer.right(text, column.at, writer.y, { bold });
  });
  writer.y -= ROW;
}

function sellerLine(seller: CompanyIdentityJson): string {
  const place = [seller.zipcode, seller.city].filter(Boolean).join(' ');
  return [seller.name, seller.street, place, seller.country].filter(Boolean).join(' · ');
}

function footerLines(seller: CompanyIdentityJson, labels: DocumentLabels): string[] {
  const contact = [seller.email, seller.phone, seller.website].filter(Boolean).join(' · ');
  const tax = [
    seller.vatId ? `${labels.vatId} ${seller.vatId}` : '',
    seller.taxNumber ? `${labels.taxNumber} ${seller.taxNumber}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const bank = [
    seller.bankName,
    seller.iban ? `IBAN ${seller.iban}` : '',
    seller.bic ? `BIC ${seller.bic}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return [sellerLine(seller), contact, tax, bank].filter((line) => line !== '');
}

function drawFooter(writer: Writer, content: DocumentContent, pageIndex: number, pageCount: number): void {
  const page = writer.pdf.getPage(pageIndex);
  writer.page = page;
  writer.line(FOOTER_TOP);
  let y = FOOTER_TOP - 12;
  const width = PAGE.width - 2 * MARGIN;
  const notice = content.seller.legalNotice ? writer.wrap(content.seller.legalNotice, width, 7) : [];
  for (const line of [
    ...footerLines(content.seller, content.labels).map((l) => writer.fit(l, width, 7)),
    ...notice,
  ]) {
    if (y < 30) break;
    writer.text(line, MARGIN, y, { size: 7, grey: true });
    y -= 9;
  }
  writer.right(`${content.labels.page} ${pageIndex + 1}/${pageCount}`, RIGHT, 20, { size: 7 });
}

/** Renders an invoice or a delivery note as a PDF (A4, standard fonts, one or more pages). */
export async function renderDocumentPdf(content: DocumentContent): Promise<Uint8Array> {
  const { order, seller, labels, type } = content;
  const currency = order.price.currency;
  const title = documentTitle(labels, type);
  const pdf = await PDFDocument.create();
  const writer = new Writer(
    pdf,
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );

  pdf.setTitle(`${title} ${content.number}`);
  pdf.setSubject(`${labels.orderNumber} ${order.number} · ${seller.name}`);
  pdf.setAuthor(seller.name);
  pdf.setCreator('Cartwright');
  pdf.setProducer('Cartwright (pdf-lib)');
  pdf.setLanguage(order.language);
  pdf.setKeywords([type, `order:${order.number}`, `number:${content.number}`]);
  pdf.setCreationDate(content.issuedAt);
  pdf.setModificationDate(content.issuedAt);

  const columns = columnsOf(type, labels);
  const newPage = (): void => {
    writer.page = pdf.addPage([PAGE.width, PAGE.height]);
    writer.y = PAGE.height - MARGIN;
  };
  const tableHeader = (): void => {
    drawRow(
      writer,
      columns,
      columns.map((column) => column.title),
      true,
    );
    writer.line(writer.y + ROW - 4);
  };
  /** Starts a new page (with the table header when in the table) unless `needed` points fit. */
  const ensure = (needed: number, inTable: boolean): void => {
    if (writer.y - needed >= FOOTER_TOP + 10) return;
    newPage();
    if (inTable) tableHeader();
  };

  // Head: seller, title, recipient, document facts.
  newPage();
  writer.text(seller.name, MARGIN, writer.y, { size: 14, bold: true });
  writer.right(title, RIGHT, writer.y, { size: 18, bold: true });
  writer.y -= 30;
  writer.text(writer.fit(sellerLine(seller), 300, 7), MARGIN, writer.y, { size: 7, grey: true });
  writer.y -= 14;

  const recipient = type === 'invoice' ? order.billingAddress : order.shippingAddress;
  const facts: [string, string][] = [
    [`${title} ${labels.number}`, String(content.number)],
    [labels.date, isoDate(content.issuedAt)],
    [labels.orderNumber, String(order.number)],
    [labels.orderDate, isoDate(order.placedAt)],
  ];
  const top = writer.y;
  for (const line of addressLines(recipient)) {
    writer.text(writer.fit(line, 250), MARGIN, writer.y, { size: 10 });
    writer.y -= 13;
  }
  let factsY = top;
  for (const [label, value] of facts) {
    writer.text(label, RIGHT - 200, factsY);
    writer.right(value, RIGHT, factsY);
    factsY -= 13;
  }
  writer.y = Math.min(writer.y, factsY);

  if (type === 'invoice' && !sameAddress(order.billingAddress, order.shippingAddress)) {
    writer.y -= 8;
    writer.text(labels.shippingAddress, MARGIN, writer.y, { bold: true });
    writer.y -= 12;
    writer.text(writer.fit(addressLines(order.shippingAddress).join(', '), RIGHT - MARGIN), MARGIN, writer.y);
    writer.y -= 12;
  }
  writer.y -= 20;

  // Positions.
  tableHeader();
  order.lines.forEach((line, index) => {
    ensure(ROW, true);
    const options = Object.values(line.options ?? {});
    const name = `${line.name ?? line.sku}${options.length > 0 ? ` (${options.join(', ')})` : ''}`;
    const cells =
      type === 'delivery_note'
        ? [String(index + 1), line.sku, name, String(line.quantity)]
        : [
            String(index + 1),
            line.sku,
            name,
            String(line.quantity),
            formatMoney(line.unitPrice, currency),
            formatRate(line.taxRate),
            formatMoney(order.price.priceMode === 'gross' ? line.total.gross : line.total.net, currency),
          ];
    drawRow(writer, columns, cells);
  });
  writer.line(writer.y + ROW - 4);

  // Totals.
  if (type === 'invoice') {
    const price = order.price;
    const inMode = (amount: { gross: number; net: number }) =>
      price.priceMode === 'gross' ? amount.gross : amount.net;
    const totals: [string, string, boolean][] = [
      [labels.subtotal, formatMoney(inMode(price.subtotal), currency), false],
      [labels.shipping, formatMoney(inMode(price.shipping), currency), false],
      ...price.promotions.map((promotion): [string, string, boolean] => [
        promotion.name[order.language] ?? Object.values(promotion.name)[0] ?? '',
        formatMoney(inMode(promotion.amount), currency),
        false,
      ]),
      [labels.totalNet, formatMoney(price.total.net, currency), false],
      ...price.taxes.map((entry): [string, string, boolean] => [
        `${labels.vat} ${formatRate(entry.rate)} (${formatMoney(entry.base, currency)})`,
        formatMoney(entry.tax, currency),
        false,
      ]),
      [labels.totalGross, formatMoney(price.total.gross, currency), true],
    ];
    writer.y -= 4;
    for (const [label, value, bold] of totals) {
      ensure(ROW, false);
      writer.text(label, RIGHT - 250, writer.y, { bold });
      writer.right(value, RIGHT, writer.y, { bold });
      writer.y -= ROW;
    }
  }

  const pageCount = pdf.getPageCount();
  for (let index = 0; index < pageCount; index++) drawFooter(writer, content, index, pageCount);
  return pdf.save();
}
